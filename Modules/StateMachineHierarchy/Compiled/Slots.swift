/// A fixed number of plain values the step reads all the time: the topology's hottest
/// tables (in its ``TopologyTables`` block) and the drainer's values (one per region, state
/// or timer; the configuration, say, in its engine's ``EngineSlots`` block). A buffer
/// rather than an array, because an array in a class's property costs a retain, a release
/// and a uniqueness check per write, and a bounds check per read. The block it lives in
/// frees it; the drainer's are drainer-confined like the rest of its state.
///
/// Only the start is kept (a `Slots` is one word): an engine holds a copy of its topology's
/// ``TopologyTables`` and its own ``EngineSlots``, some forty buffers, so a count per buffer
/// would cost every chart hundreds of bytes. Those that are walked whole say how long they
/// are where they are declared.
struct Slots<Element> {
    let base: UnsafeMutablePointer<Element>

    subscript(position: Int) -> Element {
        get { base[position] }
        nonmutating set { base[position] = newValue }
    }

    /// The first `count` values, as a buffer.
    func buffer(count: Int) -> UnsafeMutableBufferPointer<Element> {
        UnsafeMutableBufferPointer(start: base, count: count)
    }

    /// The reserved part of `block`, holding a copy of `values`.
    init(_ place: SlotLayout.Place<Element>, in block: UnsafeMutableRawPointer, copying values: [Element]) {
        precondition(values.count == place.count, "a slot buffer was reserved for another count")
        let buffer = place.buffer(in: block)
        _ = buffer.initialize(from: values)
        base = place.start(in: block)
    }

    /// The reserved part of `block`, every value `value`.
    init(_ place: SlotLayout.Place<Element>, in block: UnsafeMutableRawPointer, repeating value: Element) {
        place.buffer(in: block).initialize(repeating: value)
        base = place.start(in: block)
    }
}

/// Where each of an engine's ``Slots`` lies in one allocation: reserve every buffer, then
/// allocate the block and place each buffer at its reserved offset.
///
/// Only plain values (no references, no existentials) may be reserved, so the block is
/// freed with one deallocation and nothing to deinitialize: a buffer added to
/// ``EngineSlots`` or ``TopologyTables`` is reserved and placed in its `init` and freed
/// with the rest, so it cannot be forgotten in `release()`.
struct SlotLayout {
    /// A reserved buffer: its offset in the block and its number of elements.
    struct Place<Element> {
        let offset: Int
        let count: Int

        /// The start of the reserved buffer in `block` (bound to `Element`).
        func start(in block: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Element> {
            (block + offset).bindMemory(to: Element.self, capacity: count)
        }

        /// The reserved buffer in `block` (bound to `Element`).
        func buffer(in block: UnsafeMutableRawPointer) -> UnsafeMutableBufferPointer<Element> {
            UnsafeMutableBufferPointer(
                start: (block + offset).bindMemory(to: Element.self, capacity: count),
                count: count
            )
        }
    }

    private(set) var byteCount = 0
    /// The strictest alignment reserved so far.
    private(set) var alignment = 1

    /// Reserves room for `count` values of `type`, aligned for it.
    mutating func reserve<Element>(_ type: Element.Type, count: Int) -> Place<Element> {
        precondition(_isPOD(Element.self), "slot buffers hold plain values only (they are never deinitialized)")
        let align = MemoryLayout<Element>.alignment
        let offset = (byteCount + align - 1) / align * align
        byteCount = offset + MemoryLayout<Element>.stride * count
        alignment = max(alignment, align)
        return Place(offset: offset, count: count)
    }

    /// The block for everything reserved (at least one byte).
    func allocate() -> UnsafeMutableRawPointer {
        .allocate(byteCount: max(byteCount, 1), alignment: alignment)
    }
}
