import StateMachineSupport
import Synchronization

extension Statechart {
    /// A state was entered or exited, or ran an internal transition.
    ///
    /// Delivered synchronously inside the run-to-completion step, just before the state's
    /// own enter or exit block runs (and after an internal transition's action).
    public struct Notification: Sendable {
        /// What happened.
        public enum Kind: Sendable, Hashable {
            /// The state was entered.
            case entered
            /// The state was exited.
            case exited
            /// The state performed an internal transition for this event.
            case internalTransition(EventID)
        }

        /// What happened.
        public let kind: Kind
        /// The state it happened to.
        public let state: StateID
        /// The state's path, such as `c/c2@1/c222`.
        public let path: String
        /// The payload of the step (nil when there is none).
        public let payload: Payload?
    }

    /// The subscribers of every state, shared between the drainer and subscribing threads.
    final class ObserverRegistry: ObserverRemoving {
        private struct Entry: Sendable {
            let token: Int
            let kind: Notification.Kind
            let deliver: @Sendable (Notification) -> Void
        }

        private struct Storage: ~Copyable {
            var byState: [Int32: [Entry]] = [:]
            var nextToken = 0
        }

        private let storage = Lock(Storage())
        /// How many subscriptions exist, read by the step without the lock.
        let count = SubscriptionCount()

        func add(state: Int32, kind: Notification.Kind, deliver: @escaping @Sendable (Notification) -> Void) -> Int {
            let token = storage.withLock { storage -> Int in
                let token = storage.nextToken
                storage.nextToken += 1
                storage.byState[state, default: []].append(Entry(token: token, kind: kind, deliver: deliver))
                return token
            }
            count.value.add(1, ordering: .releasing)
            return token
        }

        func remove(state: Int32, token: Int) {
            let removed = storage.withLock { storage -> Bool in
                guard var entries = storage.byState[state], let index = entries.firstIndex(where: { $0.token == token })
                else {
                    return false
                }
                entries.remove(at: index)
                storage.byState[state] = entries.isEmpty ? nil : entries
                return true
            }
            if removed { count.value.subtract(1, ordering: .releasing) }
        }

        func post(_ notification: Notification, at state: Int32) {
            // A copy of the state's entries (a reference), delivered outside the lock, so a
            // subscriber may subscribe or cancel in its callback. (No key path here: in this
            // generic type `\.deliver` was instantiated at run time per notification.)
            let entries = storage.withLock { $0.byState[state] } ?? []
            for entry in entries where entry.kind == notification.kind { entry.deliver(notification) }
        }
    }
}

/// What a subscription cancels itself with: the registry of its chart (generic over the
/// chart's types, which the subscription is not).
protocol ObserverRemoving: AnyObject, Sendable {
    /// Removes the subscription `token` of the state `state`, if it is still registered.
    func remove(state: Int32, token: Int)
}

/// A registration made with `Statechart.observe(_:at:_:)`; cancel it to stop the callbacks.
///
/// The subscription is also cancelled when this object is deallocated.
public final class StatechartSubscription: Sendable {
    /// The registry holding the callback, until the subscription is cancelled.
    private let registry: Lock<(any ObserverRemoving)?>
    private let state: Int32
    private let token: Int

    init(registry: any ObserverRemoving, state: Int32, token: Int) {
        self.registry = Lock(registry)
        self.state = state
        self.token = token
    }

    /// Stops the callbacks. Calling it again does nothing.
    public func cancel() {
        let registry = self.registry.withLock { registry in
            defer { registry = nil }
            return registry
        }
        registry?.remove(state: state, token: token)
    }

    deinit {
        cancel()
    }
}

/// The number of subscriptions of a chart, in a non-generic object so that charts nobody
/// observes pay one atomic load per enter or exit, and no generic metadata lookup.
final class SubscriptionCount: Sendable {
    let value = Atomic<Int>(0)

    var isActive: Bool { value.load(ordering: .acquiring) > 0 }
}
