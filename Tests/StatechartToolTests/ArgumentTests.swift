import StatechartToolKit
import Terminal
import Testing

@Suite("statechart: arguments")
struct ArgumentTests {
    typealias Invocation = StatechartToolInvocation

    static func parse(_ arguments: [String], environment: [String: String] = [:]) -> Result<Invocation, UsageError> {
        Invocation.parse(arguments, environment: environment)
    }

    @Test(
        "each subcommand with its operand and options",
        arguments: [
            (["run", "a.scxml"], Invocation.run(file: "a.scxml", log: false)),
            (["run", "a.scxml", "--delay-scale", "0.5"], .run(file: "a.scxml", log: false, delayScale: 0.5)),
            (["run", "--log", "a.json"], .run(file: "a.json", log: true)),
            (["check", "dir"], .check(directory: "dir")),
            (["diagram", "a.scxml"], .diagram(file: "a.scxml", format: .mermaid)),
            (["diagram", "a.scxml", "--format", "dot"], .diagram(file: "a.scxml", format: .dot)),
            (["diagram", "--format=mermaid", "a.json"], .diagram(file: "a.json", format: .mermaid)),
            (["--help"], .help), (["-h"], .help), (["help"], .help), (["run", "x", "--help"], .help),
        ]
    )
    func valid(arguments: [String], expected: Invocation) throws {
        #expect(try Self.parse(arguments).get() == expected)
    }

    @Test(
        "usage errors name what is wrong",
        arguments: [
            ([], "missing a subcommand: run, check or diagram"),
            (["draw", "a.scxml"], "unknown subcommand 'draw' (expected run, check or diagram)"),
            (["run"], "'run' needs a chart file (FILE: .scxml or .json)"),
            (["check"], "'check' needs a directory of SCION tests (DIR)"),
            (["run", "a.scxml", "b.scxml"], "unexpected argument 'b.scxml': 'run' takes one operand"),
            (["run", "a.scxml", "--verbose"], "unknown option '--verbose'"),
            (["diagram", "a.scxml", "--format"], "--format needs a value: mermaid or dot"),
            (["diagram", "a.scxml", "--format", "svg"], "unknown format 'svg' (expected mermaid or dot)"),
            (["run", "a.scxml", "--format", "dot"], "--format applies only to 'statechart diagram'"),
            (["check", "dir", "--log"], "--log applies only to 'statechart run'"),
            (
                ["diagram", "a.scxml", "--delay-scale", "2"],
                "--delay-scale applies only to 'statechart run'"
            ),
        ]
    )
    func invalid(arguments: [String], message: String) {
        switch Self.parse(arguments) {
        case .success(let invocation): Issue.record("\(arguments) parsed as \(invocation)")
        case .failure(let error): #expect(error.message == message)
        }
    }
}
