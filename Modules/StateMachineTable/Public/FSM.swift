import Foundation

/// A finite state machine built from a transition table, in the SMC / swift-fsm style.
///
/// ```swift
/// let turnstile = FSM<State, Event>(initialState: .locked)
/// try turnstile.buildTable {
///     define(.locked) {
///         when(.coin) | then(.unlocked) | unlock
///         when(.pass) | then(.locked)   | alarm
///     }
///     define(.unlocked) {
///         when(.coin) | then(.unlocked) | thankyou
///         when(.pass) | then(.locked)   | lock
///     }
/// }
/// await turnstile.handleEvent(.coin)
/// ```
///
/// `FSM` is not `Sendable`: its methods run in the isolation of their caller
/// (`isolation: isolated (any Actor)? = #isolation`), so it never hops to another actor
/// by itself; the compiler keeps one machine in one isolation domain. Pass
/// `enforceConcurrency: true` to also check that at run time in debug builds.
///
/// Cost: `handleEvent` is O(1) for tables without predicates and for eager tables
/// (an index computation and an array read); lazy tables scan the rows of one
/// (state, event) pair. `buildTable` validates the whole table once.
public final class FSM<State: FSMHashable, Event: FSMHashable> {
    /// How a table that uses predicates is stored.
    public enum PredicateHandling: Sendable {
        /// Every combination of predicate values is resolved when the table is built;
        /// `handleEvent` is one array read. Memory grows with the product of the case
        /// counts of the predicate types a (state, event) pair names.
        case eager
        /// Rows are kept as written and the most specific matching row is searched at
        /// `handleEvent` time. Same results and errors as `.eager`, less memory.
        case lazy
    }

    @usableFromInline var table: CompiledTable<State, Event>
    @usableFromInline var stateIndex = 0
    let executeAlways: Bool
    @usableFromInline let checker: ConcurrencyChecker?
    let handling: PredicateHandling
    let initialState: State
    var built: TableCompiler<State, Event>.Output?
    var unhandledLog = UnhandledLog()

    /// Makes a machine in `initialState` with an empty table; call ``buildTable(file:line:isolation:_:)`` next.
    ///
    /// - Parameters:
    ///   - type: `.eager` (the default) or `.lazy`; only matters when the table uses predicates.
    ///   - initialState: the state before any event.
    ///   - actionsPolicy: when entry and exit actions run (default: only on a state change).
    ///   - enforceConcurrency: in debug builds, stop with a precondition failure when a
    ///     method is called from another isolation than the first call's.
    public init(
        type: PredicateHandling = .eager,
        initialState: State,
        actionsPolicy: StateActionsPolicy = .executeOnChangeOnly,
        enforceConcurrency: Bool = false
    ) {
        handling = type
        self.initialState = initialState
        executeAlways = actionsPolicy == .executeAlways
        checker = enforceConcurrency ? ConcurrencyChecker() : nil
        table = CompiledTable(initialState: initialState)
    }

    /// The same machine, with the arguments in the order `initialState:` then `type:`.
    public convenience init(
        initialState: State,
        type: PredicateHandling,
        actionsPolicy: StateActionsPolicy = .executeOnChangeOnly,
        enforceConcurrency: Bool = false
    ) {
        self.init(
            type: type,
            initialState: initialState,
            actionsPolicy: actionsPolicy,
            enforceConcurrency: enforceConcurrency
        )
    }

    /// The current state. It changes before a transition's actions run, so an action
    /// sees the state the machine moved to.
    public var state: State {
        table.states[stateIndex]
    }

    /// Validates and compiles the table. Throws a ``SwiftFSMError`` listing every
    /// problem (each naming its file and line), or ``TableAlreadyBuiltError`` when the
    /// table was already built.
    public func buildTable(
        file: String = #file,
        line: Int = #line,
        isolation: isolated (any Actor)? = #isolation,
        @Syntax.TableBuilder<State, Event> _ block: () -> [Syntax.Define<State, Event>]
    ) throws {
        checker?.check("buildTable", isolation)
        try build(block(), at: StatementLocation(file: file, line: line))
    }

    func build(_ defines: [Syntax.Define<State, Event>], at location: StatementLocation) throws {
        guard built == nil else { throw TableAlreadyBuiltError(location: location) }
        let compiler = TableCompiler<State, Event>(
            initialState: initialState,
            isEager: handling == .eager,
            executeAlways: executeAlways
        )
        let output = try compiler.compile(defines, at: location)
        table = output.table
        stateIndex = 0
        built = output
    }

    /// Handles `event` with no predicates: fires the matching transition, if any.
    /// An event the current state does not handle changes nothing (in debug builds it
    /// is logged once per state and event).
    ///
    /// - Parameters:
    ///   - event: the event to handle.
    ///   - isolation: the caller's isolation, where the transition's actions run.
    @inlinable
    public func handleEvent(_ event: Event, isolation: isolated (any Actor)? = #isolation) async {
        if let index = handleSynchronously(event, NoPredicates(), isolation) {
            await table.fire(index, with: event)
        }
    }

    /// Handles `event` given the current predicate values, one per predicate type the
    /// table uses. Predicates of types the table does not use are ignored; when a type
    /// the table uses is left out, only rows that do not name that type can fire; for a
    /// type passed twice the first value counts. Eager and lazy tables give the same result
    /// either way.
    ///
    /// A call with one to three predicates takes the fixed-arity forms instead, such as
    /// ``handleEvent(_:predicates:_:_:isolation:)``, which need no array; this form takes
    /// four or more.
    ///
    /// - Parameters:
    ///   - event: the event to handle.
    ///   - predicates: the current value of each predicate type.
    ///   - isolation: the caller's isolation, where the transition's actions run.
    @inlinable
    public func handleEvent(
        _ event: Event,
        predicates: any Predicate...,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let index = predicates.withUnsafeBufferPointer { handleSynchronously(event, PredicateBuffer($0), isolation) }
        if let index { await table.fire(index, with: event) }
    }

    /// ``handleEvent(_:predicates:isolation:)-(_,Predicate...,_)`` with the predicates in an array,
    /// for callers that assemble them at run time.
    ///
    /// - Parameters:
    ///   - event: the event to handle.
    ///   - predicates: the current value of each predicate type.
    ///   - isolation: the caller's isolation, where the transition's actions run.
    @inlinable
    public func handleEvent(
        _ event: Event,
        predicates: [any Predicate],
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let index = predicates.withUnsafeBufferPointer { handleSynchronously(event, PredicateBuffer($0), isolation) }
        if let index { await table.fire(index, with: event) }
    }

    /// ``handleEvent(_:predicates:isolation:)-(_,Predicate...,_)`` with one predicate, with no
    /// array: the predicate's type is known where you call it, so finding its case is one
    /// read of a table. Same results as the other forms.
    ///
    /// - Parameters:
    ///   - event: the event to handle.
    ///   - p1: the current value of a predicate type.
    ///   - isolation: the caller's isolation, where the transition's actions run.
    @inlinable @inline(__always)
    public func handleEvent(
        _ event: Event,
        predicates p1: some Predicate,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        if let index = handleSynchronously(event, values: p1, NoPredicate.none, NoPredicate.none, isolation) {
            await table.fire(index, with: event)
        }
    }

    /// ``handleEvent(_:predicates:isolation:)-(_,Predicate...,_)`` with two predicates, with
    /// no array (see ``handleEvent(_:predicates:isolation:)-(_,Predicate,_)``).
    ///
    /// - Parameters:
    ///   - event: the event to handle.
    ///   - p1: the current value of a predicate type.
    ///   - p2: the current value of another predicate type.
    ///   - isolation: the caller's isolation, where the transition's actions run.
    @inlinable @inline(__always)
    public func handleEvent(
        _ event: Event,
        predicates p1: some Predicate,
        _ p2: some Predicate,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        if let index = handleSynchronously(event, values: p1, p2, NoPredicate.none, isolation) {
            await table.fire(index, with: event)
        }
    }

    /// ``handleEvent(_:predicates:isolation:)-(_,Predicate...,_)`` with three predicates, with
    /// no array (see ``handleEvent(_:predicates:isolation:)-(_,Predicate,_)``).
    ///
    /// - Parameters:
    ///   - event: the event to handle.
    ///   - p1: the current value of a predicate type.
    ///   - p2: the current value of another predicate type.
    ///   - p3: the current value of a third predicate type.
    ///   - isolation: the caller's isolation, where the transition's actions run.
    @inlinable @inline(__always)
    public func handleEvent(
        _ event: Event,
        predicates p1: some Predicate,
        _ p2: some Predicate,
        _ p3: some Predicate,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        if let index = handleSynchronously(event, values: p1, p2, p3, isolation) {
            await table.fire(index, with: event)
        }
    }

    /// Every form of `handleEvent` up to the point where it may suspend: checks the caller's
    /// `isolation` when the machine has a checker, finds the transition (``take(_:_:)``) and runs its actions when they are all
    /// synchronous (``fireWithoutSuspending(_:with:)``). Returns the transition whose actions
    /// the caller must await with `table.fire(_:with:isolation:)`, or nil when there is
    /// nothing left to do. Synchronous, so the usual event makes one async call, the
    /// caller's.
    @inlinable
    func handleSynchronously(
        _ event: Event,
        _ predicates: some PassedPredicates,
        _ isolation: (any Actor)?
    ) -> Int? {
        if let checker { checker.check("handleEvent", isolation) }
        guard let index = take(event, predicates) else { return nil }
        return fireWithoutSuspending(index, with: event) ? nil : index
    }

    /// ``handleSynchronously(_:_:_:)`` for the fixed-arity forms (unused slots hold
    /// `NoPredicate.none`). When the predicates' types are known where the form is inlined,
    /// their values are read directly (the type a constant, the case one byte read). When
    /// they are not, because the compiler opened `any Predicate` values the caller holds for
    /// these forms (or the call is not specialised), that would be generic code run with
    /// metadata at several times the cost; the values are then erased again, into a buffer
    /// on the stack, and read as the array forms read theirs.
    @inlinable @inline(__always)
    func handleSynchronously<A: Predicate, B: Predicate, C: Predicate>(
        _ event: Event,
        values a: A,
        _ b: B,
        _ c: C,
        _ isolation: (any Actor)?
    ) -> Int? {
        if _isConcrete(A.self) && _isConcrete(B.self) && _isConcrete(C.self) {
            return handleSynchronously(event, PredicateValues(a, b, c), isolation)
        }
        return PredicateBuffer.with(a, b, c) { handleSynchronously(event, $0, isolation) }
    }

    /// Finds the transition for `event` and moves to its state, or logs that there is
    /// none. The state changes before the caller runs the actions
    /// (``fireWithoutSuspending(_:with:)``), so actions (which may send events) see the new
    /// state.
    ///
    /// It and ``fireWithoutSuspending(_:with:)`` read the table through an unretained
    /// reference, so that an event costs no reference count on the table, its transition or
    /// their arrays (they were most of a turnstile event's time). That is safe because
    /// `table` is replaced only by the first `buildTable`, and before it the table has no
    /// transition, so no action can run and build it meanwhile; once built, the table (and
    /// everything it holds) lives as long as `self`, which the caller keeps alive for the
    /// call.
    @inlinable
    func take(_ event: Event, _ predicates: some PassedPredicates) -> Int? {
        let found = Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef { table -> Int? in
            guard let index = table.transitionIndex(from: stateIndex, on: event, predicates: predicates),
                table.conditionsHold(index)
            else { return nil }
            stateIndex = table.next[index]
            return index
        }
        guard let found else {
            // Only debug builds log, and only they hand `predicates` to code that cannot be
            // inlined: in release builds the caller's predicates stay where they are.
            #if DEBUG
            noTransition(for: event, predicates: predicates.array)
            #endif
            return nil
        }
        return found
    }

    /// Runs the actions of transition `index` (from ``take(_:_:)``) when they are all
    /// synchronous, and returns true; returns false, running nothing, when some are
    /// asynchronous: the caller then awaits `table.fire(_:with:isolation:)`. Synchronous,
    /// so the usual event makes no async call (which would switch to the caller's
    /// executor on entry, a runtime call per event).
    @inlinable
    func fireWithoutSuspending(_ index: Int, with event: Event) -> Bool {
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef { table in
            guard table.isSync[index] else { return false }
            table.fireSync(index, with: event)
            return true
        }
    }

    @usableFromInline
    func noTransition(for event: Event, predicates: [any Predicate]) {
        unhandledLog.record(state: state, event: event, predicates: predicates)
    }
}
