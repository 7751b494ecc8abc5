import StateMachineCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Machine `stateMachineId` is now in `state` (its initial state or a new state).
struct DidObserveTransition: Event {
    typealias SuperEvent = DumpEvent
    let context: StateContext
}

/// Machine `stateMachineId` was released.
struct DidObserveDeinit: Event {
    typealias SuperEvent = DumpEvent
    let stateMachineId: UUID
}

/// Hand the current contexts to `export`.
struct DidRequestDump: Event {
    typealias SuperEvent = DumpEvent
    let export: @Sendable ([StateContext]) async -> Void
}

/// Forget every context (collecting stopped).
struct DidRequestReset: Event {
    typealias SuperEvent = DumpEvent
}
