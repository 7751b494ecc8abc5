/// The routes of one (state type, event type) pair, in declaration order.
@usableFromInline
struct RouteList<SuperState, SuperEvent>: Sendable {
    @usableFromInline var routes: [Route<SuperState, SuperEvent>] = []
    /// The routes' resolvers while every route is synchronous (the pair's events then
    /// resolve without suspending); empty as soon as one is not.
    @usableFromInline var synchronous: [Route<SuperState, SuperEvent>.SynchronousResolver] = []

    init() {}

    mutating func append(_ route: Route<SuperState, SuperEvent>) {
        if case .synchronous(let resolve) = route.resolve, synchronous.count == routes.count {
            synchronous.append(resolve)
        } else {
            synchronous = []
        }
        routes.append(route)
    }
}

/// The Mealy table: the routes of each (state type, event type) pair.
///
/// An open-addressing hash table keyed by the two type identities. Its hash mixes the two
/// addresses with two multiplications instead of hashing them with `Hasher` (a seeded
/// SipHash), because the machine looks a pair up for every event it processes.
@usableFromInline
struct RouteTable<SuperState, SuperEvent>: Sendable {
    /// One bucket: a key and the index of its list in `lists`, or -1 when empty.
    @usableFromInline
    struct Bucket: Sendable {
        @usableFromInline var key: TypesIdentifier
        @usableFromInline var list: Int
    }

    /// A power of two, at most half full.
    @usableFromInline var buckets: [Bucket] = []
    /// The lists, in the order their pairs were first registered.
    @usableFromInline var lists: [RouteList<SuperState, SuperEvent>] = []
    /// `64 - log2(buckets.count)`: the hash's high bits choose the bucket.
    @usableFromInline var shift = 64

    init() {}

    /// The number of pairs with at least one route.
    var count: Int { lists.count }

    @inlinable
    static func hash(_ key: TypesIdentifier) -> UInt {
        (UInt(bitPattern: key.lhs) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt(bitPattern: key.rhs) &* 0xC2B2_AE3D_27D4_EB4F)
    }

    /// The bucket holding `key`, or the empty bucket where it would go.
    @inlinable
    func bucket(of key: TypesIdentifier) -> Int {
        let mask = buckets.count - 1
        var index = Int(truncatingIfNeeded: Self.hash(key) >> UInt(shift)) & mask
        while buckets[index].list >= 0 && buckets[index].key != key {
            index = (index + 1) & mask
        }
        return index
    }

    /// The routes of `key`'s pair, if it has any.
    @inlinable
    subscript(key: TypesIdentifier) -> RouteList<SuperState, SuperEvent>? {
        guard !buckets.isEmpty else { return nil }
        let list = buckets[bucket(of: key)].list
        return list >= 0 ? lists[list] : nil
    }

    /// Adds `route` after the other routes of `key`'s pair.
    mutating func append(_ route: Route<SuperState, SuperEvent>, for key: TypesIdentifier) {
        if (lists.count + 1) * 2 > buckets.count { grow() }
        let index = bucket(of: key)
        if buckets[index].list < 0 {
            buckets[index] = Bucket(key: key, list: lists.count)
            lists.append(RouteList())
        }
        lists[buckets[index].list].append(route)
    }

    /// Doubles the buckets (at least 8) and places every pair again.
    mutating func grow() {
        let capacity = max(8, buckets.count * 2)
        shift = 64 - capacity.trailingZeroBitCount
        let placed = buckets.filter { $0.list >= 0 }
        let empty = TypesIdentifier(lhsType: Never.self, rhsType: Never.self)
        buckets = Array(repeating: Bucket(key: empty, list: -1), count: capacity)
        for bucket in placed { buckets[self.bucket(of: bucket.key)] = bucket }
    }
}
