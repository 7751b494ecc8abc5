import Foundation
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
        CommonOptions.parse(arguments, environment: environment, delayScaleVariable: "CASESTUDIES_DELAY_SCALE") {
            argument,
            _ in UsageError("unknown argument '\(argument)'")
        }.map { Options(delayScale: $0.delayScale, log: $0.log, help: $0.help) }
    }

    /// The app, ready to run on `console`.
    public static func make(options: Options, console: any Console, style: TerminalStyle) -> TerminalApp {
        let environment = CaseStudiesEnvironment(
            delayScale: options.delayScale,
            log: options.log,
            waitsForOutputs: !console.isInteractive
        )
        return TerminalApp(
            name: "casestudies",
            console: console,
            style: style,
            home: HomeScreen(environment: environment),
            globalCommands: [.dump]
        )
    }
}
