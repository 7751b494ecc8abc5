extension Fragment {
    func withActions(_ actions: [AnyAction]) -> Fragment {
        var result = self
        for index in result.rows.indices { result.rows[index].actions += actions }
        return result
    }

    func withNext(_ then: Syntax.Then<State, Event>) -> Fragment {
        var result = self
        for index in result.rows.indices {
            result.rows[index].next = then.next
            result.rows[index].locations.append(then.location)
        }
        return result
    }

    init(_ matching: Syntax.Matching<State, Event>) {
        self.init(rows: [matching.row], problems: matching.problems)
    }

    func afterMatching(_ matching: Syntax.Matching<State, Event>) -> Fragment {
        var result = self
        result.problems = matching.problems + problems
        for index in result.rows.indices {
            result.rows[index].matches = matching.row.matches
            result.rows[index].matchLocations = matching.row.matchLocations
            result.rows[index].conditions = matching.row.conditions
            result.rows[index].locations = matching.row.locations + result.rows[index].locations
        }
        return result
    }
}
