extension FSM {
    /// An `FSM` whose every method is `@MainActor`, so the compiler (not a run-time
    /// check) keeps it on the main actor. Called from the main actor, `handleEvent`
    /// runs there directly, with no hop per event.
    ///
    /// Spell it `FSM<State, Event>.OnMainActor(initialState:)`. (swift-fsm's README also
    /// shows `FSM.OnMainActor<State, Event>`; a nested type of a generic class takes its
    /// arguments on the outer type, so that spelling does not compile here.)
    @MainActor
    public final class OnMainActor {
        @usableFromInline let base: FSM

        /// Makes a main-actor machine; the arguments are those of `FSM.init`.
        public init(
            type: PredicateHandling = .eager,
            initialState: State,
            actionsPolicy: StateActionsPolicy = .executeOnChangeOnly
        ) {
            base = FSM(type: type, initialState: initialState, actionsPolicy: actionsPolicy)
        }

        /// The current state.
        public var state: State { base.state }

        /// Validates and compiles the table; see ``FSM/buildTable(file:line:isolation:_:)``.
        public func buildTable(
            file: String = #file,
            line: Int = #line,
            @Syntax.TableBuilder<State, Event> _ block: () -> [Syntax.Define<State, Event>]
        ) throws {
            try base.buildTable(file: file, line: line, block)
        }

        /// Handles `event` on the main actor; see ``FSM/handleEvent(_:isolation:)``.
        ///
        /// - Parameter event: the event to handle.
        @inlinable
        public func handleEvent(_ event: Event) async {
            // The machine's own steps, inline: one async call per event, on the main actor.
            // `base` has no checker (the compiler keeps it on the main actor), so no isolation
            // is passed: naming `#isolation` here would cost a call to `MainActor.shared`.
            if let index = base.handleSynchronously(event, NoPredicates(), nil) { await fire(index, with: event) }
        }

        /// Handles `event` with predicates on the main actor; see
        /// ``FSM/handleEvent(_:predicates:isolation:)-(_,Predicate...,_)``.
        ///
        /// - Parameters:
        ///   - event: the event to handle.
        ///   - predicates: the current value of each predicate type.
        @inlinable
        public func handleEvent(_ event: Event, predicates: any Predicate...) async {
            let index = predicates.withUnsafeBufferPointer {
                base.handleSynchronously(event, PredicateBuffer($0), nil)
            }
            if let index { await fire(index, with: event) }
        }

        /// Handles `event` with one predicate on the main actor, with no array; see
        /// ``FSM/handleEvent(_:predicates:isolation:)-(_,Predicate,_)``.
        ///
        /// - Parameters:
        ///   - event: the event to handle.
        ///   - p1: the current value of a predicate type.
        @inlinable @inline(__always)
        public func handleEvent(_ event: Event, predicates p1: some Predicate) async {
            if let index = base.handleSynchronously(event, values: p1, NoPredicate.none, NoPredicate.none, nil) {
                await fire(index, with: event)
            }
        }

        /// Handles `event` with two predicates on the main actor, with no array; see
        /// ``FSM/handleEvent(_:predicates:_:isolation:)``.
        ///
        /// - Parameters:
        ///   - event: the event to handle.
        ///   - p1: the current value of a predicate type.
        ///   - p2: the current value of another predicate type.
        @inlinable @inline(__always)
        public func handleEvent(_ event: Event, predicates p1: some Predicate, _ p2: some Predicate) async {
            if let index = base.handleSynchronously(event, values: p1, p2, NoPredicate.none, nil) {
                await fire(index, with: event)
            }
        }

        /// Handles `event` with three predicates on the main actor, with no array; see
        /// ``FSM/handleEvent(_:predicates:_:_:isolation:)``.
        ///
        /// - Parameters:
        ///   - event: the event to handle.
        ///   - p1: the current value of a predicate type.
        ///   - p2: the current value of another predicate type.
        ///   - p3: the current value of a third predicate type.
        @inlinable @inline(__always)
        public func handleEvent(
            _ event: Event,
            predicates p1: some Predicate,
            _ p2: some Predicate,
            _ p3: some Predicate
        ) async {
            if let index = base.handleSynchronously(event, values: p1, p2, p3, nil) {
                await fire(index, with: event)
            }
        }

        /// Runs the actions of transition `index`, some asynchronous, on the main actor: the
        /// rare path of ``handleEvent(_:)``, out of line. (The usual event makes no async
        /// call; what it still pays over a plain `FSM` are two switches of executor: to the
        /// main actor's on entering a main-actor `async` method, and back to the caller's
        /// after it, each a runtime call even when both are the main actor: about 35 ns
        /// together, measured, more than the plain event. `nonisolated(nonsending)` would
        /// avoid them but let any actor call the method.)
        @usableFromInline
        func fire(_ index: Int, with event: Event) async {
            await base.table.fire(index, with: event)
        }

        /// The built table as Graphviz DOT; see ``FSM/dot()``.
        public func dot() -> String { base.dot() }

        /// The built table as a Mermaid state diagram; see ``FSM/mermaid()``.
        public func mermaid() -> String { base.mermaid() }

        /// Reachability and coverage of the built table; see ``FSM/validationReport()``.
        public func validationReport() -> ValidationReport { base.validationReport() }
    }
}
