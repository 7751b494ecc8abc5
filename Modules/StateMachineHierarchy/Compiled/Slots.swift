/// A fixed number of plain values the step reads all the time: the topology's hottest
/// tables (in its ``TopologyTables`` block) and the drainer's values (one per region, state
/// or timer; the configuration, say, in its engine's ``EngineSlots`` block). A buffer
/// rather than an array, because an array in a class's property costs a retain, a release
/// and a uniqueness check per write, and a bounds check per read. The block it lives in
/// frees it; the drainer's are drainer-confined like the rest of its state.
struct Slots<Element> {
    let buffer: UnsafeMutableBufferPointer<Element>

    subscript(position: Int) -> Element {
        get { buffer[position] }
        nonmutating set { buffer[position] = newValue }
    }

    var indices: Range<Int> { buffer.indices }

    /// The reserved part of `block`, holding a copy of `values`.
    init(_ place: SlotLayout.Place<Element>, in block: UnsafeMutableRawPointer, copying values: [Element]) {
        precondition(values.count == place.count, "a slot buffer was reserved for another count")
        buffer = place.buffer(in: block)
        _ = buffer.initialize(from: values)
    }

    /// The reserved part of `block`, every value `value`.
    init(_ place: SlotLayout.Place<Element>, in block: UnsafeMutableRawPointer, repeating value: Element) {
        buffer = place.buffer(in: block)
        buffer.initialize(repeating: value)
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
