/// The event table of a chart whose events are `String`s, probed by the bytes of a name:
/// the lookup that `handle(_:)` and `send(_:)` by name, and every SCXML event, make.
///
/// `Dictionary<String, Int32>` hashes a name with SipHash through `Hasher`, which costs
/// more than the step of a small chart. This table hashes the name's UTF-8 bytes with
/// FNV-1a and compares the one or two names it probes. It is built once, with the chart's
/// compiled model: 4 bytes a slot, at least two slots an event, and the model's names.
///
/// `String` equality is canonical equivalence, not bytes: a name spelled with other code
/// points than the table's key (a decomposed "é") hashes elsewhere and is not found here.
/// So a miss is not an answer: ``index(of:in:)`` then looks the name up in the dictionary,
/// which finds such a name (and which a name no handler uses reaches anyway).
@usableFromInline
package final class EventNameIndex: @unchecked Sendable {
    // @unchecked Sendable: the slots are written only in `init` and freed in `deinit`; in
    // between, every thread only reads them.

    /// The chart's event names by index (its model's array, shared, not copied).
    @usableFromInline let names: [String]
    /// Per slot, the index of the name it holds, or -1 when the slot is empty.
    @usableFromInline let slots: UnsafeMutablePointer<Int32>
    /// The slot count minus one; slots are a power of two, at most half of them used.
    @usableFromInline let mask: Int

    /// The table of `names`, the chart's event names by index.
    init(_ names: [String]) {
        var capacity = 8
        while capacity < names.count * 2 { capacity *= 2 }
        self.names = names
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: -1, count: capacity)
        mask = capacity - 1
        for (index, name) in names.enumerated() {
            // A native string always has its bytes at hand; a name that had not would only
            // be looked up in the dictionary.
            guard var slot = Self.slot(of: name, mask: mask) else { continue }
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    deinit {
        slots.deallocate()
    }

    /// The index of `name` when the table holds it with the same bytes; nil otherwise
    /// (see the type's note on what a miss means).
    @inlinable @inline(__always)
    func index(of name: String) -> Int32? {
        guard var slot = Self.slot(of: name, mask: mask) else { return nil }
        while true {
            let index = slots[slot]
            guard index >= 0 else { return nil }
            if names[Int(index)] == name { return index }
            slot = (slot &+ 1) & mask
        }
    }

    /// The first slot to probe for `name`: FNV-1a over its UTF-8 bytes; nil when the
    /// string does not hold them contiguously.
    @inlinable @inline(__always)
    static func slot(of name: String, mask: Int) -> Int? {
        name.utf8.withContiguousStorageIfAvailable { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            // The high bits mix every byte; the low ones of short names barely differ.
            return Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        }
    }

    /// The index of `name` in a chart's event table `events`, nil when no handler uses it:
    /// for `String` names by their bytes first, in `names`, then by the dictionary.
    @inlinable @inline(__always)
    static func index<EventID: Hashable>(
        of name: EventID,
        in names: EventNameIndex?,
        _ events: [EventID: Int32]
    ) -> Int32? {
        if EventID.self == String.self, let names, let index = names.index(of: unsafeBitCast(name, to: String.self)) {
            return index
        }
        return events[name]
    }
}
