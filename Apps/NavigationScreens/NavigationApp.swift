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
        /// The file that keeps where the user is between runs (`--state FILE`), if any.
        public var stateFile: String?

        /// Options; the defaults are the original's latency, a random seed, no log, the
        /// Checkin tab, nothing kept.
        public init(
            delayScale: Double = 1,
            seed: UInt64? = nil,
            log: Bool = false,
            help: Bool = false,
            link: DeepLink? = nil,
            stateFile: String? = nil
        ) {
            self.delayScale = delayScale
            self.seed = seed
            self.log = log
            self.help = help
            self.link = link
            self.stateFile = stateFile
        }
    }

    /// The usage text.
    public static let usage = """
        usage: Navigation [--state FILE] [--delay-scale FACTOR] [--seed N] [--log] [--help] [DEEPLINK]

          DEEPLINK              the screen to start on, for example poc://checkin/place/3/owner/5
                                (the poc:// prefix is optional); valid links:
        \(DeepLink.validShapes.map { "                          " + $0 }.joined(separator: "\n"))
          --state FILE          keep where you are (tab, both stacks, the song sheet) in FILE, an
                                SQLite store created when missing, and start there next time;
                                each command's result is saved before its frame shows. A
                                DEEPLINK given too wins, and is saved from then on
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
            acceptsSeed: true,
            acceptsState: true
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
            Options(
                delayScale: $0.delayScale,
                seed: $0.seed,
                log: $0.log,
                help: $0.help,
                link: link,
                stateFile: $0.stateFile
            )
        }
    }

    /// Opens the file of `--state` (``Options/stateFile``), before the console starts: nil
    /// without the option.
    /// - Throws: ``StateFileError`` naming the file, which the app reports (exit status 1).
    public static func openStateFile(
        _ options: Options
    ) async throws(StateFileError) -> StateFile<NavigationLocation>? {
        guard let path = options.stateFile else { return nil }
        return try await StateFile<NavigationLocation>.open(path: path, key: "navigation")
    }

    /// Runs the app on `console` until the user quits or input ends; returns the exit
    /// status. It starts on `options.link`, or else where `stateFile` says the user was;
    /// without a terminal it first waits for that screen's loads, so that the first frame
    /// shows its data. With `stateFile` (``openStateFile(_:)``), every change of tab, stack
    /// or sheet is committed to it before the frame that shows it is drawn; the caller
    /// closes it after the run.
    public static func run(
        options: Options,
        console: any Console,
        style: TerminalStyle,
        stateFile: StateFile<NavigationLocation>? = nil
    ) async -> Int32 {
        // Without a terminal the seed defaults to 0, so that a piped run always prints the
        // same stars, owners and ages.
        let environment = NavigationEnvironment(
            delayScale: options.delayScale,
            seed: options.seed ?? (console.isInteractive ? nil : 0),
            log: options.log
        )
        return await run(
            options: options,
            console: console,
            style: style,
            environment: environment,
            stateFile: stateFile
        )
    }

    /// Runs the app as ``run(options:console:style:)`` does, on `environment` (tests give
    /// it a backend whose loads they hold open); `options`' delay scale and seed are unused.
    static func run(
        options: Options,
        console: any Console,
        style: TerminalStyle,
        environment: NavigationEnvironment,
        stateFile: StateFile<NavigationLocation>? = nil
    ) async -> Int32 {
        if options.log { routeTransitionLog(to: console) }
        let model = NavigationModel(environment: environment, waitsForLoads: !console.isInteractive)
        model.start()
        // A deep link wins over the kept location (and is kept from then on).
        if let link = options.link {
            await model.open(link)
        } else if let stored = stateFile?.stored {
            await model.restore(stored)
        } else {
            await model.settle()
        }
        stateFile?.follow({ model.location }, report: { console.write($0) })
        let app = TerminalApp(
            name: "navigation",
            console: console,
            style: style,
            home: NavigationScreen(model: model),
            globalCommands: [.dump(from: defaultDumpStateMachine, showsTime: console.isInteractive)],
            keptState: stateFile
        )
        return await app.run()
    }
}
