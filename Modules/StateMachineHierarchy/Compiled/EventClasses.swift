/// The event table under ``StatechartOptions/EventMatching/prefix``: every event of the
/// chart is a class, and a handler is listed under each class whose name its descriptors
/// match. A name that is no event of the chart selects the class of its longest prefix
/// (cut at a `.`) that is one, else the class of `*`. Under exact matching it is inert.
struct EventClasses: Sendable {
    let enabled: Bool
    /// Normalised names (`a.b.*` and `a.b.` as `a.b`) to event indexes.
    private let indexByName: [String: Int32]
    private let names: [String]

    init(names: [String], enabled: Bool) {
        self.enabled = enabled
        self.names = names.map(Self.normalized)
        var index: [String: Int32] = [:]
        if enabled {
            for (position, name) in self.names.enumerated() where index[name] == nil { index[name] = Int32(position) }
        }
        indexByName = index
    }

    /// The classes a handler with the descriptors `own` (event indexes) is listed under.
    func classes(matchedByAnyOf own: [Int32]) -> [Int32] {
        guard enabled else {
            var unique: [Int32] = []
            for event in own where !unique.contains(event) { unique.append(event) }
            return unique
        }
        return names.indices.filter { candidate in
            own.contains { Self.matches(descriptor: names[Int($0)], event: names[candidate]) }
        }.map(Int32.init)
    }

    /// The class that handles the event named `name`, nil when no descriptor matches it.
    func eventClass(of name: String) -> Int32? {
        guard enabled else { return nil }
        var candidate = Substring(name)
        while true {
            if let index = indexByName[String(candidate)] { return index }
            guard let dot = candidate.lastIndex(of: ".") else { break }
            candidate = candidate[..<dot]
        }
        return indexByName["*"]
    }

    static func matches(descriptor: String, event: String) -> Bool {
        if descriptor == "*" || descriptor == event { return true }
        return event.count > descriptor.count && event.hasPrefix(descriptor)
            && event[event.index(event.startIndex, offsetBy: descriptor.count)] == "."
    }

    /// `a.b.*` and `a.b.` mean `a.b`; `*` stays.
    static func normalized(_ descriptor: String) -> String {
        var result = Substring(descriptor)
        if result.hasSuffix(".*") { result = result.dropLast(2) }
        while result.hasSuffix(".") { result = result.dropLast() }
        return result.isEmpty ? "*" : String(result)
    }
}
