import Foundation
import StateMachineDump
import Terminal

/// The CaseStudies app: its options, its home screen and its global commands.
@MainActor
public enum CaseStudiesApp {
    /// The command-line options.
    public struct Options: Equatable, Sendable {
        /// Multiplies every delay (`--delay-scale`, or `CASESTUDIES_DELAY_SCALE`).
        public var delayScale: Double = 1
        /// Turns the transition logger on (`--log`).
        public var log = false
        /// Prints the usage and exits (`--help`).
        public var help = false

        /// Options; the defaults are the originals' timings, no log.
        public init(delayScale: Double = 1, log: Bool = false, help: Bool = false) {
            self.delayScale = delayScale
            self.log = log
            self.help = help
        }
    }

    /// The usage text.
    public static let usage = """
        usage: CaseStudies [--delay-scale FACTOR] [--log] [--help]

          --delay-scale FACTOR  multiply the case studies' delays (5 s load, 3 s analysis);
                                0.01 makes them 100 times faster (also CASESTUDIES_DELAY_SCALE)
          --log                 log every transition on standard error
          --help                show this help

        Commands are read from the terminal (readline: history, Tab completion) or, when
        standard input is not a terminal, one per line; type 'help' on any screen.
        """

    /// Parses the arguments (without the program name) and the environment.
    public static func parse(_ arguments: [String], environment: [String: String]) -> Result<Options, UsageError> {
        var options = Options()
        if let scale = environment["CASESTUDIES_DELAY_SCALE"] {
            guard let value = Double(scale), value >= 0, value.isFinite else {
                return .failure(UsageError("CASESTUDIES_DELAY_SCALE must be a number >= 0, not '\(scale)'"))
            }
            options.delayScale = value
        }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--log": options.log = true
            case "--help", "-h": options.help = true
            case "--delay-scale":
                guard let text = remaining.popFirst(), let value = Double(text), value >= 0, value.isFinite else {
                    return .failure(UsageError("--delay-scale needs a number >= 0 (for example --delay-scale 0.01)"))
                }
                options.delayScale = value
            default:
                return .failure(UsageError("unknown argument '\(argument)'"))
            }
        }
        return .success(options)
    }

    /// A usage error: what was wrong.
    public struct UsageError: Error, Equatable, Sendable {
        /// The message.
        public let message: String
        init(_ message: String) { self.message = message }
    }

    /// The app, ready to run on `console`.
    public static func make(options: Options, console: any Console, style: TerminalStyle) -> TerminalApp {
        let environment = CaseStudiesEnvironment(delayScale: options.delayScale, log: options.log)
        return TerminalApp(
            name: "casestudies",
            console: console,
            style: style,
            home: HomeScreen(environment: environment),
            globalCommands: [dumpCommand]
        )
    }

    /// `dump`: the latest state of every live machine, as the original's Dump button prints it.
    static let dumpCommand = GlobalCommand(CommandSpec("dump", "Print the state of every live machine")) { _ in
        let dump = DumpLines()
        await StateMachineDump.dumpAndWait { contexts in await dump.append(contexts.map(\.description)) }
        return (["----------------- DUMP -----------------"] + (await dump.lines)).joined(separator: "\n")
    }
}

/// Collects the dump's lines from its export closure.
private actor DumpLines {
    var lines: [String] = []
    func append(_ more: [String]) { lines += more }
}
