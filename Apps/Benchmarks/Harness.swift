import CAllocationCounter
import Foundation

/// What the command line asked for: `Benchmarks [core|table|hierarchy|durable|soak|all]
/// [--repetitions N] [--filter TEXT] [--json PATH] [--soak-transitions N]`.
struct BenchmarkOptions: Sendable {
    /// Timed repetitions per scenario, after one warm-up run; figures are their median.
    /// Soak runs take at most ``SoakBenchmarks/maximumRepetitions`` of them.
    var repetitions = 9
    /// Transitions per machine in a soak run (a whole number of thousands).
    var soakTransitions = 1_000_000
    /// Only the scenarios whose name contains this text run (all when nil).
    var filter: String?
    /// Where to write the figures as JSON.
    var jsonPath: String?

    /// Whether the scenario `name` (of suite `suite`) should run.
    func wants(_ suite: String, _ name: String) -> Bool {
        guard let filter else { return true }
        return "\(suite).\(name)".localizedCaseInsensitiveContains(filter)
    }
}

/// Medians, not best runs: a figure is the median of its repetitions, printed with the
/// slowest and fastest beside it, so that a noisy run shows as a wide spread instead of a
/// lucky minimum.
struct Sample: Sendable, Encodable {
    /// One value per repetition, in the order they ran.
    let values: [Double]

    var median: Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }

    /// `12.3 [11.9–13.0]`: the median and the spread.
    var text: String { "\(Self.format(median)) [\(Self.format(min))–\(Self.format(max))]" }

    static func format(_ value: Double) -> String {
        if value.isNaN { return "n/a" }
        return abs(value) >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
    }

    enum CodingKeys: String, CodingKey { case values, median, min, max }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(values, forKey: .values)
        try container.encode(median, forKey: .median)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
    }
}

/// A figure's goal, checked against the median.
enum Target: Sendable {
    /// The median is at most this value, in the figure's unit.
    case atMost(Double)
    /// The median is at most this multiple of the baseline's median.
    case ratioAtMost(Double)
    /// Every repetition is at most this value, in the figure's unit.
    case everyAtMost(Double)

    func isMet(_ sample: Sample, baseline: Double?) -> Bool {
        let median = sample.median
        switch self {
        case .atMost(let limit): return median <= limit
        case .everyAtMost(let limit): return sample.max <= limit
        case .ratioAtMost(let limit):
            guard let baseline, baseline > 0 else { return false }
            return median / baseline <= limit
        }
    }

    func text(unit: String) -> String {
        switch self {
        case .atMost(let limit): "<= \(Sample.format(limit)) \(unit)"
        case .ratioAtMost(let limit): "<= \(Sample.format(limit))x baseline"
        case .everyAtMost(let limit): "every run <= \(Sample.format(limit)) \(unit)"
        }
    }
}

/// One printed (and archived) line: a measured sample, optionally against a baseline
/// sample that did the same work by hand, optionally with a target.
struct Figure: Sendable, Encodable {
    let suite: String
    let name: String
    let unit: String
    let sample: Sample
    let baselineName: String?
    let baseline: Sample?
    let target: String?
    let met: Bool?
    let note: String?

    /// The median over the baseline's median.
    var ratio: Double? {
        guard let baseline, baseline.median > 0 else { return nil }
        return sample.median / baseline.median
    }

    init(
        suite: String,
        name: String,
        unit: String,
        sample: Sample,
        baselineName: String? = nil,
        baseline: Sample? = nil,
        target: Target? = nil,
        note: String? = nil
    ) {
        self.suite = suite
        self.name = name
        self.unit = unit
        self.sample = sample
        self.baselineName = baselineName
        self.baseline = baseline
        self.target = target?.text(unit: unit)
        self.met = target?.isMet(sample, baseline: baseline?.median)
        self.note = note
    }

    enum CodingKeys: String, CodingKey {
        case suite, name, unit, sample, baselineName, baseline, ratio, target, met, note
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(suite, forKey: .suite)
        try container.encode(name, forKey: .name)
        try container.encode(unit, forKey: .unit)
        try container.encode(sample, forKey: .sample)
        try container.encodeIfPresent(baselineName, forKey: .baselineName)
        try container.encodeIfPresent(baseline, forKey: .baseline)
        try container.encodeIfPresent(ratio, forKey: .ratio)
        try container.encodeIfPresent(target, forKey: .target)
        try container.encodeIfPresent(met, forKey: .met)
        try container.encodeIfPresent(note, forKey: .note)
    }

    /// `name  median [min–max] unit  | baseline …  ratio  | target  MET`, on two lines
    /// when there is a baseline or a target.
    var printed: String {
        var line = "\(suite).\(name)".padding(toLength: 56, withPad: " ", startingAt: 0)
        line += " \(sample.text) \(unit)"
        var details: [String] = []
        if let baselineName, let baseline {
            var text = "vs \(baselineName) \(baseline.text)"
            if let ratio { text += " = \(String(format: "%.2f", ratio))x" }
            details.append(text)
        }
        if let target, let met { details.append("target \(target): \(met ? "MET" : "MISSED")") }
        if let note { details.append(note) }
        guard !details.isEmpty else { return line }
        return line + "\n" + details.map { "    " + $0 }.joined(separator: "\n")
    }
}

/// The figures of one suite, printed as they are added.
final class SuiteReport {
    let suite: String
    let options: BenchmarkOptions
    private(set) var figures: [Figure] = []

    init(_ suite: String, options: BenchmarkOptions) {
        self.suite = suite
        self.options = options
    }

    /// Whether the scenario `name` should run (see ``BenchmarkOptions/filter``).
    func wants(_ name: String) -> Bool { options.wants(suite, name) }

    var repetitions: Int { options.repetitions }

    @discardableResult
    func add(
        _ name: String,
        unit: String,
        _ sample: Sample,
        baseline: (name: String, sample: Sample)? = nil,
        target: Target? = nil,
        note: String? = nil
    ) -> Figure {
        let figure = Figure(
            suite: suite,
            name: name,
            unit: unit,
            sample: sample,
            baselineName: baseline?.name,
            baseline: baseline?.sample,
            target: target,
            note: note
        )
        figures.append(figure)
        print(figure.printed)
        return figure
    }
}

/// Timing and allocation probes. Every timed figure is measured in the same process as
/// its baseline, repetition by repetition in turn (baseline, subject, baseline, ...), so
/// a slow moment of the machine hits both.
enum Harness {
    /// Nanoseconds per operation of `subjects` (each run `operations` times in one
    /// call of its body), interleaved over `repetitions` rounds after one warm-up round.
    static func interleaved(
        repetitions: Int,
        operations: Int,
        _ subjects: [() throws -> Void]
    ) throws -> [Sample] {
        for subject in subjects { try subject() }
        var values = [[Double]](repeating: [], count: subjects.count)
        for _ in 0..<repetitions {
            for (index, subject) in subjects.enumerated() {
                let start = ContinuousClock.now
                try subject()
                values[index].append((ContinuousClock.now - start).nanoseconds / Double(operations))
            }
        }
        return values.map(Sample.init)
    }

    /// The asynchronous twin of ``interleaved(repetitions:operations:_:)``.
    static func interleaved(
        repetitions: Int,
        operations: Int,
        _ subjects: [() async throws -> Void]
    ) async throws -> [Sample] {
        for subject in subjects { try await subject() }
        var values = [[Double]](repeating: [], count: subjects.count)
        for _ in 0..<repetitions {
            for (index, subject) in subjects.enumerated() {
                let start = ContinuousClock.now
                try await subject()
                values[index].append((ContinuousClock.now - start).nanoseconds / Double(operations))
            }
        }
        return values.map(Sample.init)
    }

    /// Whether ``allocations(_:)`` counts (glibc, no sanitizer).
    static var countsAllocations: Bool { allocation_counting_available() != 0 }

    /// The heap allocations (by every thread) made while `body` ran.
    static func allocations(_ body: () throws -> Void) rethrows -> UInt64 {
        let before = allocation_count()
        try body()
        return allocation_count() - before
    }

    /// Runs this executable again with `arguments` in a fresh process (for figures that a
    /// process's earlier work would blur: memory, peak resident set) and returns what it
    /// printed; a non-zero exit is an error naming the command and what it printed.
    static func runFreshProcess(_ arguments: [String]) throws -> Data {
        let child = Process()
        child.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        )
        child.arguments = arguments
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw BenchmarkError(
                "\(arguments.joined(separator: " ")) exited with \(child.terminationStatus): \(String(decoding: data, as: UTF8.self))"
            )
        }
        return data
    }

    /// Runs `body` `repetitions` times and returns a sample of its results (for figures
    /// that are not times, such as bytes per instance).
    static func repeated(_ repetitions: Int, _ body: () throws -> Double) rethrows -> Sample {
        var values: [Double] = []
        for _ in 0..<repetitions { values.append(try body()) }
        return Sample(values: values)
    }

    /// The asynchronous twin of ``repeated(_:_:)``.
    static func repeated(_ repetitions: Int, _ body: () async throws -> Double) async rethrows -> Sample {
        var values: [Double] = []
        for _ in 0..<repetitions { values.append(try await body()) }
        return Sample(values: values)
    }
}

extension Duration {
    /// The duration in nanoseconds as a `Double`.
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
