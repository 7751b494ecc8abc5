import Foundation

/// A tiny benchmark harness: every figure is measured in the same process as its
/// baseline and printed as a ratio, so machine speed cancels out.
enum Harness {
    /// Runs `body` `repetitions` times (after one warm-up) and returns the best
    /// (smallest) wall-clock duration in nanoseconds. The best run is the least
    /// disturbed by the scheduler, which is what a ratio wants on a shared machine.
    static func bestOf(_ repetitions: Int = 5, _ body: () async throws -> Void) async rethrows -> Double {
        try await body()
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            try await body()
            let elapsed = ContinuousClock.now - start
            best = min(best, elapsed.nanoseconds)
        }
        return best
    }

    /// Synchronous twin of ``bestOf(_:_:)-async``.
    static func bestOfSync(_ repetitions: Int = 5, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            best = min(best, elapsed.nanoseconds)
        }
        return best
    }

    /// Resident set size of this process in bytes (Linux: `/proc/self/statm`).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Prints one result line: `name  value unit  ratio x baseline  [target]`.
    static func report(
        _ name: String,
        value: Double,
        unit: String,
        baseline: Double? = nil,
        target: String? = nil,
        pass: Bool? = nil
    ) {
        var line = name.padding(toLength: 44, withPad: " ", startingAt: 0)
        line += String(format: "%12.1f %-8@", value, unit as NSString)
        if let baseline, baseline > 0 {
            line += String(format: "  %7.2fx baseline (%.1f %@)", value / baseline, baseline, unit as NSString)
        }
        if let target { line += "  target: \(target)" }
        if let pass { line += pass ? "  [met]" : "  [MISSED]" }
        print(line)
    }
}

extension Duration {
    /// The duration in nanoseconds as a `Double`.
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
