// Phase 3 of compiling a chart: the event table. The user's events are numbered first, in
// the order handlers and deferrals name them; synthetic events (one for eventless
// transitions, one per state whose done event is handled, one per delayed transition) are
// numbered after them as the handlers that need them are compiled. With prefix matching,
// every user event is also a class of names (see `EventClasses`).

extension Statechart.Compiler {
    /// Numbers the user's events and makes their classes.
    mutating func indexEvents() {
        for state in states {
            for handler in state.handlers {
                guard case .event(let first) = handler.trigger else { continue }
                for event in [first] + handler.extraEvents where eventIndex[event] == nil {
                    eventIndex[event] = Int32(eventIndex.count)
                }
            }
            for event in state.deferred where eventIndex[event] == nil {
                eventIndex[event] = Int32(eventIndex.count)
            }
        }
        userEventCount = eventIndex.count
        var userEventNames = [String](repeating: "", count: userEventCount)
        for (id, index) in eventIndex { userEventNames[Int(index)] = statechartName(id) }
        // With prefix matching, every user event is a class: the handlers listed under
        // event `c` are those with a descriptor that matches the name `c`.
        matching = EventClasses(names: userEventNames, enabled: prefixMatching)
        doneEvents = [Int32](repeating: -1, count: states.count)
        stateTimers = [[Int32]](repeating: [], count: states.count)
    }

    /// A new synthetic event named `name` (for traces), numbered after every other event.
    mutating func newSyntheticEvent(_ name: String) -> Int32 {
        syntheticNames.append(name)
        return Int32(userEventCount + syntheticNames.count - 1)
    }
}
