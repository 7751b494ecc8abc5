extension SCXMLDocument {
    /// What the chart compiler (`Apps/ChartCompiler`) generates types from: the document's
    /// states and events, with the lines they are declared on.
    package struct Outline: Sendable, Equatable {
        /// A state: its id, what it is, and the line of its element.
        package struct State: Sendable, Equatable {
            package let id: String
            package let kind: String
            package let line: Int
        }

        /// An event name: the transitions that name it (source id and line) and the lines
        /// that raise or send it to the session itself (a `<raise>`'s is its block's element).
        package struct Event: Sendable, Equatable {
            package let name: String
            package var transitions: [(source: String, line: Int)]
            package var raisedAt: [Int]

            package static func == (a: Event, b: Event) -> Bool {
                a.name == b.name && a.raisedAt == b.raisedAt
                    && a.transitions.map(\.source) == b.transitions.map(\.source)
                    && a.transitions.map(\.line) == b.transitions.map(\.line)
            }
        }

        /// Every state but the `<scxml>` root and histories, in document order.
        package let states: [State]
        /// Every event a transition names (the wildcard `*` and `.*` suffixes left out) and
        /// every event the document raises or sends to itself by a literal name, in document
        /// order.
        package let events: [Event]
    }

    /// The document's outline (see ``Outline``).
    package var outline: Outline {
        var states: [Outline.State] = []
        for node in nodes.dropFirst() {
            let kind: String
            switch node.kind {
            case .root, .history: continue
            case .atomic: kind = "atomic"
            case .compound: kind = "compound"
            case .parallel: kind = "parallel"
            case .final: kind = "final"
            }
            states.append(Outline.State(id: node.id, kind: kind, line: node.line))
        }
        var events: [Outline.Event] = []
        var index: [String: Int] = [:]
        func event(_ name: String) -> Int {
            if let position = index[name] { return position }
            index[name] = events.count
            events.append(Outline.Event(name: name, transitions: [], raisedAt: []))
            return events.count - 1
        }
        func visit(_ actions: [Action], at line: Int) {
            for action in actions {
                switch action {
                case .raise(let name): events[event(name)].raisedAt.append(line)
                case .send(let send):
                    guard case .literal(let name) = send.event else { continue }
                    switch send.target {
                    case nil, .literal("#_internal")?: events[event(name)].raisedAt.append(send.line)
                    default: continue
                    }
                case .if(let branches): branches.forEach { visit($0.actions, at: line) }
                case .foreach(_, _, _, let body): visit(body, at: line)
                default: continue
                }
            }
        }
        for node in nodes {
            for transitionIndex in node.transitions {
                let transition = transitions[transitionIndex]
                for descriptor in transition.events where descriptor != "*" {
                    var name = descriptor
                    while name.hasSuffix(".*") || name.hasSuffix(".") {
                        name = String(name.dropLast(name.hasSuffix(".*") ? 2 : 1))
                    }
                    guard !name.isEmpty else { continue }
                    events[event(name)].transitions.append((node.id, transition.line))
                }
                visit(transition.actions, at: transition.line)
            }
            for block in node.onEntry + node.onExit { visit(block, at: node.line) }
        }
        return Outline(states: states, events: events)
    }
}
