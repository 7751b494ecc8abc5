import StateMachineCore

// MARK: Analysis: an output with no cancellation policy.

/// What the analysis screen renders.
public struct AnalysisState: Equatable, Sendable {
    /// The status line.
    public let message: String
    /// Whether "New analysis" is enabled.
    public let canMakeNewAnalysis: Bool
    /// Whether "Reset analysis" is enabled.
    public let canResetAnalysis: Bool
    /// Whether an analysis is running.
    public var isInProgress: Bool = false
}

/// The events of the analysis.
public enum AnalysisEvent {}

/// Ready for an analysis.
public struct AnalysisIsIdle: State, Hashable {
    /// Makes this state: ready for an analysis.
    public init() {}
    /// What the screen shows: idle.
    public var superState: AnalysisState {
        AnalysisState(message: "Ready to start a new analysis", canMakeNewAnalysis: true, canResetAnalysis: false)
    }
}

/// Analysis `identifier` is running.
public struct AnalysisIsInProgress: State, Hashable {
    /// The analysis' identifier.
    public let identifier: Int
    /// A running analysis.
    public init(identifier: Int) { self.identifier = identifier }
    /// What the screen shows: in progress.
    public var superState: AnalysisState {
        AnalysisState(
            message: "Analysis in progress (id = \(identifier))",
            canMakeNewAnalysis: false,
            canResetAnalysis: true,
            isInProgress: true
        )
    }
}

/// Analysis `identifier` is finished.
public struct AnalysisIsDone: State, Hashable {
    /// The analysis' identifier.
    public let identifier: Int
    /// A finished analysis.
    public init(identifier: Int) { self.identifier = identifier }
    /// What the screen shows: done.
    public var superState: AnalysisState {
        AnalysisState(
            message: "Analysis is finished (id = \(identifier))",
            canMakeNewAnalysis: false,
            canResetAnalysis: true
        )
    }
}

/// Start analysis `identifier`.
public struct DidRequestAnalysis: Event {
    /// Sent to the analysis machine, whose events are `AnalysisEvent`s.
    public typealias SuperEvent = AnalysisEvent
    /// The analysis' identifier.
    public let identifier: Int
    /// Makes this event: start analysis `identifier`; `identifier` is the analysis' identifier.
    public init(identifier: Int) { self.identifier = identifier }
}

/// An analysis completed.
public struct DidCompleteAnalysis: Event {
    /// Sent to the analysis machine, whose events are `AnalysisEvent`s.
    public typealias SuperEvent = AnalysisEvent
    /// Makes this event: an analysis completed.
    public init() {}
}

/// Reset the analysis.
public struct DidRequestAnalysisReset: Event {
    /// Sent to the analysis machine, whose events are `AnalysisEvent`s.
    public typealias SuperEvent = AnalysisEvent
    /// Makes this event: reset the analysis.
    public init() {}
}

/// The analysis machine; `perform` is the analysis (the app's takes 3 s). As in the
/// original there is no cancellation policy: after a reset the running analysis still
/// completes, which is ignored when idle but completes a new analysis started meanwhile.
public func makeAnalysisStateMachine(
    perform: @escaping @Sendable () async -> Void
) -> StateMachine<AnalysisState, AnalysisEvent> {
    StateMachine<AnalysisState, AnalysisEvent>(initial: AnalysisIsIdle()) {
        When(state: AnalysisIsIdle.self) {
            On(event: DidRequestAnalysis.self) { _, event in
                Transition(state: AnalysisIsInProgress(identifier: event.identifier))
                Output(sideEffect: { () async -> (any Event<AnalysisEvent>)? in
                    await perform()
                    return DidCompleteAnalysis()
                })
            }
        }
        When(state: AnalysisIsInProgress.self) {
            On(event: DidCompleteAnalysis.self) { state, _ in
                Transition(state: AnalysisIsDone(identifier: state.identifier))
            }
        }
        When(states: AnalysisIsInProgress.self, AnalysisIsDone.self) {
            On(event: DidRequestAnalysisReset.self) { _, _ in Transition(state: AnalysisIsIdle()) }
        }
    }
}
