import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A process, named so that a reused process ID is not mistaken for it: `pid:start`, its
/// ID and its start time in clock ticks since boot (field 22 of `/proc/PID/stat`), with the
/// host's boot ID. A store records the process that claims a machine; another process may
/// take the machine over once that process is gone (killed, crashed), never while it runs.
package struct ProcessIdentity: Sendable {
    /// `host-boot-id:pid:start`.
    package let token: String

    /// This process.
    package static let current = ProcessIdentity(token: "\(bootID):\(getpid()):\(startTime(of: getpid()) ?? "?")")

    /// Whether the process `token` names still runs. A token from another boot (or host)
    /// names a process that is gone only when the boot ID is this host's previous one,
    /// which cannot be known: a store shared across hosts must use a server store, and an
    /// unknown boot ID counts as alive.
    static func isAlive(_ token: String) -> Bool {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let pid = Int32(parts[1]) else { return true }
        guard parts[0] == bootID else { return true }
        if getpid() == pid { return true }
        guard let start = startTime(of: pid) else { return false }
        return start == parts[2]
    }

    /// The kernel's boot ID (`/proc/sys/kernel/random/boot_id`), "unknown" where there is none.
    static let bootID: String = {
        guard let text = contents(of: "/proc/sys/kernel/random/boot_id") else { return "unknown" }
        return text.filter { !$0.isWhitespace }
    }()

    /// Field 22 of `/proc/PID/stat` (after the parenthesised command name, which may hold
    /// spaces); nil when the process does not exist.
    static func startTime(of pid: Int32) -> String? {
        guard let text = contents(of: "/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return String(fields[19])
    }

    private static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
