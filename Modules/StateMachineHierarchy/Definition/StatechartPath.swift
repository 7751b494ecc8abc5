/// A parsed state path such as `b/b2/b21` or `c/c2@1/c222`.
///
/// `/` separates state names, one per level of the hierarchy. A parallel state that is
/// followed by another component must carry `@<region index>` (0-based) to pick the
/// region the next name is looked up in. Parsing is strict: empty components, a
/// non-numeric or negative index and an `@` on the last component are errors.
public struct StatechartPath: Sendable, Hashable, CustomStringConvertible {
    /// One level of a path: a state name and, for parallel states, the region to descend into.
    public struct Component: Sendable, Hashable {
        /// The state's name at this level.
        public var name: String
        /// The region of a parallel state that the next component lives in.
        public var region: Int?
    }

    /// The components from the root down.
    public let components: [Component]
    /// The text the path was parsed from.
    public let text: String

    /// Whether `name` holds a character that separates the parts of a path (`/` or `@`), so
    /// that a state of that name could not be named by a path. Scans the UTF-8 bytes (both
    /// are ASCII, which no other character's encoding contains): `String.contains(_:)` with
    /// a string argument goes through Foundation's search, which cost a 100,000-state load
    /// 8% of its time.
    static func hasSeparator(_ name: String) -> Bool {
        name.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "@") }
    }

    /// Parses `text`, throwing ``StatechartError/invalidPath(path:component:reason:)``
    /// that names the offending component.
    public init(_ text: String) throws {
        self.text = text
        guard !text.isEmpty else {
            throw StatechartError.invalidPath(path: text, component: "", reason: "the path is empty")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        var components: [Component] = []
        components.reserveCapacity(parts.count)
        for (index, part) in parts.enumerated() {
            let piece = String(part)
            let halves = piece.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(halves[0])
            guard !name.isEmpty else {
                throw StatechartError.invalidPath(path: text, component: piece, reason: "a component has no state name")
            }
            var region: Int?
            if halves.count == 2 {
                guard let value = Int(halves[1]), value >= 0 else {
                    throw StatechartError.invalidPath(
                        path: text,
                        component: piece,
                        reason: "the region index '\(halves[1])' is not a non-negative integer"
                    )
                }
                guard index < parts.count - 1 else {
                    throw StatechartError.invalidPath(
                        path: text,
                        component: piece,
                        reason: "a region index must be followed by a state in that region"
                    )
                }
                region = value
            }
            components.append(Component(name: name, region: region))
        }
        self.components = components
    }

    /// The path text.
    public var description: String { text }
}
