import Foundation

extension SemanticsChart {
    /// The chart as an SCXML document (null data model), indented, one element a line.
    var scxml: String {
        var lines = [
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\"semantics\""
                + (rootInitial.map { " initial=\"\(states[$0].id)\"" } ?? "") + ">"
        ]
        for child in rootChildren { appendSCXML(of: child, indent: "  ", to: &lines) }
        lines.append("</scxml>")
        return lines.joined(separator: "\n")
    }

    /// Appends the element of state `index` (and its children) to `lines`.
    private func appendSCXML(of index: Int, indent: String, to lines: inout [String]) {
        let state = states[index]
        let element =
            switch state.kind {
            case .atomic, .compound: "state"
            case .parallel: "parallel"
            case .final: "final"
            }
        var open = "\(indent)<\(element) id=\"\(state.id)\""
        if let initial = state.initial { open += " initial=\"\(states[initial].id)\"" }
        let inner = indent + "  "
        var body: [String] = []
        // A delayed transition is SCXML's idiom: a send armed on entry, cancelled on exit.
        let sends = state.timers.compactMap { timer -> String? in
            guard case .after(let seconds, let number) = transitions[timer].trigger else { return nil }
            return "<send event=\"tm\(number)\" delay=\"\(seconds)s\" id=\"tm\(number)\"/>"
        }
        let cancels = state.timers.compactMap { timer -> String? in
            guard case .after(_, let number) = transitions[timer].trigger else { return nil }
            return "<cancel sendid=\"tm\(number)\"/>"
        }
        if !state.onEntry.isEmpty || !sends.isEmpty {
            body.append("\(inner)<onentry>\(scxml(state.onEntry))\(sends.joined())</onentry>")
        }
        if !state.onExit.isEmpty || !cancels.isEmpty {
            body.append("\(inner)<onexit>\(cancels.joined())\(scxml(state.onExit))</onexit>")
        }
        for number in state.transitions { body.append(inner + scxml(transitions[number])) }
        for number in state.histories {
            let history = histories[number]
            body.append(
                "\(inner)<history id=\"\(history.id)\" type=\"\(history.deep ? "deep" : "shallow")\">"
                    + "<transition target=\"\(states[history.defaultTarget].id)\"/></history>"
            )
        }
        for child in state.children { appendSCXML(of: child, indent: inner, to: &body) }
        if body.isEmpty {
            lines.append(open + "/>")
        } else {
            lines.append(open + ">")
            lines += body
            lines.append("\(indent)</\(element)>")
        }
    }

    /// A `<transition>` element, on one line.
    private func scxml(_ transition: Transition) -> String {
        var text = "<transition"
        if let event = eventName(of: transition.trigger) { text += " event=\"\(event)\"" }
        if let condition = transition.condition { text += " cond=\"\(xmlEscaped(scxml(condition)))\"" }
        switch transition.target {
        case .state(let target): text += " target=\"\(states[target].id)\""
        case .history(let history): text += " target=\"\(histories[history].id)\""
        case nil: break
        }
        if transition.isInternal { text += " type=\"internal\"" }
        return transition.actions.isEmpty ? text + "/>" : text + ">\(scxml(transition.actions))</transition>"
    }

    /// `cond` text; operands of `!` and operators are parenthesised.
    func scxml(_ condition: Condition) -> String {
        switch condition {
        case .constant(let value): "\(value)"
        case .inState(let state): "In('\(states[state].id)')"
        case .not(let inner): "!(\(scxml(inner)))"
        case .and(let left, let right): "(\(scxml(left)) && \(scxml(right)))"
        case .or(let left, let right): "(\(scxml(left)) || \(scxml(right)))"
        }
    }

    /// Executable content, on one line.
    private func scxml(_ content: [Content]) -> String {
        content.map { element in
            switch element {
            case .log(let label): "<log label=\"\(label)\"/>"
            case .raise(let event): "<raise event=\"\(event)\"/>"
            case .branch(let condition, let then, let otherwise):
                "<if cond=\"\(xmlEscaped(scxml(condition)))\">\(scxml(then))<else/>\(scxml(otherwise))</if>"
            }
        }.joined()
    }

    /// `text` for an attribute value (`&&` is the only markup a condition holds).
    private func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
    }
}
