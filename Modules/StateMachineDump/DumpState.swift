import StateMachineCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The set of events of the dump machine. Its events are internal: the dump machine is
/// driven by ``StateMachineCore/AsyncStateMachine/activateDump(trackDeinit:dumpMediator:)``,
/// ``dump(dumpStateMachine:export:)`` and the collecting session.
public enum DumpEvent {}

/// The only state of the dump machine: the latest state of every live, dumped machine,
/// in the order the machines were first seen.
///
/// Recording a machine that is already known updates its context in place (it keeps its
/// position); a released machine is forgotten. Each update copies the contexts, which
/// costs O(number of live machines).
public struct DumpState: State, Equatable {
    var contexts: OrderedDictionary<UUID, StateContext>

    /// An empty dump.
    public init() {
        self.contexts = OrderedDictionary()
    }

    /// A dump holding `stateContexts`; a later context for the same machine replaces an
    /// earlier one, at the earlier one's position.
    public init(stateContexts: [StateContext]) {
        var contexts = OrderedDictionary<UUID, StateContext>()
        for context in stateContexts { contexts[context.stateMachineId] = context }
        self.contexts = contexts
    }

    /// The contexts, in the order the machines were first recorded.
    public var stateContexts: [StateContext] { contexts.values }

    /// The ids of the recorded machines, in the order they were first recorded.
    public var stateMachineIds: [UUID] { contexts.keys }

    /// The context of machine `id`, if it is recorded.
    public subscript(stateMachineId id: UUID) -> StateContext? { contexts[id] }

    /// The dump is its own super state.
    public var superState: DumpState { self }

    /// `"DumpState (n machines)"`.
    public var description: String { "DumpState (\(contexts.count) machines)" }

    func recording(_ context: StateContext) -> DumpState {
        var copy = self
        copy.contexts[context.stateMachineId] = context
        return copy
    }

    func forgetting(_ id: UUID) -> DumpState {
        var copy = self
        copy.contexts.removeValue(forKey: id)
        return copy
    }
}
