/// A dictionary that remembers insertion order: updating an existing key keeps its
/// position, removing a key closes the gap, and iteration follows first insertion.
///
/// Small on purpose (the dump holds one entry per live machine): lookups are O(1),
/// removal is O(n) because the order array is compacted.
struct OrderedDictionary<Key: Hashable, Value> {
    private(set) var keys: [Key] = []
    private var storage: [Key: Value] = [:]

    init() {}

    /// The values, in key order.
    var values: [Value] { keys.map { storage[$0]! } }

    /// The number of entries.
    var count: Int { keys.count }

    /// Whether there are no entries.
    var isEmpty: Bool { keys.isEmpty }

    /// Reads, inserts (at the end), updates (in place) or removes (with nil) an entry.
    subscript(key: Key) -> Value? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Removes the entry for `key` and returns its value (nil when absent).
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let value = storage.removeValue(forKey: key) else { return nil }
        keys.removeAll { $0 == key }
        return value
    }
}

extension OrderedDictionary: Sendable where Key: Sendable, Value: Sendable {}

extension OrderedDictionary: Equatable where Value: Equatable {
    /// Equal when they hold equal entries in the same order.
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.keys == rhs.keys && lhs.storage == rhs.storage
    }
}
