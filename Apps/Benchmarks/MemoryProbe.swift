import CAllocationCounter
import Foundation

/// Memory per instance counted whole: what building and keeping many instances of one kind
/// grew, measured in a fresh process of this executable (`Benchmarks memory-probe NAME`).
///
/// A fresh process, because memory a previous scenario freed is reused without growing
/// anything: in a process that ran other scenarios first, the allocator's held bytes and the
/// resident set under-count, and only its in-use bytes stay meaningful. The child builds a
/// tenth of ``count`` instances first and keeps them (so that first-use costs, such as the
/// concurrency runtime's threads and their arenas, and the static tables of the kind, are
/// paid before the first reading), reads its memory, builds ``count`` more, keeps them all,
/// and reads again. Three readings, each grown and divided by ``count``:
///
/// - **held** (the figure with the target): the bytes glibc's allocator holds from the
///   system, summed over every arena (the main one and each thread's), free chunks and
///   fragments included, plus memory-mapped blocks: `mallinfo2`'s `arena + hblkhd`, the same
///   totals as `malloc_info`'s `<system type="current">` and `mmap` lines. What the instances
///   cost the heap, however their allocations and frees were spread over threads.
/// - **in use**: the bytes handed out and not yet freed (`mallinfo2`'s `uordblks + hblkhd`,
///   also over every arena): the instances' own allocations, without fragmentation.
/// - **resident**: the growth of the resident set (`/proc/self/statm`), which also counts
///   memory that is not the heap's (task stacks, runtime metadata).
struct MemoryProbe {
    /// `suite.kind`, the name `Benchmarks memory-probe NAME` takes.
    let name: String
    /// Instances measured (after a tenth as many warm-ups).
    let count: Int
    /// Builds the given number of instances and returns them, every one still alive and
    /// settled (an observed machine's task has received its first state, say).
    let build: (Int) async throws -> Any

    /// Every probe, by suite.
    static var all: [MemoryProbe] {
        CoreBenchmarks.memoryProbes + TableBenchmarks.memoryProbes + HierarchyBenchmarks.memoryProbes
            + ECMAScriptBenchmarks.memoryProbes + ScaleBenchmarks.memoryProbes
    }

    /// The growth of one child process, per instance.
    struct Growth: Codable {
        var held: Double
        var inUse: Double
        var resident: Double
    }

    /// The growth per instance over `repetitions` fresh processes.
    struct Samples {
        let held: Sample
        let inUse: Sample
        let resident: Sample
        let count: Int

        /// What the figure counts, and the two other readings, for a figure's note.
        var note: String {
            "all arenas' held bytes per instance, \(SoakBenchmarks.grouped(count)) kept in a fresh process; "
                + "in use \(inUse.text), resident \(resident.text)"
        }
    }

    // MARK: In the child

    /// `Benchmarks memory-probe NAME`: builds the probe's instances in this (fresh) process
    /// and prints its ``Growth`` as one line of JSON.
    static func runChild(_ name: String) async throws {
        guard let probe = all.first(where: { $0.name == name }) else {
            throw BenchmarkError("no memory probe '\(name)'; known: \(all.map(\.name).joined(separator: ", "))")
        }
        let warmUp = try await probe.build(max(1, probe.count / 10))
        let before = Reading()
        let kept = try await probe.build(probe.count)
        let after = Reading()
        withExtendedLifetime((warmUp, kept)) {}
        let count = Double(probe.count)
        let growth = Growth(
            held: Double(after.held - before.held) / count,
            inUse: Double(after.inUse - before.inUse) / count,
            resident: Double(after.resident - before.resident) / count
        )
        print(String(decoding: try JSONEncoder().encode(growth), as: UTF8.self))
    }

    /// The three readings at one moment.
    struct Reading {
        let held: Int
        let inUse: Int
        let resident: Int

        init() {
            held = Int(heap_bytes_held())
            // Soak's reading: the resident set and the in-use bytes.
            let reading = MemoryReading()
            inUse = reading.heap
            resident = reading.resident
        }
    }

    // MARK: In the parent

    /// Runs the probe `name` in `repetitions` fresh processes of this executable, one after
    /// the other.
    static func measure(_ name: String, repetitions: Int) throws -> Samples {
        guard let probe = all.first(where: { $0.name == name }) else {
            throw BenchmarkError("no memory probe '\(name)'")
        }
        var growths: [Growth] = []
        for _ in 0..<repetitions {
            let data = try Harness.runFreshProcess(["memory-probe", name])
            guard let growth = try? JSONDecoder().decode(Growth.self, from: data) else {
                throw BenchmarkError("memory-probe \(name) printed no growth: \(String(decoding: data, as: UTF8.self))")
            }
            growths.append(growth)
        }
        return Samples(
            held: Sample(values: growths.map(\.held)),
            inUse: Sample(values: growths.map(\.inUse)),
            resident: Sample(values: growths.map(\.resident)),
            count: probe.count
        )
    }
}

extension SuiteReport {
    /// Adds the memory figure of the probe `suite.probe`: all arenas' held bytes per
    /// instance, with the in-use and resident readings in the note (see ``MemoryProbe``).
    @discardableResult
    func addMemory(
        _ name: String,
        probe: String,
        baseline: (name: String, samples: MemoryProbe.Samples)? = nil,
        target: Target? = nil,
        note: String? = nil
    ) throws -> MemoryProbe.Samples {
        let samples = try MemoryProbe.measure("\(suite).\(probe)", repetitions: repetitions)
        add(
            name,
            unit: "bytes",
            samples.held,
            baseline: baseline.map { ($0.name, $0.samples.held) },
            target: target,
            note: ([note].compactMap { $0 } + [samples.note]).joined(separator: "; ")
        )
        return samples
    }
}
