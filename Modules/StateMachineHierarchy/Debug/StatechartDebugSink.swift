#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the statechart debugger writes its lines.
///
/// The sink receives each run-to-completion step's lines after the step has finished
/// (so writing them does not distort the measured duration), one call per line.
public struct StatechartDebugSink: Sendable {
    private let body: @Sendable (String) -> Void

    /// A sink that hands every line to `write`.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        body = write
    }

    /// Writes one line.
    public func write(_ line: String) {
        body(line)
    }

    /// Writes each line to standard error (the default).
    public static var standardError: StatechartDebugSink {
        StatechartDebugSink { line in
            let text = line + "\n"
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = writeToStandardError(buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }
}

/// The lines of one step, buffered until the step ends. Confined to the drainer.
final class DebugLog {
    private let sink: StatechartDebugSink
    private var lines: [String] = []

    init(sink: StatechartDebugSink) {
        self.sink = sink
    }

    func write(_ line: String) {
        lines.append(line)
    }

    func stepFinished(root: String, duration: Duration, pending: [String]) {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1e3 + Double(attoseconds) / 1e15
        write("[\(root)]: run-to-completion step took \(formatMilliseconds(milliseconds)) milliseconds")
        write("[\(root)]: remaining events in queue: \(pending.count)")
        write("[\(root)]: [\(pending.joined(separator: ", "))]")
    }

    func flush() {
        for line in lines { sink.write(line) }
        lines.removeAll()
    }
}

/// `%f`-style formatting (six decimals) without Foundation.
func formatMilliseconds(_ value: Double) -> String {
    let micro = (value * 1_000_000).rounded()
    let whole = Int(micro / 1_000_000)
    let fraction = Int(micro) - whole * 1_000_000
    let digits = String(fraction)
    return "\(whole)." + String(repeating: "0", count: 6 - digits.count) + digits
}

private func writeToStandardError(_ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(2, bytes, count)
    #else
    Darwin.write(2, bytes, count)
    #endif
}
