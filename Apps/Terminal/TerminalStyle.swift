#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ANSI styling, on only when output is a terminal and `NO_COLOR` is not set
/// (https://no-color.org); otherwise every function returns its text unchanged.
public struct TerminalStyle: Sendable {
    /// Whether escape sequences are emitted.
    public let isEnabled: Bool
    /// The terminal's width in columns when known, so that a screen can lay its body out
    /// to fit (nil: no limit, as in a pipe). The runner sets it before each frame.
    public var columns: Int?

    /// A style that emits escape sequences when `isEnabled`, for a terminal `columns` wide.
    public init(isEnabled: Bool, columns: Int? = nil) {
        self.isEnabled = isEnabled
        self.columns = columns
    }

    /// The style for standard output: enabled on a terminal without `NO_COLOR`, unless
    /// `TERM` is `dumb` (a terminal that understands no escape sequences).
    public static func standardOutput(environment: [String: String]) -> TerminalStyle {
        TerminalStyle(isEnabled: isatty(STDOUT_FILENO) == 1 && allowsStyles(environment: environment))
    }

    /// Whether `environment` allows escape sequences: `NO_COLOR` unset or empty, and `TERM`
    /// not `dumb`.
    public static func allowsStyles(environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Bold text (titles).
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dimmed text (unavailable commands, hints).
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// Green text.
    public func green(_ text: String) -> String { wrap(text, "32") }
    /// Red text.
    public func red(_ text: String) -> String { wrap(text, "31") }
    /// Yellow text.
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Cyan text.
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
