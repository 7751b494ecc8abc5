import Foundation
import NavigationFeatures
import StateMachineDump
import Terminal
import TerminalMachines

/// The Navigation app: its options (with the deep link to start on), its screen and its
/// global commands.
@MainActor
public enum NavigationApp {
    /// The command-line options.
    public struct Options: Equatable, Sendable {
        /// Multiplies the backend's one-second latency (`--delay-scale`, or
        /// `NAVIGATION_DELAY_SCALE`).
        public var delayScale: Double
        /// Seeds the backend's random choices (`--seed`), for repeatable runs.
        public var seed: UInt64?
        /// Turns the transition logger on (`--log`).
        public var log: Bool
        /// Prints the usage and exits (`--help`).
        public var help: Bool
        /// The link to start on, if any.
        public var link: DeepLink?

        /// Options; the defaults are the original's latency, a random seed, no log, the
        /// Checkin tab.
        public init(
            delayScale: Double = 1,
            seed: UInt64? = nil,
            log: Bool = false,
            help: Bool = false,
            link: DeepLink? = nil
        ) {
            self.delayScale = delayScale
            self.seed = seed
            self.log = log
            self.help = help
            self.link = link
        }
    }

    /// The usage text.
    public static let usage = """
        usage: Navigation [--delay-scale FACTOR] [--seed N] [--log] [--help] [DEEPLINK]

          DEEPLINK              the screen to start on, for example poc://checkin/place/3/owner/5
                                (the poc:// prefix is optional); valid links:
        \(DeepLink.validShapes.map { "                          " + $0 }.joined(separator: "\n"))
          --delay-scale FACTOR  multiply the fake backend's 1 s latency, from 0 to 1000; 0.01
                                makes it 100 times faster (also NAVIGATION_DELAY_SCALE)
          --seed N              seed the backend's random stars, owners and ages (piped
                                runs use 0 unless given, so they repeat)
          --log                 log every transition on standard error
          --help                show this help

        Commands are read from the terminal (readline: history, Tab completion) or, when
        standard input is not a terminal, one per line; type 'help' for the screen's commands.
        """

    /// Parses the arguments (without the program name) and the environment.
    nonisolated public static func parse(
        _ arguments: [String],
        environment: [String: String]
    ) -> Result<Options, UsageError> {
        var link: DeepLink?
        let common = CommonOptions.parse(
            arguments,
            environment: environment,
            delayScaleVariable: "NAVIGATION_DELAY_SCALE",
            acceptsSeed: true
        ) { argument, _ in
            switch argument {
            case let text where text.hasPrefix("-"):
                return UsageError("unknown option '\(text)'")
            case let text:
                guard link == nil else { return UsageError("one deep link at most; '\(text)' is a second one") }
                switch DeepLink.validated(text) {
                case .success(let valid): link = valid
                case .failure(let invalid): return UsageError("bad deep link: \(invalid)")
                }
            }
            return nil
        }
        return common.map {
            Options(delayScale: $0.delayScale, seed: $0.seed, log: $0.log, help: $0.help, link: link)
        }
    }

    /// Runs the app on `console` until the user quits or input ends; returns the exit
    /// status. It starts on `options.link`; without a terminal it first waits for that
    /// screen's loads, so that the first frame shows its data.
    public static func run(options: Options, console: any Console, style: TerminalStyle) async -> Int32 {
        // Without a terminal the seed defaults to 0, so that a piped run always prints the
        // same stars, owners and ages.
        let environment = NavigationEnvironment(
            delayScale: options.delayScale,
            seed: options.seed ?? (console.isInteractive ? nil : 0),
            log: options.log
        )
        return await run(options: options, console: console, style: style, environment: environment)
    }

    /// Runs the app as ``run(options:console:style:)`` does, on `environment` (tests give
    /// it a backend whose loads they hold open); `options`' delay scale and seed are unused.
    static func run(
        options: Options,
        console: any Console,
        style: TerminalStyle,
        environment: NavigationEnvironment
    ) async -> Int32 {
        if options.log { routeTransitionLog(to: console) }
        let model = NavigationModel(environment: environment, waitsForLoads: !console.isInteractive)
        model.start()
        if let link = options.link {
            await model.open(link)
        } else {
            await model.settle()
        }
        let app = TerminalApp(
            name: "navigation",
            console: console,
            style: style,
            home: NavigationScreen(model: model),
            globalCommands: [.dump(from: defaultDumpStateMachine, showsTime: console.isInteractive)]
        )
        return await app.run()
    }
}
