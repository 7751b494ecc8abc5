import StateMachineSupport

extension Statechart {
    /// An event name looked up once in a chart's event table, for ``Statechart/handle(_:payload:)-(Statechart<StateID,EventID,Payload>.ResolvedEvent,_)``
    /// and ``Statechart/send(_:payload:)-(Statechart<StateID,EventID,Payload>.ResolvedEvent,_)`` in hot loops: handling it skips the lookup
    /// (a hash of the name) that handling by name costs on every call.
    ///
    /// ```swift
    /// let next = try chart.resolve("next")
    /// for _ in 0..<1_000 { try chart.handle(next) }
    /// ```
    ///
    /// A resolved event belongs to the chart that resolved it; handed to another chart it
    /// is looked up again by ``name``, so it is never misread.
    public struct ResolvedEvent: Sendable, Hashable {
        /// The event's index in the chart's event table, -1 when no handler names it.
        @usableFromInline let index: Int32
        /// The engine of the chart that resolved it.
        @usableFromInline let chart: ObjectIdentifier
        /// The names: for a name the table holds, its number in the process's table of
        /// listed names, so that copying a resolved event (in a client's loop, say) counts no
        /// reference; otherwise a box.
        @usableFromInline let names: ResolvedEventNames

        /// The event's name.
        public var name: EventID {
            switch names {
            // The table holds what `resolve` interned: a value of this type.
            case .listed(let number): ListedEventNames.shared.name(number) as! EventID
            case .unlisted(let box): box.name as! EventID
            }
        }

        /// The name traces give the event when the table does not hold it as is (an
        /// unknown name, or one that prefix matching sends to another event's handlers).
        @usableFromInline var unlisted: String? {
            if case .unlisted(let box) = names { return box.unlisted }
            return nil
        }

        /// Whether the table holds the event as is (it has no name of its own for traces):
        /// the fast path tests this and never reads the names.
        @usableFromInline var isListed: Bool {
            if case .listed = names { return true }
            return false
        }

        /// Two resolved events are equal when they are the same event of the same chart.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            guard lhs.index == rhs.index, lhs.chart == rhs.chart else { return false }
            switch (lhs.names, rhs.names) {
            // A listed name's number stands for the name: one number per name and type.
            case (.listed(let left), .listed(let right)): return left == right
            case (.unlisted, .unlisted): return lhs.name == rhs.name && lhs.unlisted == rhs.unlisted
            default: return false
            }
        }

        /// Hashes the event's name, index and chart.
        public func hash(into hasher: inout Hasher) {
            switch names {
            case .listed(let number): hasher.combine(number)
            case .unlisted(let box): hasher.combine(box.unlisted)
            }
            hasher.combine(index)
            hasher.combine(chart)
        }
    }

    /// Looks `name` up in the chart's event table once, for handling it many times.
    ///
    /// A name no handler uses resolves too (its events are unhandled, or match by prefix
    /// with ``StatechartOptions/EventMatching/prefix``).
    ///
    /// A name the table holds is kept, once, in a table the process shares, and the resolved
    /// event holds its number, so that copying one (iterating an array of them, say) counts
    /// no reference; that table grows only with the distinct event names of the charts you
    /// resolve events of.
    /// - Throws: ``StatechartError/emptyName(what:location:)`` when `name` is empty.
    public func resolve(_ name: EventID) throws(StatechartError) -> ResolvedEvent {
        let (index, unlisted) = try hooks.lookUp(name)
        return ResolvedEvent(
            index: index,
            chart: ObjectIdentifier(engine),
            names: unlisted.map { .unlisted(UnlistedEventNames(name: name, unlisted: $0)) }
                ?? .listed(ListedEventNames.shared.number(of: name))
        )
    }
}

/// The names of a resolved event (see `Statechart.ResolvedEvent`).
@usableFromInline
enum ResolvedEventNames: Sendable {
    /// A name the chart's event table holds: its number in ``ListedEventNames``.
    case listed(UInt32)
    /// A name no handler uses, or one that prefix matching sends to another event's
    /// handlers, with the name traces give it.
    case unlisted(UnlistedEventNames)
}

/// The names of an unlisted resolved event; immutable.
@usableFromInline
final class UnlistedEventNames: Sendable {
    let name: any Hashable & Sendable
    let unlisted: String

    init(name: any Hashable & Sendable, unlisted: String) {
        self.name = name
        self.unlisted = unlisted
    }
}

/// The event names of charts' tables that `resolve` was asked for, each kept once for the
/// process and numbered, so that a resolved event holds a number instead of a reference.
/// Bounded by the distinct event names of the charts whose events are resolved (names no
/// handler uses are not kept here).
final class ListedEventNames: Sendable {
    static let shared = ListedEventNames()

    private struct Table {
        var names: [any Hashable & Sendable] = []
        var numbers: [Key: UInt32] = [:]
    }

    /// A name and its type: names of two types are two names.
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let name: AnyHashable
    }

    private let table = Lock(Table())

    /// The number of `name`, kept on first use.
    func number<Name: Hashable & Sendable>(of name: Name) -> UInt32 {
        let key = Key(type: ObjectIdentifier(Name.self), name: AnyHashable(name))
        return table.withLock { table in
            if let number = table.numbers[key] { return number }
            // Four billion names would take hundreds of gigabytes before the count wrapped.
            let number = UInt32(truncatingIfNeeded: table.names.count)
            table.names.append(name)
            table.numbers[key] = number
            return number
        }
    }

    /// The name numbered `number`.
    func name(_ number: UInt32) -> any Hashable & Sendable {
        table.withLock { $0.names[Int(number)] }
    }
}
