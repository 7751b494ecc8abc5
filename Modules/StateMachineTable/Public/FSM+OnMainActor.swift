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
        @inlinable
        public func handleEvent(_ event: Event) async {
            // The machine's own steps, inline: one async call per event, on the main actor.
            guard let index = base.take(event, []) else { return }
            if !base.fireWithoutSuspending(index, with: event) { await fire(index, with: event) }
        }

        /// Handles `event` with predicates on the main actor.
        @inlinable
        public func handleEvent(_ event: Event, predicates: any Predicate...) async {
            guard let index = base.take(event, predicates) else { return }
            if !base.fireWithoutSuspending(index, with: event) { await fire(index, with: event) }
        }

        /// Runs the actions of transition `index`, some asynchronous, on the main actor: the
        /// rare path of ``handleEvent(_:)``, out of line. (The usual event makes no async
        /// call; what it still pays over a plain `FSM` is the switch to the main actor's
        /// executor that entering a main-actor method makes, a runtime call even when the
        /// caller is already there.)
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
