import CaseStudiesFeatures
import StateMachineCore
import StateMachineDump

/// What the case studies depend on: the timings of their side effects and the machines'
/// factories, built once per app (the Wallet factory is a singleton shared by its views).
public struct CaseStudiesEnvironment: Sendable {
    /// Multiplies every delay (1 = the originals' 5 s load and 3 s analysis).
    public let delayScale: Double
    /// Whether a command waits for the outputs it starts (a load, an analysis) before it
    /// returns: without a terminal, so that each command's frame shows its result.
    public let waitsForOutputs: Bool
    /// Seeds the analysis identifiers; nil draws them at random.
    public let seed: UInt64?
    /// Where every machine reports its states for the `dump` command.
    public let dumpMediator: Mediator<DumpEvent>
    /// Clics whose new load cancels the running one.
    let clicsCancelling: AsyncStateMachineFactory<ClicsState, ClicsEvent>
    /// Clics whose loads all complete.
    let clicsContinuing: AsyncStateMachineFactory<ClicsState, ClicsEvent>
    /// Units of the counter.
    let units: AsyncStateMachineFactory<UnitsState, UnitsEvent>
    /// Tens of the counter.
    let tens: AsyncStateMachineFactory<TensState, TensEvent>
    /// The elevator.
    let elevator: AsyncStateMachineFactory<ElevatorState, ElevatorEvent>
    /// The analysis.
    let analysis: AsyncStateMachineFactory<AnalysisState, AnalysisEvent>
    /// The wallet, shared by its three views.
    let wallet: AsyncStateMachineFactory<WalletState, WalletEvent>
    /// What keeps the wallet and the counter in the state file (`--state`); nil without it.
    var keeper: CaseStudiesKeeper?

    /// The app's environment. Every machine reports to the dump (`dump` command), which
    /// keeps its last state after its screen is left (`trackDeinit: false`, as the
    /// original's factories), and logs its transitions only when `log` is set.
    ///
    /// A side effect of the originals that took some seconds (a load, an analysis) awaits
    /// `delay` with them: by default a sleep of those seconds times `delayScale`; a test
    /// holds the effects open with its own (an error it throws ends the effect as a
    /// cancelled sleep would).
    ///
    /// The wallet (built once) and each counter (built each time its screen opens) start
    /// at the values `start` gives when they are built: an empty wallet and a counter at 0
    /// unless the app keeps them (`--state`).
    public init(
        delayScale: Double = 1,
        log: Bool = false,
        waitsForOutputs: Bool = false,
        seed: UInt64? = nil,
        dumpMediator: Mediator<DumpEvent> = defaultDumpMediator,
        delay: (@Sendable (_ seconds: Double) async throws -> Void)? = nil,
        start: @escaping @Sendable () -> KeptCaseStudies = { KeptCaseStudies() }
    ) {
        self.delayScale = delayScale
        self.waitsForOutputs = waitsForOutputs
        self.seed = seed
        self.dumpMediator = dumpMediator
        @Sendable func build<S, E>(_ definition: StateMachine<S, E>) -> AsyncStateMachine<S, E> {
            let machine = AsyncStateMachine(stateMachine: definition)
                .activateDump(trackDeinit: false, dumpMediator: dumpMediator)
            return log ? machine : machine.disableLog()
        }
        let seconds =
            delay ?? { seconds in
                try await Task.sleep(for: .seconds(seconds * delayScale))
            }
        clicsCancelling = AsyncStateMachineFactory {
            build(makeClicsStateMachine(cancelling: true) { try await seconds(5) })
        }
        clicsContinuing = AsyncStateMachineFactory {
            build(makeClicsStateMachine(cancelling: false) { try await seconds(5) })
        }
        units = AsyncStateMachineFactory { build(makeUnitsStateMachine(initial: ValueIsFixed(value: start().units))) }
        tens = AsyncStateMachineFactory { build(makeTensStateMachine(initial: TensState(value: start().tens))) }
        elevator = AsyncStateMachineFactory { build(makeElevatorStateMachine()) }
        analysis = AsyncStateMachineFactory {
            build(makeAnalysisStateMachine { try? await seconds(3) })
        }
        wallet = AsyncStateMachineFactory(lifecycle: .singleton) {
            build(makeWalletStateMachine(initial: WalletState(cents: start().walletCents)))
        }
    }
}
