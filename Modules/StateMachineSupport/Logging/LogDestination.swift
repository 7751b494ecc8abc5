#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the package's own log lines go (the transition log of Core machines, the misuse
/// warnings, the table builder's unhandled events): the system log by default, like the
/// seed's unified logging, so that nothing is printed into the user's program unless asked.
///
/// The environment variable `STATE_MACHINE_LOG` chooses, for programs that cannot be
/// rebuilt: `stderr` (or `1`) prints the lines on standard error, `syslog` sends them to
/// the system log even in a test process, `0` (or `off`) drops them. Unset, a program logs
/// to the system log when one listens (`/dev/log` exists when the process starts) and
/// otherwise nowhere, and a test process logs nothing. (Without a listener, syslog(3) would
/// try to connect again for every line, paying for a log nobody keeps.)
package enum LogDestination: Equatable, Sendable {
    /// syslog(3): the journal on a systemd machine; nothing when no log daemon listens.
    case systemLog
    /// File descriptor 2.
    case standardError
    /// Nowhere.
    case none

    /// The destination `STATE_MACHINE_LOG` names, or the default: the system log when
    /// `systemLogListens`, else nothing, and nothing in a test process. An unknown value is
    /// read as the default.
    package static func resolve(
        environment value: String?,
        isTestProcess: Bool,
        systemLogListens: Bool = true
    ) -> LogDestination {
        switch value?.lowercased() {
        case "1", "stderr": return .standardError
        case "syslog", "journal": return .systemLog
        case "0", "off", "none": return .none
        default: return isTestProcess || !systemLogListens ? .none : .systemLog
        }
    }

    /// The destination of this process, from its environment and whether the system log's
    /// socket exists (both read once).
    package static let current = resolve(
        environment: getenv("STATE_MACHINE_LOG").map { String(cString: $0) },
        isTestProcess: isTestProcess,
        systemLogListens: access("/dev/log", F_OK) == 0
    )

    /// Whether this process runs tests (XCTest or Swift Testing bundles on Linux end in
    /// `.xctest`; the macOS Swift Testing helper is `swiftpm-testing-helper`).
    package static let isTestProcess: Bool = {
        let executable = CommandLine.arguments.first ?? ""
        return executable.hasSuffix(".xctest") || executable.hasSuffix("swiftpm-testing-helper")
            || getenv("XCTestConfigurationFilePath") != nil
    }()

    /// Writes `line` (without its newline) to this destination; `warning` marks a misuse
    /// report (LOG_WARNING in the system log) rather than a trace (LOG_DEBUG).
    package func write(_ line: String, warning: Bool = false) {
        switch self {
        case .none:
            return
        case .standardError:
            Self.writeToStandardError(line + "\n")
        case .systemLog:
            // "%s": the line is data, never a format.
            line.withCString { text in
                withVaList([text]) { vsyslog(warning ? LOG_WARNING : LOG_DEBUG, "%s", $0) }
            }
        }
    }

    /// Writes `text` to file descriptor 2 as is.
    package static func writeToStandardError(_ text: String) {
        writeAll(text, to: 2)
    }
}

/// Writes `text` to the file descriptor `descriptor` (outside the enum, whose `write` would
/// hide the C function).
private func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
        _ = write(descriptor, bytes.baseAddress, bytes.count)
    }
}
