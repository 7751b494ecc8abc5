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

        @usableFromInline
        init(kind: Kind, state: StateID, path: String, payload: Payload?) {
            self.kind = kind
            self.state = state
            self.path = path
            self.payload = payload
        }
    }

    /// The subscribers of every state, shared between the drainer and subscribing threads.
    ///
    /// Subscribing and cancelling change the registry under its lock and count a version;
    /// the drainer delivers from its own copy of each state's subscribers, brought up to
    /// date (for the states that changed) when it sees a new version, so that delivering a
    /// notification takes no lock and counts no reference.
    ///
    /// `@unchecked Sendable` invariant: `storage` is only used under its lock, `version`
    /// and `count` are atomics, and `delivered` and `deliveredVersion` are read and
    /// written only by the chart's drainer, inside steps (the engine's queue hands that
    /// role from thread to thread with acquiring and releasing atomics).
    @usableFromInline
    final class ObserverRegistry: ObserverRemoving, @unchecked Sendable {
        /// What a subscriber is called with.
        @usableFromInline typealias Deliver = @Sendable (Notification) -> Void

        /// One subscription: the notifications it wants, and its callback.
        @usableFromInline
        final class Subscriber: Sendable {
            let token: Int
            let kind: Notification.Kind
            /// The event of an internal-transition subscription.
            @usableFromInline let event: EventID?
            @usableFromInline let deliver: Deliver

            init(token: Int, kind: Notification.Kind, deliver: @escaping Deliver) {
                self.token = token
                self.kind = kind
                if case .internalTransition(let event) = kind { self.event = event } else { event = nil }
                self.deliver = deliver
            }
        }

        /// The subscribers of one state as the drainer delivers to them, by kind, in
        /// subscription order: read unretained; `owners` keeps them alive.
        @usableFromInline
        final class Delivery: Sendable {
            @usableFromInline let entered: [Unmanaged<Subscriber>]
            @usableFromInline let exited: [Unmanaged<Subscriber>]
            @usableFromInline let internalTransitions: [Unmanaged<Subscriber>]
            let owners: [Subscriber]

            init(_ owners: [Subscriber]) {
                self.owners = owners
                func subscribers(_ wanted: (Notification.Kind) -> Bool) -> [Unmanaged<Subscriber>] {
                    owners.filter { wanted($0.kind) }.map { .passUnretained($0) }
                }
                entered = subscribers { if case .entered = $0 { true } else { false } }
                exited = subscribers { if case .exited = $0 { true } else { false } }
                internalTransitions = subscribers { if case .internalTransition = $0 { true } else { false } }
            }
        }

        private struct Storage: ~Copyable {
            var byState: [Int32: [Subscriber]] = [:]
            /// The states whose subscribers changed since the drainer last looked.
            var changed: Set<Int32> = []
            var nextToken = 0
        }

        private let storage = Lock(Storage())
        /// Counts the changes of `storage`.
        @usableFromInline let version = Atomic<UInt64>(0)
        /// How many subscriptions exist, read by the step without the lock (plus one for a
        /// step observer that traces states: see `StatechartEngine.tracesStates`).
        let count = SubscriptionCount()
        /// The drainer's copy of each state's subscribers (retained; nil for none), made
        /// at the first notification after someone subscribed.
        @usableFromInline @exclusivity(unchecked) var delivered: UnsafeMutablePointer<Unmanaged<Delivery>?>?
        private let states: Int
        /// The `version` that `delivered` reflects.
        @usableFromInline @exclusivity(unchecked) var deliveredVersion: UInt64 = 0

        /// A registry for a chart of `states` states.
        init(states: Int) {
            self.states = states
        }

        deinit {
            guard let delivered else { return }
            for state in 0..<states { delivered[state]?.release() }
            delivered.deallocate()
        }

        func add(state: Int32, kind: Notification.Kind, deliver: @escaping Deliver) -> Int {
            let token = storage.withLock { storage -> Int in
                let token = storage.nextToken
                storage.nextToken += 1
                storage.byState[state, default: []].append(Subscriber(token: token, kind: kind, deliver: deliver))
                storage.changed.insert(state)
                version.add(1, ordering: .releasing)
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
                storage.changed.insert(state)
                version.add(1, ordering: .releasing)
                return true
            }
            if removed { count.value.subtract(1, ordering: .releasing) }
        }

        /// Delivers the notification of `kind` (`.entered`, `.exited` or, for `event`,
        /// `.internalTransition`) of `state` to its subscribers that want it, in the order
        /// they subscribed; it is made only if one does. Called by the drainer only. A
        /// subscriber may subscribe or cancel in its callback: the change applies from the
        /// next notification.
        @inlinable
        func post(_ kind: EngineBlockKind, at state: Int, event: EventID?, _ notification: () -> Notification) {
            if version.load(ordering: .acquiring) != deliveredVersion { update() }
            delivered?[state]?._withUnsafeGuaranteedRef { delivery in
                switch kind {
                case .entered: deliver(notification, to: delivery.entered)
                case .exited: deliver(notification, to: delivery.exited)
                default: deliver(notification, to: delivery.internalTransitions, event: event)
                }
            }
        }

        /// Calls every subscriber of `subscribers` (of an internal transition on `event`,
        /// when there is an event) with the notification, made once.
        @inlinable @inline(__always)
        func deliver(_ notification: () -> Notification, to subscribers: [Unmanaged<Subscriber>], event: EventID? = nil)
        {
            guard !subscribers.isEmpty else { return }
            let notification = notification()
            for subscriber in subscribers {
                subscriber._withUnsafeGuaranteedRef { subscriber in
                    if event == nil || subscriber.event == event { subscriber.deliver(notification) }
                }
            }
        }

        /// Brings `delivered` up to date with the states that changed.
        @usableFromInline
        func update() {
            let changes = storage.withLock { storage in
                defer { storage.changed = [] }
                return (version.load(ordering: .relaxed), storage.changed.map { ($0, storage.byState[$0]) })
            }
            let delivered = self.delivered ?? .allocate(capacity: states)
            if self.delivered == nil {
                delivered.initialize(repeating: nil, count: states)
                self.delivered = delivered
            }
            for (state, subscribers) in changes.1 {
                delivered[Int(state)]?.release()
                delivered[Int(state)] = subscribers.map { .passRetained(Delivery($0)) }
            }
            deliveredVersion = changes.0
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
/// observes pay one atomic load per enter or exit, and no generic metadata lookup. A step
/// observer that traces states counts as one, added by the engine for the chart's life, so
/// that the same load tells a step whether anyone hears of its entries and exits.
final class SubscriptionCount: Sendable {
    let value = Atomic<Int>(0)

    var isActive: Bool { value.load(ordering: .acquiring) > 0 }
}
