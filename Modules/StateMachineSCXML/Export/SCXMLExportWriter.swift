import Foundation
import StateMachineHierarchy
import StateMachineSupport

/// Writes a `StatechartExportOutline` as an SCXML document (see
/// `SCXMLDocument.export(_:options:)`), collecting what SCXML cannot express as issues.
/// The text is indented by two spaces, one element or block a line, in the definition's
/// order, so that the same chart always gives the same text.
struct SCXMLExportWriter {
    typealias Outline = StatechartExportOutline

    let outline: Outline
    let options: SCXMLExportOptions
    /// What cannot be expressed, in document order.
    private(set) var issues: [SCXMLExportError.Issue] = []

    /// Each state's parent (nil for a child of the root), by id; the composite and the
    /// parallel states.
    private var parents: [String: String?] = [:]
    private var composites: Set<String> = []
    private var parallels: Set<String> = []
    /// Every id the document declares (states, histories, region wrappers).
    private var ids: Set<String> = []
    /// Named guards, in the order first used.
    private var guards: [String] = []
    /// Delayed transitions' events, with the path of their state.
    private var timerEvents: [(event: String, path: String)] = []
    /// Every event descriptor a transition names, with the path of its state.
    private var descriptors: [(descriptor: String, path: String)] = []

    init(outline: Outline, options: SCXMLExportOptions) {
        self.outline = outline
        self.options = options
    }

    // MARK: The document

    /// The document's text; `issues` holds what it leaves out.
    mutating func write() -> String {
        index(outline.root, parent: nil)
        var body: [String] = []
        for state in outline.root.states {
            appendState(state, path: state.id, indent: "  ", to: &body)
        }
        if let initial = initialElement(of: outline.root, path: outline.name, indent: "  ") {
            body.insert(initial, at: 0)
        }
        for join in outline.joins {
            issue(
                outline.name,
                "the join '\(join)' is left out: SCXML has no join (a transition cannot wait for several sources)"
            )
        }
        for junction in outline.junctions {
            issue(outline.name, "the junction '\(junction)' is left out: SCXML has no junction")
        }
        checkTimerEvents()

        var open =
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\"\(Self.attribute(outline.name))\""
        if let initial = outline.root.initial, outline.root.initialTargets.isEmpty {
            open += " initial=\"\(Self.attribute(initial))\""
        }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        let origin = "<!-- Exported by SwiftStateMachine from the statechart '\(Self.comment(outline.name))'."
        if guards.isEmpty {
            lines.append(origin + " Named actions are <log label=\"NAME\"/>. -->")
        } else {
            lines.append(origin + " Named actions are")
            lines.append(
                "     <log label=\"NAME\"/>; a named guard is guard('NAME'), which reads the guards table below. -->"
            )
        }
        if !issues.isEmpty {
            lines.append("<!-- Not exported (SCXML cannot express them):")
            lines += issues.map { "     \(Self.comment($0.description))" }
            lines.append("-->")
        }
        if guards.isEmpty {
            lines.append(open + ">")
        } else {
            lines.append(open + " datamodel=\"ecmascript\">")
            let table = guards.map { name in
                "\(Self.json(name)): \(options.guardValues[name] ?? options.defaultGuardValue)"
            }
            lines.append("  <datamodel>")
            lines.append("    <data id=\"guards\">{\(Self.text(table.joined(separator: ", ")))}</data>")
            lines.append("  </datamodel>")
            lines.append("  <script>function guard(name) { return guards[name] === true; }</script>")
        }
        lines += body
        lines.append("</scxml>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Records where each state is, so that transitions can be classified before the
    /// states that hold their targets are written.
    private mutating func index(_ region: Outline.Region, parent: String?) {
        for state in region.states {
            parents[state.id] = .some(parent)
            switch state.content {
            case .simple: break
            case .composite(let inner):
                composites.insert(state.id)
                index(inner, parent: state.id)
            case .parallel(let regions):
                parallels.insert(state.id)
                for inner in regions { index(inner, parent: state.id) }
            }
        }
    }

    // MARK: States

    /// Appends the element of `state` (and of everything inside it) to `lines`.
    private mutating func appendState(_ state: Outline.State, path: String, indent: String, to lines: inout [String]) {
        declare(state.id, what: "state", path: path)
        let element =
            switch state.content {
            case .simple: state.isFinal ? "final" : "state"
            case .composite: "state"
            case .parallel: "parallel"
            }
        var open = "\(indent)<\(element) id=\"\(Self.attribute(state.id))\""
        if case .composite(let inner) = state.content, let initial = inner.initial, inner.initialTargets.isEmpty {
            open += " initial=\"\(Self.attribute(initial))\""
        }
        let inner = indent + "  "
        var body: [String] = []
        if case .composite(let region) = state.content,
            let initial = initialElement(of: region, path: path, indent: inner)
        {
            body.append(initial)
        }

        // Delayed transitions: SCXML's idiom, a send armed on entry and cancelled on exit.
        var timers: [Int: String] = [:]
        var sends: [String] = []
        var cancels: [String] = []
        for (number, transition) in state.transitions.enumerated() {
            guard case .after(let delay) = transition.trigger else { continue }
            guard let delayText = Self.css2(delay) else {
                issue(
                    path,
                    "the transition after \(delay) is left out: its delay is negative or finer than a nanosecond"
                )
                continue
            }
            let event = Self.attribute("after.\(state.id).\(timers.count)")
            timers[number] = "after.\(state.id).\(timers.count)"
            timerEvents.append((timers[number]!, path))
            sends.append("<send event=\"\(event)\" delay=\"\(delayText)\" id=\"\(event)\"/>")
            cancels.append("<cancel sendid=\"\(event)\"/>")
        }
        let enter = placeholder(state.enter, path: path, what: "the enter block")
        let exit = placeholder(state.exit, path: path, what: "the exit block")
        if enter != nil || !sends.isEmpty {
            body.append("\(inner)<onentry>\(enter ?? "")\(sends.joined())</onentry>")
        }
        if exit != nil || !cancels.isEmpty {
            body.append("\(inner)<onexit>\(cancels.joined())\(exit ?? "")</onexit>")
        }
        for (number, transition) in state.transitions.enumerated() {
            if let line = transitionElement(transition, source: state, path: path, timerEvent: timers[number]) {
                body.append(inner + line)
            }
        }
        for history in state.histories {
            declare(history.name, what: "history", path: path)
            var line =
                "\(inner)<history id=\"\(Self.attribute(history.name))\" type=\"\(history.deep ? "deep" : "shallow")\">"
            let defaults = history.defaults.isEmpty ? defaultTargets(of: state) : history.defaults
            let action = placeholder(
                history.defaultAction,
                path: path,
                what: "the default transition of the history '\(history.name)'"
            )
            line += "<transition target=\"\(Self.attribute(defaults.joined(separator: " ")))\""
            line += action.map { ">\($0)</transition>" } ?? "/>"
            body.append(line + "</history>")
        }
        if !state.deferred.isEmpty {
            issue(
                path,
                "the deferred events \(state.deferred.map { "'\($0)'" }.joined(separator: ", ")) are left out: SCXML has no deferral"
            )
        }
        if state.hasTask {
            issue(
                path,
                "the state's task is left out: SCXML has no state-scoped task (an <invoke> runs a document, not Swift)"
            )
        }
        switch state.content {
        case .simple:
            break
        case .composite(let region):
            for child in region.states {
                appendState(child, path: path + "/" + child.id, indent: inner, to: &body)
            }
        case .parallel(let regions):
            for (number, region) in regions.enumerated() {
                let regionPath = "\(path)@\(number)"
                if region.states.count == 1, region.initialTargets.isEmpty {
                    appendState(
                        region.states[0],
                        path: regionPath + "/" + region.states[0].id,
                        indent: inner,
                        to: &body
                    )
                    continue
                }
                // SCXML's regions are the parallel state's child states: a region of several
                // states needs a compound state of its own, which the configuration shows and
                // which is the domain of the transitions inside it (the typed chart under
                // `.leastCommonCompoundAncestor` exits the parallel state instead).
                let wrapper = "\(state.id).region\(number)"
                declare(wrapper, what: "region state", path: regionPath)
                var open = "\(inner)<state id=\"\(Self.attribute(wrapper))\""
                if let initial = region.initial, region.initialTargets.isEmpty {
                    open += " initial=\"\(Self.attribute(initial))\""
                }
                body.append(
                    "\(inner)<!-- region \(number) of '\(Self.comment(state.id))': a state of its own in SCXML; a transition inside it stays inside it -->"
                )
                body.append(open + ">")
                if let initial = initialElement(of: region, path: regionPath, indent: inner + "  ") {
                    body.append(initial)
                }
                for child in region.states {
                    appendState(child, path: regionPath + "/" + child.id, indent: inner + "  ", to: &body)
                }
                body.append("\(inner)</state>")
            }
        }
        if body.isEmpty {
            lines.append(open + "/>")
        } else {
            lines.append(open + ">")
            lines += body
            lines.append("\(indent)</\(element)>")
        }
    }

    /// An `<initial>` element for a region whose initial transition names targets (a
    /// chart read from SCXML); nil for a region that starts in one state.
    private mutating func initialElement(of region: Outline.Region, path: String, indent: String) -> String? {
        guard !region.initialTargets.isEmpty else { return nil }
        let targets = region.initialTargets.compactMap { target(of: $0, path: path, what: "the initial transition") }
        let action = placeholder(region.initialAction, path: path, what: "the initial transition's content")
        var line = "\(indent)<initial><transition target=\"\(Self.attribute(targets.joined(separator: " ")))\""
        line += action.map { ">\($0)</transition>" } ?? "/>"
        return line + "</initial>"
    }

    /// The states a history without a default enters: its owner's initial state, or for
    /// a parallel owner, every region's.
    private func defaultTargets(of owner: Outline.State) -> [String] {
        func initial(_ region: Outline.Region) -> String? { region.initial ?? region.states.first?.id }
        switch owner.content {
        case .simple: return []
        case .composite(let region): return initial(region).map { [$0] } ?? []
        case .parallel(let regions): return regions.compactMap(initial)
        }
    }

    // MARK: Transitions

    /// The `<transition>` element, on one line; nil when it is left out (an issue says why).
    private mutating func transitionElement(
        _ transition: Outline.Transition,
        source: Outline.State,
        path: String,
        timerEvent: String?
    ) -> String? {
        var events: [String]
        let what: String
        switch transition.trigger {
        case .event(let event):
            events = [event] + transition.extraEvents
            what = "the transition on '\(event)'"
        case .eventless:
            events = transition.extraEvents
            what = "the eventless transition"
        case .after(let delay):
            events = timerEvent.map { [$0] } ?? []
            what = "the transition after \(delay)"
            guard timerEvent != nil else { return nil }  // its delay is reported with the state's timers
        case .done(let state):
            events = ["done.state.\(state ?? source.id)"]
            what = "the transition on 'done.state.\(state ?? source.id)'"
        }
        for event in events where !Self.isToken(event) {
            issue(
                path,
                "\(what) is left out: its event '\(event)' is empty or holds white space, which SCXML's event lists cannot hold"
            )
            return nil
        }
        if case .event = transition.trigger {
            descriptors += events.map { ($0, path) }
        }
        var targets: [String] = []
        for target in transition.targets {
            guard let names = self.target(of: target, path: path, what: what) else { return nil }
            targets.append(names)
        }
        var text = "<transition"
        if !events.isEmpty { text += " event=\"\(Self.attribute(events.joined(separator: " ")))\"" }
        switch transition.guardBlock {
        case .none: break
        case .named(let name):
            if !guards.contains(name) { guards.append(name) }
            text += " cond=\"\(Self.attribute("guard('\(Self.javaScript(name))')"))\""
        case .unnamed:
            issue(path, "\(what) is left out: its guard has no name (name it with guardName: or naming(guard:))")
            return nil
        }
        switch transition.kind {
        case .internal:
            break  // SCXML's targetless transition: only the content runs.
        case .external:
            text += " target=\"\(Self.attribute(targets.joined(separator: " ")))\""
        case .local:
            text += " target=\"\(Self.attribute(targets.joined(separator: " ")))\""
            switch localMeaning(transition, source: source.id) {
            case .internal: text += " type=\"internal\""
            case .external: break
            case .none:
                issue(
                    path,
                    "\(what) is left out: it is local, and SCXML's type=\"internal\" keeps only a compound source that contains every target"
                )
                return nil
            }
        }
        guard let action = placeholder(transition.action, path: path, what: "the action of \(what)") else {
            return text + "/>"
        }
        return text + ">\(action)</transition>"
    }

    /// What a local transition means in SCXML: `type="internal"` when its source is a
    /// compound state containing every target, external when no target is inside the
    /// source or contains it (or it targets a pseudo state, which makes it external in
    /// the typed engine too), nil when the typed meaning has no SCXML form.
    private enum LocalMeaning { case `internal`, external }
    private func localMeaning(_ transition: Outline.Transition, source: String) -> LocalMeaning? {
        let states = transition.targets.compactMap { target -> String? in
            if case .state(let id) = target { id } else { nil }
        }
        guard states.count == transition.targets.count else { return .external }
        if composites.contains(source), states.allSatisfy({ $0 != source && isAncestor(source, of: $0) }) {
            return .internal
        }
        let related = states.contains { $0 == source || isAncestor(source, of: $0) || isAncestor($0, of: source) }
        if !related { return .external }
        // A local self-transition on a simple state behaves as an external one.
        if states == [source], !composites.contains(source), !parallels.contains(source) { return .external }
        return nil
    }

    /// Whether `ancestor` strictly contains `state`.
    private func isAncestor(_ ancestor: String, of state: String) -> Bool {
        var current = parents[state] ?? nil
        while let parent = current {
            if parent == ancestor { return true }
            current = parents[parent] ?? nil
        }
        return false
    }

    /// The SCXML target text of `target`: its id, or a fork's targets; nil (with an issue)
    /// for a join or a junction.
    private mutating func target(of target: Outline.Target, path: String, what: String) -> String? {
        switch target {
        case .state(let id): return id
        case .history(let name): return name
        case .fork(let name):
            guard let fork = outline.forks.first(where: { $0.name == name }) else {
                issue(path, "\(what) is left out: it targets the fork '\(name)', which is not declared")
                return nil
            }
            return fork.targets.joined(separator: " ")
        case .join(let name):
            issue(path, "\(what) is left out: it targets the join '\(name)', and SCXML has no join")
            return nil
        case .junction(let name):
            issue(path, "\(what) is left out: it targets the junction '\(name)', and SCXML has no junction")
            return nil
        }
    }

    /// `<log label="NAME"/>` for a named block; nil for none, and for one without a name
    /// (with an issue).
    private mutating func placeholder(_ block: Outline.Block, path: String, what: String) -> String? {
        switch block {
        case .none: return nil
        case .named(let name): return "<log label=\"\(Self.attribute(name))\"/>"
        case .unnamed:
            issue(
                path,
                "\(what) is left out: it has no name (give it one with onEnter(named:), onExit(named:) or naming(action:))"
            )
            return nil
        }
    }

    /// A delayed transition's event would also be matched by a descriptor the chart names
    /// (`*`, or a prefix of it): the exported document would take that transition too.
    private mutating func checkTimerEvents() {
        for timer in timerEvents {
            for entry in descriptors where Self.matches(entry.descriptor, timer.event) {
                issue(
                    entry.path,
                    "the descriptor '\(entry.descriptor)' would also match the event '\(timer.event)' of the delayed transition of '\(timer.path)', which the typed chart does not send"
                )
            }
        }
    }

    // MARK: Names and text

    private mutating func issue(_ path: String, _ message: String) {
        issues.append(SCXMLExportError.Issue(path: path, message: message))
    }

    /// Records an id the document declares; reports one that is no XML name or that is
    /// declared twice.
    private mutating func declare(_ id: String, what: String, path: String) {
        if !Self.isXMLName(id) {
            issue(
                path,
                "the \(what) name '\(id)' is not an XML identifier (a letter or '_', then letters, digits, '.', '-', '_'), which SCXML ids must be"
            )
        }
        if !ids.insert(id).inserted {
            issue(
                path,
                "the \(what) name '\(id)' is declared twice in the document (SCXML ids are unique across states and histories)"
            )
        }
    }

    /// Whether SCXML's event matching takes `event` for `descriptor`: `*`, the name
    /// itself, or a prefix of it at a `.` boundary (`a` and `a.*` match `a.b`).
    static func matches(_ descriptor: String, _ event: String) -> Bool {
        if descriptor == "*" { return true }
        var stem = descriptor
        while stem.hasSuffix(".*") || stem.hasSuffix(".") {
            stem = String(stem.dropLast(stem.hasSuffix(".*") ? 2 : 1))
        }
        return event == stem || event.hasPrefix(stem + ".")
    }

    /// Whether `text` is one token of an event list: not empty, no white space.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && !text.contains { $0.isWhitespace }
    }

    /// Whether `text` is an XML name without a colon (an NCName, as SCXML ids are).
    static func isXMLName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.dropFirst().allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }
    }

    /// `delay` as a CSS2 time (`2s`, `1.5s`, `0.000000001s`), exact to the nanosecond;
    /// nil for a negative delay or one finer than a nanosecond.
    static func css2(_ delay: Duration) -> String? {
        let (seconds, attoseconds) = delay.components
        guard seconds >= 0, attoseconds >= 0, attoseconds % 1_000_000_000 == 0 else { return nil }
        let nanoseconds = attoseconds / 1_000_000_000
        guard nanoseconds > 0 else { return "\(seconds)s" }
        var fraction = String(nanoseconds)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction)s"
    }

    /// `text` for an attribute value in double quotes.
    static func attribute(_ text: String) -> String {
        markupEscaped(text)
    }

    /// `text` for element content.
    static func text(_ text: String) -> String {
        markupEscaped(text, inAttribute: false)
    }

    /// `text` inside an XML comment, which may not hold `--`.
    static func comment(_ text: String) -> String {
        var result = text
        while result.contains("--") { result = result.replacingOccurrences(of: "--", with: "- -") }
        return result.hasSuffix("-") ? result + " " : result
    }

    /// `text` inside a JavaScript string in single quotes.
    static func javaScript(_ text: String) -> String {
        escaped(text, quote: "'")
    }

    /// `text` as a JSON string.
    static func json(_ text: String) -> String {
        "\"" + escaped(text, quote: "\"") + "\""
    }

    /// `text` for a JavaScript or JSON string literal between `quote`s: the backslash,
    /// the quote, control characters and the line separators JavaScript ends lines at
    /// (U+2028, U+2029) as escapes, which both languages read back as the same text.
    private static func escaped(_ text: String, quote: Unicode.Scalar) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", quote: result += "\\" + String(scalar)
            case _ where scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}":
                result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
