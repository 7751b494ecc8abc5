/// A side effect started by a route, run in its own task under supervision.
///
/// The side effect returns one optional event, or an `AsyncSequence` of events; each event
/// is fed back into the machine's queue, after the events already queued. Outputs run
/// concurrently with the machine; they are cancelled by their ``Cancel`` policy, and every
/// output is cancelled (and awaited) when the machine finishes. Once an output's task is
/// cancelled, nothing it produces reaches the machine.
///
/// ```swift
/// Output(sideEffect: load(event.id), cancellationPolicy: Cancel(on: DidRequestLoading.self))
/// Output(priority: .high, sideEffect: load(state.id))
///     .cancellationPolicy(cancel: Cancel(whenNewState: DataIsLoaded.self))
/// ```
public struct Output<SuperState, SuperEvent>: Sendable {
    /// Any event of the machine.
    public typealias AnyEvent = any Event<SuperEvent>

    /// The priority of the output's task; nil inherits the machine's.
    public var priority: TaskPriority? { body.priority }
    /// When to cancel the running output; nil means only at shutdown.
    public var cancellationPolicy: Cancel<SuperState, SuperEvent>? { body.cancellationPolicy }
    /// When to restart the side effect once it ends.
    public var lifecyclePolicy: LifecyclePolicy { body.lifecyclePolicy }
    /// Maps a failure of the side effect to an event fed back into the machine.
    public var onFailure: (@Sendable (any Error) async -> AnyEvent?)? { body.onFailure }

    /// Everything an output is, behind one reference: the runtime copies outputs around,
    /// and one retain is cheaper than copying each closure and policy.
    @usableFromInline let body: Body

    @usableFromInline
    final class Body: Sendable {
        @usableFromInline let priority: TaskPriority?
        @usableFromInline let cancellationPolicy: Cancel<SuperState, SuperEvent>?
        @usableFromInline let lifecyclePolicy: LifecyclePolicy
        @usableFromInline let onFailure: (@Sendable (any Error) async -> AnyEvent?)?
        /// Runs the side effect once, handing each produced event to `emit`. `emit` returns
        /// false once the output may no longer feed the machine (cancelled, machine finished).
        @usableFromInline let run: @Sendable (_ emit: (AnyEvent) -> Bool) async throws -> Void
        /// The value the output was made from by ``Output/init(effect:priority:cancellationPolicy:lifecyclePolicy:onFailure:)``, if any.
        @usableFromInline let effect: (any OutputEffect<SuperEvent>)?
        /// `run` hands at most one event to `emit`, as its last act (a side effect that
        /// returns one event): the runtime may then process that event in the output's own
        /// task once `run` returns, instead of starting a task to process it.
        @usableFromInline let emitsOnlyAtEnd: Bool

        init(
            priority: TaskPriority?,
            cancellationPolicy: Cancel<SuperState, SuperEvent>?,
            lifecyclePolicy: LifecyclePolicy,
            onFailure: (@Sendable (any Error) async -> AnyEvent?)?,
            effect: (any OutputEffect<SuperEvent>)? = nil,
            emitsOnlyAtEnd: Bool,
            run: @escaping @Sendable (_ emit: (AnyEvent) -> Bool) async throws -> Void
        ) {
            self.effect = effect
            self.emitsOnlyAtEnd = emitsOnlyAtEnd
            self.priority = priority
            self.cancellationPolicy = cancellationPolicy
            self.lifecyclePolicy = lifecyclePolicy
            self.onFailure = onFailure
            self.run = run
        }
    }

    init(
        priority: TaskPriority?,
        cancellationPolicy: Cancel<SuperState, SuperEvent>?,
        lifecyclePolicy: LifecyclePolicy,
        onFailure: (@Sendable (any Error) async -> AnyEvent?)?,
        effect: (any OutputEffect<SuperEvent>)? = nil,
        emitsOnlyAtEnd: Bool = false,
        run: @escaping @Sendable (_ emit: (AnyEvent) -> Bool) async throws -> Void
    ) {
        self.body = Body(
            priority: priority,
            cancellationPolicy: cancellationPolicy,
            lifecyclePolicy: lifecyclePolicy,
            onFailure: onFailure,
            effect: effect,
            emitsOnlyAtEnd: emitsOnlyAtEnd,
            run: run
        )
    }

    /// An output whose side effect returns a sequence of erased events.
    public init<S: AsyncSequence>(
        priority: TaskPriority? = nil,
        sideEffect: @escaping @Sendable () async -> S,
        cancellationPolicy: Cancel<SuperState, SuperEvent>? = nil,
        lifecyclePolicy: LifecyclePolicy = .none,
        onFailure: (@Sendable (any Error) async -> AnyEvent?)? = nil
    ) where S: Sendable, S.Element == any Event<SuperEvent> {
        self.init(
            priority: priority,
            cancellationPolicy: cancellationPolicy,
            lifecyclePolicy: lifecyclePolicy,
            onFailure: onFailure,
            run: Self.streaming(sideEffect) { $0 }
        )
    }

    /// An output whose side effect returns a sequence of one concrete event type; the
    /// runtime erases its elements.
    @_disfavoredOverload
    public init<S: AsyncSequence>(
        priority: TaskPriority? = nil,
        sideEffect: @escaping @Sendable () async -> S,
        cancellationPolicy: Cancel<SuperState, SuperEvent>? = nil,
        lifecyclePolicy: LifecyclePolicy = .none,
        onFailure: (@Sendable (any Error) async -> AnyEvent?)? = nil
    ) where S: Sendable, S.Element: Event, S.Element.SuperEvent == SuperEvent {
        self.init(
            priority: priority,
            cancellationPolicy: cancellationPolicy,
            lifecyclePolicy: lifecyclePolicy,
            onFailure: onFailure,
            run: Self.streaming(sideEffect) { $0 }
        )
    }

    /// An output whose side effect returns one event, or nil to finish without one.
    public init(
        priority: TaskPriority? = nil,
        sideEffect: @escaping @Sendable () async -> AnyEvent?,
        cancellationPolicy: Cancel<SuperState, SuperEvent>? = nil,
        lifecyclePolicy: LifecyclePolicy = .none,
        onFailure: (@Sendable (any Error) async -> AnyEvent?)? = nil
    ) {
        let throwing: @Sendable () async throws -> AnyEvent? = { await sideEffect() }
        self.init(
            priority: priority,
            sideEffect: throwing,
            cancellationPolicy: cancellationPolicy,
            lifecyclePolicy: lifecyclePolicy,
            onFailure: onFailure
        )
    }

    /// An output whose side effect returns one event or throws; a thrown error is a
    /// failure, handed to `onFailure` and to the lifecycle policy.
    public init(
        priority: TaskPriority? = nil,
        sideEffect: @escaping @Sendable () async throws -> AnyEvent?,
        cancellationPolicy: Cancel<SuperState, SuperEvent>? = nil,
        lifecyclePolicy: LifecyclePolicy = .none,
        onFailure: (@Sendable (any Error) async -> AnyEvent?)? = nil
    ) {
        self.init(
            priority: priority,
            cancellationPolicy: cancellationPolicy,
            lifecyclePolicy: lifecyclePolicy,
            onFailure: onFailure,
            emitsOnlyAtEnd: true
        ) { emit in
            let event = try await sideEffect()
            // A value produced after cancellation is dropped: it must not reach the machine.
            guard !Task.isCancelled, let event else { return }
            _ = emit(event)
        }
    }

    /// Runs a sequence side effect: every element, erased, until the sequence ends, the
    /// task is cancelled or the machine refuses the event.
    private static func streaming<S: AsyncSequence & Sendable>(
        _ sideEffect: @escaping @Sendable () async -> S,
        erase: @escaping @Sendable (S.Element) -> AnyEvent
    ) -> @Sendable (_ emit: (AnyEvent) -> Bool) async throws -> Void {
        { emit in
            for try await element in await sideEffect() {
                guard !Task.isCancelled, emit(erase(element)) else { return }
            }
        }
    }

    /// A copy with another cancellation policy.
    public func cancellationPolicy(cancel: Cancel<SuperState, SuperEvent>) -> Self {
        Self(
            priority: priority,
            cancellationPolicy: cancel,
            lifecyclePolicy: lifecyclePolicy,
            onFailure: onFailure,
            effect: body.effect,
            emitsOnlyAtEnd: body.emitsOnlyAtEnd,
            run: body.run
        )
    }

    /// A copy with another lifecycle policy.
    public func lifecyclePolicy(_ policy: LifecyclePolicy) -> Self {
        Self(
            priority: priority,
            cancellationPolicy: cancellationPolicy,
            lifecyclePolicy: policy,
            onFailure: onFailure,
            effect: body.effect,
            emitsOnlyAtEnd: body.emitsOnlyAtEnd,
            run: body.run
        )
    }

    /// A copy that maps failures to events with `onFailure`.
    public func onFailure(_ onFailure: @escaping @Sendable (any Error) async -> AnyEvent?) -> Self {
        Self(
            priority: priority,
            cancellationPolicy: cancellationPolicy,
            lifecyclePolicy: lifecyclePolicy,
            onFailure: onFailure,
            effect: body.effect,
            emitsOnlyAtEnd: body.emitsOnlyAtEnd,
            run: body.run
        )
    }
}

extension Output {
    /// An output whose side effect is the value `effect`: the runtime runs
    /// ``OutputEffect/perform()`` in the output's task and feeds the event it returns back
    /// into the machine, as it does with the event a closure's side effect returns.
    ///
    /// Unlike a closure, the value can be inspected (``effect``): a durable machine
    /// (`StateMachineDurable`) records it by name in its outbox and performs it after the
    /// step is committed.
    public init<Effect: OutputEffect>(
        effect: Effect,
        priority: TaskPriority? = nil,
        cancellationPolicy: Cancel<SuperState, SuperEvent>? = nil,
        lifecyclePolicy: LifecyclePolicy = .none,
        onFailure: (@Sendable (any Error) async -> AnyEvent?)? = nil
    ) where Effect.SuperEvent == SuperEvent {
        self.init(
            priority: priority,
            cancellationPolicy: cancellationPolicy,
            lifecyclePolicy: lifecyclePolicy,
            onFailure: onFailure,
            effect: effect,
            emitsOnlyAtEnd: true
        ) { emit in
            let event = try await effect.perform()
            guard !Task.isCancelled, let event else { return }
            _ = emit(event)
        }
    }

    /// The value this output was made from with ``init(effect:priority:cancellationPolicy:lifecyclePolicy:onFailure:)``;
    /// nil for an output made from a closure.
    public var effect: (any OutputEffect<SuperEvent>)? { body.effect }
}

/// A side effect described by a value: what to do, as data, and how to do it.
///
/// Give one to ``Output/init(effect:priority:cancellationPolicy:lifecyclePolicy:onFailure:)``.
/// Where a closure can only be run, a value can also be named, stored and performed later:
/// a durable machine records its outputs' effects in an outbox, in the same transaction
/// as the step, and performs them once the step is committed.
public protocol OutputEffect<SuperEvent>: Sendable {
    /// The tag type of the events the effect may feed back.
    associatedtype SuperEvent
    /// Performs the effect; the event it returns, if any, is fed back into the machine.
    func perform() async throws -> (any Event<SuperEvent>)?
}
