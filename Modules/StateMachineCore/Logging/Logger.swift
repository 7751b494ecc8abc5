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
/// The default logger writes nothing into the program's output: it sends one line per
/// transition to the system log (syslog(3), the journal), or nowhere in test processes. To
/// see the transitions, install a logger that prints them, or set `STATE_MACHINE_LOG=stderr`
/// in the environment of a program you cannot rebuild.
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
        Logging.isEnabledByDefault ? InstalledLogger(Logging.defaultLogger) : nil
    )
    /// Whether `logger` is set, readable without its lock: a machine checks it per transition.
    @usableFromInline static let isInstalled = Atomic(logger.withLock { $0 != nil })

    /// Whether the default logger writes anywhere: see ``LogDestination`` (the system log
    /// in a program, nothing in a test process; `STATE_MACHINE_LOG` chooses otherwise).
    static var isEnabledByDefault: Bool { LogDestination.current != .none }

    /// Whether this process runs tests (XCTest or Swift Testing).
    static var isTestProcess: Bool { LogDestination.isTestProcess }

    /// The default logger: one line per transition, `[Title] current + event => new`, to
    /// the destination `STATE_MACHINE_LOG` names (by default the system log, syslog(3),
    /// which the journal records without printing anything into the program's output).
    static let defaultLogger: LogFunction = { title, current, event, new in
        LogDestination.current.write("[\(title)] \(current) + \(event) => \(new)")
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
            LogDestination.current.write("[SwiftStateMachine] warning: \(message)", warning: true)
        }
    )

    @usableFromInline static func report(_ message: String) {
        let handler = self.handler.withLock { $0 }
        handler.report(message)
    }
}
