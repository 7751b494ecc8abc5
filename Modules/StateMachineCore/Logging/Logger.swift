import StateMachineSupport
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A transition logger: `(title, currentState, event, newState)`. The title is the name of
/// the machine's `SuperState` type.
public typealias LogFunction = @Sendable (String, any State, any Event, any State) async -> Void

/// Replaces the logger of every machine (machines that called `disableLog()` stay quiet).
///
/// ```swift
/// setLogger { title, currentState, event, newState in
///     print("[\(title)] \(currentState) + \(event) -> \(newState)")
/// }
/// ```
public func setLogger(function: @escaping LogFunction) {
    Logging.logger.withLock { $0 = InstalledLogger(function) }
    Logging.isInstalled.store(true, ordering: .relaxed)
}

extension StateMachine where SuperState == Never, SuperEvent == Never {
    /// Replaces the logger of every machine; the same as the module-level ``setLogger(function:)``,
    /// spelled as the seed README spells it: `StateMachine.setLogger { ... }`.
    public static func setLogger(function: @escaping LogFunction) {
        StateMachineCore.setLogger(function: function)
    }
}

/// The global logger and the default one.
@usableFromInline
enum Logging {
    /// The logger in force; nil means "log nothing". Machines read it once per transition.
    @usableFromInline static let logger = Lock<InstalledLogger?>(
        Logging.isEnabledByDefault ? InstalledLogger(Logging.standardError) : nil
    )
    /// Whether `logger` is set, readable without its lock: a machine checks it per transition.
    @usableFromInline static let isInstalled = Atomic(logger.withLock { $0 != nil })

    /// Whether the default logger is on: it is, except in test processes. The environment
    /// variable `STATE_MACHINE_LOG` (`1` or `0`) overrides the guess.
    static var isEnabledByDefault: Bool {
        switch ProcessInfo.processInfo.environment["STATE_MACHINE_LOG"] {
        case "1": return true
        case "0": return false
        default: return !isTestProcess
        }
    }

    /// Whether this process runs tests (XCTest or Swift Testing bundles on Linux end in
    /// `.xctest`; the macOS Swift Testing helper is `swiftpm-testing-helper`).
    static var isTestProcess: Bool {
        let executable = CommandLine.arguments.first ?? ""
        return executable.hasSuffix(".xctest") || executable.hasSuffix("swiftpm-testing-helper")
            || ProcessInfo.processInfo.environment["XCTestConfigurationFilePath"] != nil
    }

    /// The default logger: one line per transition on standard error,
    /// `[Title] current + event => new`.
    static let standardError: LogFunction = { title, current, event, new in
        writeToStandardError("[\(title)] \(current) + \(event) => \(new)\n")
    }

    static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = write(2, bytes.baseAddress, bytes.count)
        }
    }
}

/// A logger as the package keeps it: by reference, so that reading it copies a reference.
/// (Kept directly in the lock, the closure was wrapped in two more reabstraction thunks by
/// every read, and each transition logged slower than the last: see `Lock`.)
@usableFromInline
final class InstalledLogger: Sendable {
    /// The function `setLogger` installed.
    @usableFromInline let log: LogFunction

    init(_ log: @escaping LogFunction) {
        self.log = log
    }
}

/// Reports misuse of the library that must not crash the process (for example a second
/// live iterator). The handler is replaceable for tests.
@usableFromInline
enum Diagnostics {
    /// What a report is handed to, kept by reference for the reason `InstalledLogger` is.
    final class Handler: Sendable {
        let report: @Sendable (String) -> Void

        init(_ report: @escaping @Sendable (String) -> Void) {
            self.report = report
        }
    }

    static let handler = Lock(
        Handler { message in
            Logging.writeToStandardError("[SwiftStateMachine] warning: \(message)\n")
        }
    )

    @usableFromInline static func report(_ message: String) {
        let handler = self.handler.withLock { $0 }
        handler.report(message)
    }
}
