import Foundation
import StateMachineCore
import StateMachineDump
import Terminal
import TerminalMachines

/// The CaseStudies app: its options, its home screen and its global commands.
@MainActor
public enum CaseStudiesApp {
    /// The command-line options.
    public struct Options: Equatable, Sendable {
        /// Multiplies every delay (`--delay-scale`, or `CASESTUDIES_DELAY_SCALE`).
        public var delayScale: Double = 1
        /// Seeds the analysis identifiers (`--seed`), for repeatable runs.
        public var seed: UInt64?
        /// Turns the transition logger on (`--log`).
        public var log = false
        /// Prints the usage and exits (`--help`).
        public var help = false
        /// The file that keeps the wallet and the counter between runs (`--state FILE`), if any.
        public var stateFile: String?

        /// Options; the defaults are the originals' timings, no log, nothing kept.
        public init(
            delayScale: Double = 1,
            seed: UInt64? = nil,
            log: Bool = false,
            help: Bool = false,
            stateFile: String? = nil
        ) {
            self.delayScale = delayScale
            self.seed = seed
            self.log = log
            self.help = help
            self.stateFile = stateFile
        }
    }

    /// The usage text.
    public static let usage = """
        usage: CaseStudies [--state FILE] [--delay-scale FACTOR] [--seed N] [--log] [--help]

          --state FILE          keep the wallet's credits and the counter's units and tens
                                in FILE, an SQLite store created when missing, and start
                                with them next time; each command's result is saved before
                                its frame shows

          --delay-scale FACTOR  multiply the case studies' delays (5 s load, 3 s analysis),
                                from 0 to 1000; 0.01 makes them 100 times faster (also
                                CASESTUDIES_DELAY_SCALE)
          --seed N              seed the analysis identifiers (piped runs use 0 unless
                                given, so they repeat)
          --log                 log every transition on standard error
          --help                show this help

        Commands are read from the terminal (readline: history, Tab completion) or, when
        standard input is not a terminal, one per line; type 'help' on any screen. On a
        case study, 'diagram' prints its machine as a Mermaid state diagram ('diagram dot'
        in Graphviz's DOT; 'diagram svg PATH' or 'diagram png PATH' writes its picture,
        rendered by Graphviz).
        """

    /// Parses the arguments (without the program name) and the environment.
    public static func parse(_ arguments: [String], environment: [String: String]) -> Result<Options, UsageError> {
        let common = CommonOptions.parse(
            arguments,
            environment: environment,
            delayScaleVariable: "CASESTUDIES_DELAY_SCALE",
            acceptsSeed: true,
            acceptsState: true
        ) { argument, _ in
            UsageError("unknown argument '\(argument)'")
        }
        return common.map {
            Options(delayScale: $0.delayScale, seed: $0.seed, log: $0.log, help: $0.help, stateFile: $0.stateFile)
        }
    }

    /// Opens the file of `--state` (``Options/stateFile``), before the console starts: nil
    /// without the option.
    /// - Throws: ``StateFileError`` naming the file, which the app reports (exit status 1).
    public static func openStateFile(_ options: Options) async throws(StateFileError) -> StateFile<KeptCaseStudies>? {
        guard let path = options.stateFile else { return nil }
        return try await StateFile<KeptCaseStudies>.open(path: path, key: "casestudies")
    }

    /// The app, ready to run on `console`. Its machines report to `dumpMediator`, and
    /// `dump` reads `dumpStateMachine` (the defaults: `StateMachineDump`'s). With
    /// `stateFile` (``openStateFile(_:)``) the wallet and the counter start at the values it
    /// kept, and each change of them is committed to it before the frame that shows it is
    /// drawn; the caller closes it after the run.
    public static func make(
        options: Options,
        console: any Console,
        style: TerminalStyle,
        dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent> = defaultDumpStateMachine,
        dumpMediator: Mediator<DumpEvent> = defaultDumpMediator,
        stateFile: StateFile<KeptCaseStudies>? = nil
    ) -> TerminalApp {
        make(
            options: options,
            console: console,
            style: style,
            dumpStateMachine: dumpStateMachine,
            dumpMediator: dumpMediator,
            delay: nil,
            stateFile: stateFile
        )
    }

    /// The app as ``make(options:console:style:dumpStateMachine:dumpMediator:)`` makes
    /// it, its timed side effects awaiting `delay` when given (see
    /// ``CaseStudiesEnvironment/init(delayScale:log:waitsForOutputs:seed:dumpMediator:delay:)``).
    static func make(
        options: Options,
        console: any Console,
        style: TerminalStyle,
        dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent>,
        dumpMediator: Mediator<DumpEvent>,
        delay: (@Sendable (_ seconds: Double) async throws -> Void)?,
        stateFile: StateFile<KeptCaseStudies>? = nil
    ) -> TerminalApp {
        if options.log { routeTransitionLog(to: console) }
        let keeper = stateFile.map(CaseStudiesKeeper.init(file:))
        let start = keeper?.start
        var environment = CaseStudiesEnvironment(
            delayScale: options.delayScale,
            log: options.log,
            waitsForOutputs: !console.isInteractive,
            seed: options.seed ?? (console.isInteractive ? nil : 0),
            dumpMediator: dumpMediator,
            delay: delay,
            start: { start?.withLock { $0 } ?? KeptCaseStudies() }
        )
        environment.keeper = keeper
        keeper?.follow { console.write($0) }
        let screens = CurrentScreen()
        let app = TerminalApp(
            name: "casestudies",
            console: console,
            style: style,
            home: HomeScreen(environment: environment),
            globalCommands: [
                .dump(from: dumpStateMachine, showsTime: console.isInteractive),
                .diagram { screens.app?.currentScreen },
            ],
            keptState: stateFile
        )
        screens.app = app
        return app
    }
}

/// How `diagram` finds the screen on top: the app, which is made after its commands.
@MainActor
private final class CurrentScreen {
    weak var app: TerminalApp?
}
