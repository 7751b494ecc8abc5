// Foundation, not FoundationEssentials: JSONSerialization says where malformed JSON goes
// wrong (JSONDecoder does not). The module links Foundation anyway, for FoundationXML.
import Foundation

extension Statechart where StateID == String, EventID == String {
    /// Reads TBStateMachine's JSON format into a definition you can refine before compiling.
    ///
    /// The document is validated against the rules of TBStateMachine's schema (and the
    /// builder's expectations) first; every problem is reported at once, each with its
    /// JSON path. Guards, actions, enter and exit blocks cannot be expressed in JSON:
    /// attach them afterwards with ``Definition/setGuard(forTransition:from:_:)``,
    /// ``Definition/setAction(forTransition:from:_:)``, ``Definition/onEnter(at:_:)``...
    /// Each region's initial state is its first state.
    ///
    /// Beyond TBStateMachine's format, a document may use: `{"type": "final", "name": ...}`
    /// states; `"history": [{"name", "type": "shallow"|"deep", "default": <path>}]` on `sub`
    /// and `parallel` states; `"deferred": [<event>...]` on any state; a `simple` transition
    /// with `"history": <name>` instead of `"target"`; and the transition types
    /// `{"type": "after", "seconds", "source", "target"}`, `{"type": "eventless", "source",
    /// "target"}` and `{"type": "done", "source", "target"}` (the done event of `source`).
    /// - Throws: ``StatechartError/invalidJSON(_:)`` for malformed JSON or schema violations.
    public static func definition(fromJSON data: Data) throws -> Definition {
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            // Foundation's words for what is wrong, where it has any; ours otherwise.
            let message = syntaxError(in: data) ?? malformed(data, at: error.offset, error.reason)
            throw StatechartError.invalidJSON(StatechartJSONError(issues: [.init(path: "$", message: message)]))
        }
        var reader = JSONReader<Payload>()
        return try reader.read(document)
    }

    /// Reads a JSON document given as text; see ``definition(fromJSON:)-(Data)``.
    public static func definition(fromJSON text: String) throws -> Definition {
        try definition(fromJSON: Data(text.utf8))
    }

    /// Reads the JSON file at `path`; see ``definition(fromJSON:)-(Data)``.
    /// - Throws: ``StatechartError/invalidJSON(_:)`` also when the file cannot be read.
    public static func definition(fromFile path: String) throws -> Definition {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StatechartError.invalidJSON(
                StatechartJSONError(issues: [.init(path: "$", message: "cannot read file '\(path)': \(error)")])
            )
        }
        return try definition(fromJSON: data)
    }

    /// Where malformed JSON goes wrong, as `malformed JSON at line L, column C: ...`, from
    /// JSONSerialization's byte offset (the end of the document when it gives none, as
    /// for a truncated one); nil when it finds no error. Run only after a decoding
    /// failure, so well-formed documents are parsed once.
    private static func syntaxError(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            // Foundation says where: "... around character 26." (a byte offset); a document
            // that ends too early ("Unexpected end of file") goes wrong at its end.
            let offset: Int
            if let marker = reason.range(of: "character "),
                let at = Int(reason[marker.upperBound...].prefix(while: \.isNumber))
            {
                offset = min(at, data.count)
            } else {
                offset = data.count
            }
            return malformed(data, at: offset, reason)
        }
    }

    /// "malformed JSON at line L, column C: reason" for byte `offset` of `data`.
    private static func malformed(_ data: Data, at offset: Int, _ reason: String) -> String {
        let before = data.prefix(min(max(offset, 0), data.count))
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        return "malformed JSON at line \(line), column \(before.endIndex - lineStart + 1): \(reason)"
    }
}

/// Validates a JSON document and builds the definition from it. Issues are collected in
/// document order; building only happens when there are none.
struct JSONReader<Payload: Sendable> {
    typealias Chart = Statechart<String, String, Payload>

    /// An `after` transition's `seconds` must be below this: its whole nanoseconds fit an `Int64`.
    static var maxAfterSeconds: Double { 9_223_372_036 }

    private var issues: [StatechartJSONError.Issue] = []
    /// Where each state name was first declared, to report duplicates with both places.
    private var declared: [String: String] = [:]
    private var pseudoNames: [String: String] = [:]
    /// History defaults, resolved once every state is known: (history, default path, JSON path).
    private var historyDefaults: [(history: String, target: String, path: String)] = []

    mutating func read(_ document: JSONValue) throws -> Chart.Definition {
        guard case .object(let root) = document else {
            throw StatechartError.invalidJSON(
                StatechartJSONError(issues: [
                    .init(path: "$", message: "expected an object, found \(document.typeName)")
                ])
            )
        }
        let name = requireName(root, at: "$", what: "the statechart") ?? "main"
        let states = readStates(root["states"], at: "$.states", required: true)
        var definition = Chart.Definition(name: name, root: Chart.RegionSpec(states: states, initial: nil))

        for entry in historyDefaults {
            guard let target = resolvePath(entry.target, at: entry.path, in: definition) else { continue }
            try? definition.modifyHistory(named: entry.history) { $0.defaultTarget = target }
        }
        if let transitions = root["transitions"] {
            if case .array(let items) = transitions {
                for (index, item) in items.enumerated() {
                    readTransition(item, at: "$.transitions[\(index)]", into: &definition)
                }
            } else {
                issue("$.transitions", "expected an array, found \(transitions.typeName)")
            }
        }
        guard issues.isEmpty else { throw StatechartError.invalidJSON(StatechartJSONError(issues: issues)) }
        return definition
    }

    private mutating func issue(_ path: String, _ message: String) {
        issues.append(.init(path: path, message: message))
    }

    // MARK: States

    private mutating func readStates(_ value: JSONValue?, at path: String, required: Bool) -> [Chart.NodeSpec] {
        guard let value else {
            if required { issue(path, "missing required array of states") }
            return []
        }
        guard case .array(let items) = value else {
            issue(path, "expected an array of states, found \(value.typeName)")
            return []
        }
        if items.isEmpty { issue(path, "a region needs at least one state (its first state is the initial state)") }
        return items.enumerated().compactMap { readState($1, at: "\(path)[\($0)]") }
    }

    private mutating func readState(_ value: JSONValue, at path: String) -> Chart.NodeSpec? {
        guard case .object(let object) = value else {
            issue(path, "expected a state object, found \(value.typeName)")
            return nil
        }
        let name = requireName(object, at: path, what: "a state")
        if let name {
            if StatechartPath.hasSeparator(name) {
                issue("\(path).name", "state name '\(name)' must not contain '/' or '@', which paths use as separators")
            }
            if let first = declared[name] {
                issue("\(path).name", "duplicate state name '\(name)' (first declared at \(first))")
            } else {
                declared[name] = "\(path).name"
            }
        }
        let type = requireString(object, key: "type", at: path)
        let content: Chart.ContentSpec
        switch type {
        case "state":
            content = .simple
        case "sub":
            content = .composite(
                Chart.RegionSpec(
                    states: readStates(object["states"], at: "\(path).states", required: true),
                    initial: nil
                )
            )
        case "parallel":
            content = .parallel(readRegions(object["regions"], at: "\(path).regions"))
        case "final":
            content = .simple
        case nil:
            return nil
        case let other?:
            issue(
                "\(path).type",
                "unknown state type '\(other)' (expected 'state', 'sub', 'parallel' or 'final')"
            )
            return nil
        }
        var histories: [Chart.HistorySpec] = []
        if let value = object["history"] {
            if case .simple = content {
                issue("\(path).history", "only 'sub' and 'parallel' states have a history")
            } else {
                histories = readHistories(value, at: "\(path).history")
            }
        }
        let deferred = readStrings(object["deferred"], at: "\(path).deferred")
        guard let name else { return nil }
        var node = Chart.NodeSpec(id: name, content: content, enter: nil, exit: nil, handlers: [])
        node.isFinal = type == "final"
        // (The setters of these rare parts run unspecialised here: only when there are some.)
        if !histories.isEmpty { node.histories = histories }
        if !deferred.isEmpty { node.deferred = deferred }
        return node
    }

    private mutating func readHistories(_ value: JSONValue, at path: String) -> [Chart.HistorySpec] {
        guard case .array(let items) = value else {
            issue(path, "expected an array of histories, found \(value.typeName)")
            return []
        }
        return items.enumerated().compactMap { index, item in
            let itemPath = "\(path)[\(index)]"
            guard case .object(let object) = item else {
                issue(itemPath, "expected a history object, found \(item.typeName)")
                return nil
            }
            let name = requireName(object, at: itemPath, what: "a history")
            if let name {
                if let first = pseudoNames[name] {
                    issue("\(itemPath).name", "duplicate pseudo state name '\(name)' (first declared at \(first))")
                } else {
                    pseudoNames[name] = "\(itemPath).name"
                }
            }
            var kind = StatechartHistoryKind.shallow
            if let text = requireString(object, key: "type", at: itemPath) {
                if let parsed = StatechartHistoryKind(rawValue: text) {
                    kind = parsed
                } else {
                    issue("\(itemPath).type", "unknown history type '\(text)' (expected 'shallow' or 'deep')")
                }
            }
            if let value = object["default"] {
                if case .string(let target) = value {
                    if let name { historyDefaults.append((name, target, "\(itemPath).default")) }
                } else {
                    issue("\(itemPath).default", "expected a state path, found \(value.typeName)")
                }
            }
            guard let name else { return nil }
            return Chart.HistorySpec(name: name, kind: kind, defaultTarget: nil)
        }
    }

    private mutating func readStrings(_ value: JSONValue?, at path: String) -> [String] {
        guard let value else { return [] }
        guard case .array(let items) = value else {
            issue(path, "expected an array of event names, found \(value.typeName)")
            return []
        }
        return items.enumerated().compactMap { index, item in
            guard case .string(let text) = item else {
                issue("\(path)[\(index)]", "expected an event name, found \(item.typeName)")
                return nil
            }
            if text.isEmpty { issue("\(path)[\(index)]", "an event name must not be empty") }
            return text.isEmpty ? nil : text
        }
    }

    private mutating func readRegions(_ value: JSONValue?, at path: String) -> [Chart.RegionSpec] {
        guard let value else {
            issue(path, "missing required array of regions")
            return []
        }
        guard case .array(let items) = value else {
            issue(path, "expected an array of regions, found \(value.typeName)")
            return []
        }
        if items.isEmpty { issue(path, "a parallel state needs at least one region") }
        return items.enumerated().map {
            Chart.RegionSpec(states: readStates($1, at: "\(path)[\($0)]", required: true), initial: nil)
        }
    }

    // MARK: Transitions

    private mutating func readTransition(_ value: JSONValue, at path: String, into definition: inout Chart.Definition) {
        guard case .object(let object) = value else {
            issue(path, "expected a transition object, found \(value.typeName)")
            return
        }
        switch requireString(object, key: "type", at: path) {
        case "simple":
            readSimple(object, at: path, into: &definition)
        case "compound":
            readCompound(object, at: path, into: &definition)
        case "after", "eventless", "done":
            readTriggered(object, at: path, into: &definition)
        case nil:
            break
        case let other?:
            issue(
                "\(path).type",
                "unknown transition type '\(other)' (expected 'simple', 'compound', 'after', 'eventless' or 'done')"
            )
        }
    }

    /// A transition fired by time, by nothing, or by its source's done event.
    private mutating func readTriggered(
        _ object: [String: JSONValue],
        at path: String,
        into definition: inout Chart.Definition
    ) {
        let source = resolve(object, key: "source", at: path, in: definition)
        let target = readTarget(object, at: path, in: definition)
        let trigger: Chart.Trigger?
        switch object["type"] {
        case .string("after"):
            // Whole nanoseconds must fit an Int64: at most about 292 years.
            if case .number(let seconds) = object["seconds"], seconds >= 0, seconds.isFinite,
                seconds < Self.maxAfterSeconds
            {
                trigger = .after(.nanoseconds(Int64((seconds * 1e9).rounded())))
            } else {
                issue(
                    object["seconds"] == nil ? path : "\(path).seconds",
                    "an 'after' transition needs 'seconds', a number of seconds from 0 to less than \(Int(Self.maxAfterSeconds))"
                )
                trigger = nil
            }
        case .string("done"):
            if let source, (try? definition.isSimple(at: source.text)) == true {
                issue("\(path).source", "'\(source.text)' is a simple state, so it raises no done event")
            }
            trigger = .done(nil)
        default:
            trigger = .eventless
        }
        guard issues.isEmpty, let source, let target, let trigger else { return }
        try? definition.addTransition(from: source.text, trigger: trigger, to: target)
    }

    private func targetText(_ object: [String: JSONValue]) -> String? {
        if case .string(let text) = object["target"] { text } else { nil }
    }

    /// `target` (a state path) or `history` (a history name) of a transition.
    private mutating func readTarget(
        _ object: [String: JSONValue],
        at path: String,
        in definition: Chart.Definition
    ) -> Chart.Target? {
        if object["target"] == nil, let value = object["history"] {
            guard case .string(let name) = value, !name.isEmpty else {
                issue("\(path).history", "expected the name of a history, found \(value.typeName)")
                return nil
            }
            return .history(name)
        }
        return resolve(object, key: "target", at: path, in: definition).map { .state($0.id) }
    }

    private mutating func readSimple(
        _ object: [String: JSONValue],
        at path: String,
        into definition: inout Chart.Definition
    ) {
        let event = requireName(object, at: path, what: "a transition")
        let kindText = requireString(object, key: "kind", at: path)
        var kind: StatechartTransitionKind?
        if let kindText {
            kind = StatechartTransitionKind(rawValue: kindText)
            if kind == nil {
                issue(
                    "\(path).kind",
                    "unknown transition kind '\(kindText)' (expected 'external', 'local' or 'internal')"
                )
            }
        }
        let source = locate(object, key: "source", at: path, in: definition)
        let target = readTarget(object, at: path, in: definition)
        guard let event, let kind, let source, let target else { return }
        if kind == .internal, case .state(let id) = target, source.id != id {
            issue(
                "\(path).target",
                "an internal transition must target its source '\(source.text)', not '\(targetText(object) ?? id)'"
            )
            return
        }
        definition.addTransition(at: source.location, on: event, to: target, kind: kind)
    }

    private mutating func readCompound(
        _ object: [String: JSONValue],
        at path: String,
        into definition: inout Chart.Definition
    ) {
        _ = requireName(object, at: path, what: "a compound transition")
        guard let pseudo = requireObject(object, key: "pseudo_state", at: path) else { return }
        let pseudoPath = "\(path).pseudo_state"
        let pseudoName = requireName(pseudo, at: pseudoPath, what: "a pseudo state")
        if let pseudoName {
            if let first = pseudoNames[pseudoName] {
                issue("\(pseudoPath).name", "duplicate pseudo state name '\(pseudoName)' (first declared at \(first))")
            } else {
                pseudoNames[pseudoName] = "\(pseudoPath).name"
            }
        }
        let pseudoType = requireString(pseudo, key: "type", at: pseudoPath)
        let region = resolve(pseudo, key: "region", at: pseudoPath, in: definition)
        if let region, (try? definition.isParallel(at: region.text)) != true {
            issue("\(pseudoPath).region", "'\(region.text)' is not a parallel state")
        }
        guard let vertices = requireObject(object, key: "vertices", at: path) else { return }
        let incoming = readVertexList(vertices, key: "incoming", at: "\(path).vertices") { reader, object, at in
            (
                source: reader.resolve(object, key: "source", at: at, in: definition),
                event: reader.requireName(object, at: at, what: "an incoming vertex")
            )
        }
        let outgoing = readVertexList(vertices, key: "outgoing", at: "\(path).vertices") { reader, object, at in
            reader.resolve(object, key: "target", at: at, in: definition)
        }

        switch pseudoType {
        case "fork":
            if incoming.count > 1 {
                issue("\(path).vertices.incoming", "a fork takes exactly one incoming vertex, found \(incoming.count)")
            }
            var regionsUsed: [Int: String] = [:]
            for (index, target) in outgoing.enumerated() {
                guard let target = target.value ?? nil, let region else { continue }
                guard let slot = regionIndex(of: target.text, inside: region.text) else {
                    issue(
                        "\(path).vertices.outgoing[\(index)].target",
                        "'\(target.text)' is not inside the fork's region '\(region.text)'"
                    )
                    continue
                }
                if let other = regionsUsed[slot] {
                    issue(
                        "\(path).vertices.outgoing[\(index)].target",
                        "'\(target.text)' lies in the same region as '\(other)'"
                    )
                }
                regionsUsed[slot] = target.text
            }
            let targets = outgoing.compactMap { $0.value ?? nil }
            guard issues.isEmpty, let pseudoName, let region, let first = incoming.first?.value,
                let source = first.source, let event = first.event, targets.count == outgoing.count
            else { return }
            definition.add(Chart.Fork(pseudoName, region: region.id, targets: targets.map(\.id)))
            try? definition.addTransition(from: source.text, on: event, to: .fork(pseudoName))
        case "join":
            if outgoing.count > 1 {
                issue("\(path).vertices.outgoing", "a join takes exactly one outgoing vertex, found \(outgoing.count)")
            }
            for (index, vertex) in incoming.enumerated() {
                guard let source = vertex.value?.source, let region else { continue }
                if regionIndex(of: source.text, inside: region.text) == nil {
                    issue(
                        "\(path).vertices.incoming[\(index)].source",
                        "'\(source.text)' is not inside the join's region '\(region.text)'"
                    )
                }
            }
            let sources = incoming.compactMap { entry -> ((text: String, id: String), String)? in
                guard let vertex = entry.value, let source = vertex.source, let event = vertex.event else { return nil }
                return (source, event)
            }
            guard issues.isEmpty, let pseudoName, let region, let target = outgoing.first?.value ?? nil,
                sources.count == incoming.count
            else { return }
            definition.add(Chart.Join(pseudoName, region: region.id, sources: sources.map(\.0.id), target: target.id))
            for (source, event) in sources {
                try? definition.addTransition(from: source.text, on: event, to: .join(pseudoName))
            }
        case nil:
            break
        case let other?:
            issue(
                "\(pseudoPath).type",
                "unknown pseudo state type '\(other)' (expected 'fork' or 'join'; junctions cannot be declared in JSON)"
            )
        }
    }

    /// Reads `key` as a non-empty array of objects, mapping each with `body`. Entries that
    /// are not objects are reported and come back as nil values.
    private mutating func readVertexList<T>(
        _ object: [String: JSONValue],
        key: String,
        at path: String,
        _ body: (inout Self, [String: JSONValue], String) -> T
    ) -> [(path: String, value: T?)] {
        guard let value = object[key] else {
            issue("\(path).\(key)", "missing required array")
            return []
        }
        guard case .array(let items) = value else {
            issue("\(path).\(key)", "expected an array, found \(value.typeName)")
            return []
        }
        if items.isEmpty { issue("\(path).\(key)", "needs at least one vertex") }
        return items.enumerated().map { index, item in
            let itemPath = "\(path).\(key)[\(index)]"
            guard case .object(let entry) = item else {
                issue(itemPath, "expected an object, found \(item.typeName)")
                return (itemPath, nil)
            }
            return (itemPath, body(&self, entry, itemPath))
        }
    }

    /// The region index of `path` inside the parallel state at `region`, when `path`
    /// lies (at any depth) in one of its regions. Paths are strict, hence canonical, so a
    /// prefix test is exact.
    private func regionIndex(of path: String, inside region: String) -> Int? {
        guard path.hasPrefix(region + "@") else { return nil }
        let rest = path.dropFirst(region.count + 1)
        return Int(rest.prefix { $0.isNumber })
    }

    // MARK: Fields

    private mutating func requireString(_ object: [String: JSONValue], key: String, at path: String) -> String? {
        guard let value = object[key] else {
            issue(path, "missing required string '\(key)'")
            return nil
        }
        guard case .string(let text) = value else {
            issue("\(path).\(key)", "expected a string, found \(value.typeName)")
            return nil
        }
        return text
    }

    private mutating func requireName(_ object: [String: JSONValue], at path: String, what: String) -> String? {
        guard let name = requireString(object, key: "name", at: path) else { return nil }
        guard !name.isEmpty else {
            issue("\(path).name", "\(what) needs a non-empty name")
            return nil
        }
        return name
    }

    private mutating func requireObject(
        _ object: [String: JSONValue],
        key: String,
        at path: String
    ) -> [String: JSONValue]? {
        guard let value = object[key] else {
            issue(path, "missing required object '\(key)'")
            return nil
        }
        guard case .object(let inner) = value else {
            issue("\(path).\(key)", "expected an object, found \(value.typeName)")
            return nil
        }
        return inner
    }

    private mutating func resolve(
        _ object: [String: JSONValue],
        key: String,
        at path: String,
        in definition: Chart.Definition
    ) -> (text: String, id: String)? {
        locate(object, key: key, at: path, in: definition).map { ($0.text, $0.id) }
    }

    /// ``resolve(_:key:at:in:)`` with where the state is, for adding a handler to it.
    private mutating func locate(
        _ object: [String: JSONValue],
        key: String,
        at path: String,
        in definition: Chart.Definition
    ) -> (text: String, id: String, location: [Chart.Definition.Step])? {
        guard let text = requireString(object, key: key, at: path) else { return nil }
        return locatePath(text, at: "\(path).\(key)", in: definition).map { (text, $0.id, $0.location) }
    }

    private mutating func resolvePath(_ text: String, at path: String, in definition: Chart.Definition) -> String? {
        locatePath(text, at: path, in: definition)?.id
    }

    /// Where the state at `text` is and its identifier; nil, with an issue at `path`
    /// (built only then), when no state is there.
    private mutating func locatePath(
        _ text: String,
        at path: @autoclosure () -> String,
        in definition: Chart.Definition
    ) -> (location: [Chart.Definition.Step], id: String)? {
        do {
            return try definition.locateState(text)
        } catch let error as StatechartError {
            issue(path(), error.description)
            return nil
        } catch {
            issue(path(), String(describing: error))
            return nil
        }
    }
}
