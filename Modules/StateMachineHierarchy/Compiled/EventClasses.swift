/// The event table under ``StatechartOptions/EventMatching/prefix``: every event of the
/// chart is a class, and a handler is listed under each class whose name its descriptors
/// match. A name that is no event of the chart selects the class of its longest prefix
/// (cut at a `.`) that is one, else the class of `*`. Under exact matching it is inert.
package struct EventClasses: Sendable {
    let enabled: Bool
    /// Normalised names (`a.b.*` and `a.b.` as `a.b`) to event indexes.
    private let indexByName: [String: Int32]
    /// Every event's normalised name, and the same as UTF-8 with its index, sorted by those
    /// bytes: the names a descriptor `d` matches besides `d` itself start with `d.`, a range
    /// found by halving (so listing a chart's handlers takes time linear in what they match,
    /// not handlers x events). Only compiling lists handlers: ``forgettingNames()`` drops
    /// both once it is done.
    private var names: [String]
    private var sorted: [(name: [UInt8], index: Int32)]

    init(names: [String], enabled: Bool) {
        self.enabled = enabled
        self.names = names.map(Self.normalized)
        var index: [String: Int32] = [:]
        if enabled {
            for (position, name) in self.names.enumerated() where index[name] == nil { index[name] = Int32(position) }
        }
        indexByName = index
        sorted =
            enabled
            ? self.names.enumerated().map { (Array($1.utf8), Int32($0)) }.sorted {
                $0.name.lexicographicallyPrecedes($1.name)
            }
            : []
    }

    /// The classes a handler with the descriptors `own` (event indexes) is listed under, in
    /// ascending order.
    func classes(matchedByAnyOf own: [Int32]) -> [Int32] {
        guard enabled else {
            var unique: [Int32] = []
            for event in own where !unique.contains(event) { unique.append(event) }
            return unique
        }
        var matched = Set<Int32>()
        for descriptor in own {
            let name = names[Int(descriptor)]
            if name == "*" { return names.indices.map(Int32.init) }
            let bytes = Array(name.utf8)
            var slot = firstSorted(notBefore: bytes)
            while slot < sorted.count, sorted[slot].name == bytes {
                matched.insert(sorted[slot].index)
                slot += 1
            }
            let prefix = bytes + [UInt8(ascii: ".")]
            slot = firstSorted(notBefore: prefix)
            while slot < sorted.count, sorted[slot].name.starts(with: prefix) {
                if Self.matches(descriptor: name, event: names[Int(sorted[slot].index)]) {
                    matched.insert(sorted[slot].index)
                }
                slot += 1
            }
        }
        return matched.sorted()
    }

    /// The first position in `sorted` whose name does not precede `bytes`.
    private func firstSorted(notBefore bytes: [UInt8]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].name.lexicographicallyPrecedes(bytes) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The same classes, without what only ``classes(matchedByAnyOf:)`` reads (which then
    /// lists nothing): what a compiled chart keeps, to find ``eventClass(of:)`` at run time.
    func forgettingNames() -> EventClasses {
        var kept = self
        kept.names = []
        kept.sorted = []
        return kept
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

    /// Whether the (normalised) descriptor matches the event name: equal, `*`, or a prefix
    /// of it ending at a `.` (SCXML 1.0, section 3.12.1).
    package static func matches(descriptor: String, event: String) -> Bool {
        if descriptor == "*" || descriptor == event { return true }
        return event.count > descriptor.count && event.hasPrefix(descriptor)
            && event[event.index(event.startIndex, offsetBy: descriptor.count)] == "."
    }

    /// `a.b.*` and `a.b.` mean `a.b`; `*` stays.
    package static func normalized(_ descriptor: String) -> String {
        var result = Substring(descriptor)
        if result.hasSuffix(".*") { result = result.dropLast(2) }
        while result.hasSuffix(".") { result = result.dropLast() }
        return result.isEmpty ? "*" : String(result)
    }
}
