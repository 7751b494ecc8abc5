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
            (["check", "t.txml", "--stylesheet", "c.xsl"], .check(directory: "t.txml", stylesheet: "c.xsl")),
            (["diagram", "a.scxml"], .diagram(file: "a.scxml", format: .mermaid)),
            (["diagram", "a.scxml", "--format", "dot"], .diagram(file: "a.scxml", format: .dot)),
            (["diagram", "--format=mermaid", "a.json"], .diagram(file: "a.json", format: .mermaid)),
            (["diagram", "a.scxml", "--format", "svg"], .diagram(file: "a.scxml", format: .svg)),
            (
                ["diagram", "a.scxml", "--format", "png", "-o", "a.png"],
                .diagram(file: "a.scxml", format: .png, output: "a.png")
            ),
            (
                ["diagram", "--output=a.dot", "a.scxml", "--format", "dot"],
                .diagram(file: "a.scxml", format: .dot, output: "a.dot")
            ),
            (["run", "a.scxml", "--record", "t.json"], .run(file: "a.scxml", log: false, record: "t.json")),
            (["view", "a.scxml", "-o", "run.html"], .view(file: "a.scxml", trace: nil, output: "run.html")),
            (
                ["view", "--trace", "t.json", "a.json", "--output", "r.html"],
                .view(file: "a.json", trace: "t.json", output: "r.html")
            ),
            (
                ["run", "a.scxml", "--allow-sources", "/etc", "--allow-sources=/srv/data"],
                .run(file: "a.scxml", log: false, allowSources: ["/etc", "/srv/data"])
            ),
            (
                ["view", "a.scxml", "-o", "r.html", "--allow-sources", "d"],
                .view(file: "a.scxml", trace: nil, output: "r.html", allowSources: ["d"])
            ),
            (
                ["diagram", "a.scxml", "--allow-sources", "d"],
                .diagram(file: "a.scxml", format: .mermaid, allowSources: ["d"])
            ),
            (
                ["check", "tests", "--allow-sources", "d", "--allow-sources", "e"],
                .check(directory: "tests", allowSources: ["d", "e"])
            ),
            (["--help"], .help()), (["-h"], .help()), (["help"], .help()),
            (["run", "x", "--help"], .help(command: "run")), (["help", "check"], .help(command: "check")),
            // Without --format, the extension of the file written names the format.
            (["diagram", "a.scxml", "-o", "p.png"], .diagram(file: "a.scxml", format: .png, output: "p.png")),
            (["diagram", "a.scxml", "-o", "p.SVG"], .diagram(file: "a.scxml", format: .svg, output: "p.SVG")),
            (["diagram", "a.scxml", "-o", "p.gv"], .diagram(file: "a.scxml", format: .dot, output: "p.gv")),
            (["diagram", "a.scxml", "-o", "p.mmd"], .diagram(file: "a.scxml", format: .mermaid, output: "p.mmd")),
            // --format decides when given.
            (
                ["diagram", "a.scxml", "--format", "dot", "-o", "p.png"],
                .diagram(file: "a.scxml", format: .dot, output: "p.png")
            ),
            (
                ["view", "a.scxml", "-o", "page.txt", "--format", "html"],
                .view(file: "a.scxml", trace: nil, output: "page.txt")
            ),
            (
                ["run", "a.scxml", "--record", "t.log", "--format", "json"],
                .run(file: "a.scxml", log: false, record: "t.log")
            ),
            (["check", "w3c/manifest.xml", "--strict"], .check(directory: "w3c/manifest.xml", strict: true)),
        ]
    )
    func valid(arguments: [String], expected: Invocation) throws {
        #expect(try Self.parse(arguments).get() == expected)
    }

    @Test(
        "usage errors name what is wrong",
        arguments: [
            ([], "missing a subcommand: run, check, diagram, view or export"),
            (["draw", "a.scxml"], "unknown subcommand 'draw' (expected run, check, diagram, view or export)"),
            (["run"], "'run' needs a chart file (FILE: .scxml or .json)"),
            (
                ["check"],
                "'check' needs conformance tests (PATH: a directory of SCION or W3C tests, a manifest.xml, or one test file)"
            ),
            (["run", "a.scxml", "--stylesheet", "c.xsl"], "--stylesheet applies only to 'statechart check'"),
            (["run", "a.scxml", "b.scxml"], "unexpected argument 'b.scxml': 'run' takes one operand"),
            (["run", "a.scxml", "--verbose"], "unknown option '--verbose'"),
            (
                ["diagram", "a.scxml", "--format"],
                "--format needs a value: mermaid, dot, svg or png (diagram), html (view), json (run --record), scxml (export)"
            ),
            (
                ["diagram", "a.scxml", "--format", "gif"],
                "unknown format 'gif' for 'diagram' (expected mermaid, dot, svg or png)"
            ),
            (
                ["diagram", "a.scxml", "--format", "png"],
                "--format png needs -o PATH, the file to write (a PNG is not text; for example -o chart.png)"
            ),
            // Never text in an image file: an extension that names no format is an error.
            (
                ["diagram", "a.scxml", "-o", "p.jpg"],
                "cannot tell the format of 'p.jpg' from its extension (.svg, .png, .dot, .gv or .mmd); give --format mermaid|dot|svg|png"
            ),
            (
                ["diagram", "a.scxml", "-o", "diagram"],
                "cannot tell the format of 'diagram' from its extension (.svg, .png, .dot, .gv or .mmd); give --format mermaid|dot|svg|png"
            ),
            (
                ["view", "a.scxml", "-o", "page.png"],
                "cannot tell the format of 'page.png' from its extension (.html or .htm); give --format html"
            ),
            (
                ["run", "a.scxml", "--record", "trace.txt"],
                "cannot tell the format of 'trace.txt' from its extension (.json); give --format json"
            ),
            (["view", "a.scxml", "-o", "p.html", "--format", "svg"], "unknown format 'svg' for -o (expected html)"),
            (["run", "a.scxml", "--format", "json"], "--format applies to 'statechart run' only with --record TRACE"),
            (["run", "a.scxml", "--strict"], "--strict applies only to 'statechart check'"),
            (["help", "draw"], "'help' takes one of run, check, diagram, view or export, not 'draw'"),
            (["diagram", "a.scxml", "-o"], "-o needs a value: a file to write"),
            (["view", "a.scxml"], "'view' needs -o PAGE, the HTML file to write (for example -o run.html)"),
            (["view", "a.scxml", "-o", "r.html", "--record", "t.json"], "--record applies only to 'statechart run'"),
            (["run", "a.scxml", "--trace", "t.json"], "--trace applies only to 'statechart view'"),
            (
                ["run", "a.scxml", "-o", "x"],
                "-o applies only to 'statechart diagram', 'statechart view', 'statechart export'"
            ),
            (
                ["check", "d", "--format", "dot"],
                "--format applies only to 'statechart diagram', 'statechart view', 'statechart run', 'statechart export'"
            ),
            (["check", "dir", "--log"], "--log applies only to 'statechart run'"),
            (
                ["run", "a.scxml", "--allow-sources"],
                "--allow-sources needs a value: a folder whose files the chart's src attributes may read"
            ),
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
