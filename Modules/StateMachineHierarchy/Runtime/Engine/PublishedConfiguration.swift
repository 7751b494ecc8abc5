import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The configuration as of the last completed step (per region, its active state, -1 when
/// inactive), and fixed-size facts published with it (`words`: the parts of a snapshot
/// that are plain numbers), for readers on any thread while the drainer goes on.
///
/// A sequence lock: the drainer, the only writer, makes `version` odd, stores the regions,
/// and makes it even again; a reader copies the regions between two reads of an equal,
/// even `version`, and retries otherwise. So publishing a step costs the drainer a few
/// plain stores, no lock (it runs after every event), and a reader never sees half a step.
/// Every slot is an atomic, so the races a sequence lock relies on are not data races.
final class PublishedConfiguration: Sendable {
    private let version = Atomic<UInt64>(0)
    /// One slot per region. `nonisolated(unsafe)`: the pointer itself never changes after
    /// `init`; what it points to is atomics, read and written only through their operations.
    nonisolated(unsafe) private let slots: UnsafeMutablePointer<Atomic<Int32>>
    let count: Int
    /// The published words, as `slots` (same invariant).
    nonisolated(unsafe) private let words: UnsafeMutablePointer<Atomic<Int64>>
    private let wordCount: Int

    init(regions: Int, words: Int = 0) {
        count = regions
        slots = .allocate(capacity: max(regions, 1))
        for index in 0..<max(regions, 1) { (slots + index).initialize(to: Atomic(-1)) }
        wordCount = words
        self.words = .allocate(capacity: max(words, 1))
        for index in 0..<max(words, 1) { (self.words + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: max(count, 1))
        slots.deallocate()
        words.deinitialize(count: max(wordCount, 1))
        words.deallocate()
    }

    /// Sets word `index`; only inside `publish`'s `alongside`, so readers see it with the
    /// configuration of the same step.
    func store(word index: Int, _ value: Int64) {
        precondition(index < wordCount, "published word \(index) of \(wordCount)")
        words[index].store(value, ordering: .relaxed)
    }

    /// Word `index`; only inside `read`'s `alongside`, which retries if a step was
    /// published meanwhile.
    func load(word index: Int) -> Int64 {
        precondition(index < wordCount, "published word \(index) of \(wordCount)")
        return words[index].load(ordering: .relaxed)
    }

    /// Publishes `configuration` (one entry per region); `alongside` runs inside the same
    /// write, so a reader that also takes what it publishes (under its own lock) sees both
    /// from the same step. Called only by the drainer.
    func publish(_ configuration: UnsafeMutableBufferPointer<Int32>, alongside: () -> Void = {}) {
        let start = version.load(ordering: .relaxed)
        version.store(start &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        for index in 0..<count { slots[index].store(configuration[index], ordering: .relaxed) }
        alongside()
        version.store(start &+ 2, ordering: .releasing)
    }

    /// The active state of region `region` as of some completed step.
    func state(ofRegion region: Int) -> Int32 {
        slots[region].load(ordering: .acquiring)
    }

    /// The whole configuration of one completed step, and what `alongside` read with it.
    func read<Extra>(alongside: () -> Extra) -> (configuration: [Int32], extra: Extra) {
        var configuration = [Int32](repeating: -1, count: count)
        var attempts = 0
        while true {
            let before = version.load(ordering: .acquiring)
            if before & 1 == 0 {
                for index in 0..<count { configuration[index] = slots[index].load(ordering: .relaxed) }
                let extra = alongside()
                atomicMemoryFence(ordering: .acquiring)
                if version.load(ordering: .relaxed) == before { return (configuration, extra) }
            }
            // The drainer is between its two stores: a few plain stores long, unless it was
            // descheduled there, so yield the processor after a few tries.
            attempts += 1
            if attempts % 16 == 0 { sched_yield() }
        }
    }

    /// The whole configuration of one completed step.
    func read() -> [Int32] { read { () }.configuration }
}
