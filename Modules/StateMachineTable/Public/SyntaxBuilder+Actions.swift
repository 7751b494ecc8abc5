// `actions(...) { }`: every row in the block runs these actions before its own.
// Nested `actions` blocks accumulate. One overload per action form and block shape.

extension SyntaxBuilder {
    /// Adds `action` to every row of the block (rows of a define or SuperState body).
    public func actions(
        _ action: @escaping () -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a define or SuperState body).
    public func actions(
        _ action: @escaping (Event) -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a define or SuperState body).
    public func actions(
        _ action: @escaping @isolated(any) () async -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a define or SuperState body).
    public func actions(
        _ action: @escaping @isolated(any) (Event) async -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a define or SuperState body).
    public func actions(
        _ action: [AnyAction],
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: actionsBlock(action, file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `then { }` body).
    public func actions(
        _ action: @escaping () -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWABuilder<State, Event> _ block: () -> Syntax.MWA<State, Event>
    ) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `then { }` body).
    public func actions(
        _ action: @escaping (Event) -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWABuilder<State, Event> _ block: () -> Syntax.MWA<State, Event>
    ) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `then { }` body).
    public func actions(
        _ action: @escaping @isolated(any) () async -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWABuilder<State, Event> _ block: () -> Syntax.MWA<State, Event>
    ) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `then { }` body).
    public func actions(
        _ action: @escaping @isolated(any) (Event) async -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWABuilder<State, Event> _ block: () -> Syntax.MWA<State, Event>
    ) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `then { }` body).
    public func actions(
        _ action: [AnyAction],
        file: String = #file,
        line: Int = #line,
        @Syntax.MWABuilder<State, Event> _ block: () -> Syntax.MWA<State, Event>
    ) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: actionsBlock(action, file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `when { }` body).
    public func actions(
        _ action: @escaping () -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MTABuilder<State, Event> _ block: () -> Syntax.MTA<State, Event>
    ) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `when { }` body).
    public func actions(
        _ action: @escaping (Event) -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MTABuilder<State, Event> _ block: () -> Syntax.MTA<State, Event>
    ) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `when { }` body).
    public func actions(
        _ action: @escaping @isolated(any) () async -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MTABuilder<State, Event> _ block: () -> Syntax.MTA<State, Event>
    ) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `when { }` body).
    public func actions(
        _ action: @escaping @isolated(any) (Event) async -> Void,
        file: String = #file,
        line: Int = #line,
        @Syntax.MTABuilder<State, Event> _ block: () -> Syntax.MTA<State, Event>
    ) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: actionsBlock([AnyAction(action)], file, line, block().fragment))
    }

    /// Adds `action` to every row of the block (rows of a `when { }` body).
    public func actions(
        _ action: [AnyAction],
        file: String = #file,
        line: Int = #line,
        @Syntax.MTABuilder<State, Event> _ block: () -> Syntax.MTA<State, Event>
    ) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: actionsBlock(action, file, line, block().fragment))
    }

    private func actionsBlock(
        _ actions: [AnyAction],
        _ file: String,
        _ line: Int,
        _ fragment: Fragment<State, Event>
    ) -> Fragment<State, Event> {
        let location = StatementLocation(file: file, line: line)
        return fragment.inBlock("actions", at: location) { $0.actions = actions + $0.actions }
    }
}
