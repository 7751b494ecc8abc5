// The `|` pipe: feeds what is on its left into what is on its right, like a shell.
// Each overload exists only where the combination makes sense; anything else fails to compile.

extension Syntax.Matching {
    /// `matching(...) | when(...)`.
    public static func | (lhs: Self, rhs: Syntax.MatchingWhen<State, Event>) -> Syntax.MatchingWhen<State, Event> {
        Syntax.MatchingWhen(fragment: rhs.fragment.afterMatching(lhs))
    }

    /// `matching(...) | then(...)`, for a `when { }` block.
    public static func | (lhs: Self, rhs: Syntax.Then<State, Event>) -> Syntax.MatchingThen<State, Event> {
        Syntax.MatchingThen(fragment: Fragment(lhs).withNext(rhs))
    }
}

extension Syntax.MatchingWhen {
    /// `when(...) | then(...)`: a complete row.
    public static func | (lhs: Self, rhs: Syntax.Then<State, Event>) -> Syntax.MatchingWhenThen<State, Event> {
        Syntax.MatchingWhenThen(fragment: lhs.fragment.withNext(rhs))
    }
}

extension Syntax.Matching {
    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping () -> Void) -> Syntax.MA<State, Event> {
        Syntax.MA(fragment: Fragment(lhs).withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping (Event) -> Void) -> Syntax.MA<State, Event> {
        Syntax.MA(fragment: Fragment(lhs).withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping @isolated(any) () async -> Void) -> Syntax.MA<State, Event> {
        Syntax.MA(fragment: Fragment(lhs).withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping @isolated(any) (Event) async -> Void) -> Syntax.MA<State, Event> {
        Syntax.MA(fragment: Fragment(lhs).withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: [AnyAction]) -> Syntax.MA<State, Event> {
        Syntax.MA(fragment: Fragment(lhs).withActions(rhs))
    }
}

extension Syntax.MatchingWhen {
    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping () -> Void) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping (Event) -> Void) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping @isolated(any) () async -> Void) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping @isolated(any) (Event) async -> Void) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: [AnyAction]) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: lhs.fragment.withActions(rhs))
    }
}

extension Syntax.MatchingThen {
    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping () -> Void) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping (Event) -> Void) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping @isolated(any) () async -> Void) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping @isolated(any) (Event) async -> Void) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: [AnyAction]) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: lhs.fragment.withActions(rhs))
    }
}

extension Syntax.MatchingWhenThen {
    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping () -> Void) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping (Event) -> Void) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping @isolated(any) () async -> Void) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: @escaping @isolated(any) (Event) async -> Void) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: lhs.fragment.withActions([AnyAction(rhs)]))
    }

    /// Adds actions to the statement on the left.
    public static func | (lhs: Self, rhs: [AnyAction]) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: lhs.fragment.withActions(rhs))
    }
}
