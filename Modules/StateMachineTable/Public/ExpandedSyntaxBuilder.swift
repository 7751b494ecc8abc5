/// The table language with predicates: `matching`, `condition` and their blocks.
///
/// `matching(Enforcement.weak) | when(.pass) | then(.locked)` fires only when
/// `handleEvent` is passed `Enforcement.weak`; rows that name no `Enforcement` apply to
/// every case of it. When several rows apply, the one naming the most predicates wins.
public protocol ExpandedSyntaxBuilder: SyntaxBuilder {}

extension ExpandedSyntaxBuilder {
    /// Constrains a row to predicate values: `(predicate OR or...) AND and...`.
    /// `or:` values share one type; `and:` values must each be of another type.
    public func matching<P: Predicate>(
        _ predicate: P,
        or: P...,
        and: any Predicate...,
        file: String = #file,
        line: Int = #line
    ) -> Syntax.Matching<State, Event> {
        matchingStatement(predicate, or, and, file, line)
    }

    /// Makes a row conditional on `condition()` returning `true` when the event arrives.
    /// Conditions are opaque, so unlike `matching` they cannot tell two rows apart.
    public func condition(
        _ condition: @escaping () -> Bool,
        file: String = #file,
        line: Int = #line
    ) -> Syntax.Matching<State, Event> {
        var row = PartialRow<State, Event>()
        row.conditions = [condition]
        row.locations = [StatementLocation(file: file, line: line)]
        return Syntax.Matching(row: row, problems: [])
    }

    /// A block whose complete rows all match the predicates (ANDed with any enclosing `matching`).
    public func matching<P: Predicate>(
        _ predicate: P,
        or: P...,
        and: any Predicate...,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        let context = matchingStatement(predicate, or, and, file, line)
        return Syntax.MWTA(fragment: matchingBlock(context, file, line, block().fragment))
    }

    /// A block whose complete rows all require `condition()` to be `true`.
    public func condition(
        _ condition: @escaping () -> Bool,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        let context = self.condition(condition, file: file, line: line)
        return Syntax.MWTA(fragment: matchingBlock(context, file, line, block().fragment, name: "condition"))
    }

    /// A block whose rows of a `then { }` body all match the predicates (ANDed with any enclosing `matching`).
    public func matching<P: Predicate>(
        _ predicate: P,
        or: P...,
        and: any Predicate...,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWABuilder<State, Event> _ block: () -> Syntax.MWA<State, Event>
    ) -> Syntax.MWA<State, Event> {
        let context = matchingStatement(predicate, or, and, file, line)
        return Syntax.MWA(fragment: matchingBlock(context, file, line, block().fragment))
    }

    /// A block whose rows of a `then { }` body all require `condition()` to be `true`.
    public func condition(
        _ condition: @escaping () -> Bool,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWABuilder<State, Event> _ block: () -> Syntax.MWA<State, Event>
    ) -> Syntax.MWA<State, Event> {
        let context = self.condition(condition, file: file, line: line)
        return Syntax.MWA(fragment: matchingBlock(context, file, line, block().fragment, name: "condition"))
    }

    /// A block whose rows of a `when { }` body all match the predicates (ANDed with any enclosing `matching`).
    public func matching<P: Predicate>(
        _ predicate: P,
        or: P...,
        and: any Predicate...,
        file: String = #file,
        line: Int = #line,
        @Syntax.MTABuilder<State, Event> _ block: () -> Syntax.MTA<State, Event>
    ) -> Syntax.MTA<State, Event> {
        let context = matchingStatement(predicate, or, and, file, line)
        return Syntax.MTA(fragment: matchingBlock(context, file, line, block().fragment))
    }

    /// A block whose rows of a `when { }` body all require `condition()` to be `true`.
    public func condition(
        _ condition: @escaping () -> Bool,
        file: String = #file,
        line: Int = #line,
        @Syntax.MTABuilder<State, Event> _ block: () -> Syntax.MTA<State, Event>
    ) -> Syntax.MTA<State, Event> {
        let context = self.condition(condition, file: file, line: line)
        return Syntax.MTA(fragment: matchingBlock(context, file, line, block().fragment, name: "condition"))
    }

    private func matchingStatement<P: Predicate>(
        _ predicate: P,
        _ or: [P],
        _ and: [any Predicate],
        _ file: String,
        _ line: Int
    ) -> Syntax.Matching<State, Event> {
        let location = StatementLocation(file: file, line: line)
        var problems: [any TableProblem] = []
        var row = PartialRow<State, Event>()
        row.matches = MatchAlgebra.statement(first: predicate, or: or, and: and, at: location, problems: &problems)
        row.matchLocations = [location]
        row.locations = [location]
        return Syntax.Matching(row: row, problems: problems)
    }

    private func matchingBlock(
        _ context: Syntax.Matching<State, Event>,
        _ file: String,
        _ line: Int,
        _ fragment: Fragment<State, Event>,
        name: String = "matching"
    ) -> Fragment<State, Event> {
        var result = fragment.matching(context.row, blockName: name, at: StatementLocation(file: file, line: line))
        result.problems = context.problems + result.problems
        return result
    }
}
