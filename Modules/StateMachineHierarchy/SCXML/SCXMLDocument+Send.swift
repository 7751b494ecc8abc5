import Foundation

extension SCXMLDocument {
    /// One `<send>` of the null data model: an event for the machine itself.
    struct Send: Sendable, Equatable {
        /// Where a `<send>` puts its event.
        enum Target: Sendable, Equatable {
            /// No `target`: the machine's external queue (after `delay`, if any); the event
            /// is processed as its own macrostep once the current one is over.
            case external
            /// `target="#_internal"`: the internal queue, like `<raise>`.
            case `internal`
            /// `target="#_parent"`: the external queue of the session that invoked this
            /// one, now or after `delay` (unless this session was cancelled or has ended by
            /// then); `error.communication` when there is none.
            case parent
            /// `target="#_<invokeid>"`: the external queue of the child session invoked
            /// with that id; `error.communication` when there is none.
            case invoked(String)
            /// A target or type the SCXML event I/O processor cannot deliver to (another
            /// URI, an unknown processor type): executing the send raises `error` on the
            /// internal queue (`error.execution`, or `error.communication` for an
            /// `#_scxml_<session>` target) and skips the rest of its block.
            case undeliverable(error: String)
        }

        /// The event name (`event`).
        let event: String
        /// The delay (`delay`, a CSS2 time such as `2s` or `500ms`); zero when absent.
        let delay: Duration
        /// The send id given by `id`, which `<cancel sendid>` refers to.
        let id: String?
        /// The slot named by `idlocation`: executing the send stores a generated send id
        /// there, which `<cancel sendidexpr="slot">` refers to.
        let idLocation: String?
        /// The queue the event goes to.
        let target: Target
        /// The line of the element.
        let line: Int
    }

    /// One `<cancel>`: which pending delayed sends it cancels.
    struct Cancel: Sendable, Equatable {
        /// How a `<cancel>` names the send.
        enum Reference: Sendable, Equatable {
            /// `sendid="id"` (or `sendidexpr="'id'"`, a quoted literal): the sends with that id.
            case id(String)
            /// `sendidexpr="slot"`: the send whose generated id the `idlocation` slot holds.
            case location(String)
        }

        /// The send (or sends) to cancel.
        let reference: Reference
        /// The line of the element.
        let line: Int
    }

    /// Parses a CSS2 time (`2s`, `500ms`, `1.5s`, `.5s`, `0s`) exactly, to the nanosecond
    /// (finer digits are dropped). Nil for anything else, negative values included.
    static func duration(css2 text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number: Substring
        let nanosecondsPerUnit: Int64
        let fractionDigits: Int
        if trimmed.hasSuffix("ms") {
            number = trimmed.dropLast(2)
            nanosecondsPerUnit = 1_000_000
            fractionDigits = 6
        } else if trimmed.hasSuffix("s") {
            number = trimmed.dropLast()
            nanosecondsPerUnit = 1_000_000_000
            fractionDigits = 9
        } else {
            return nil
        }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        let isDigits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard !(whole.isEmpty && fraction.isEmpty), isDigits(whole), isDigits(fraction) else { return nil }
        guard parts.count == 1 || !fraction.isEmpty else { return nil }
        guard let units = whole.isEmpty ? 0 : Int64(whole) else { return nil }
        let (scaled, overflow) = units.multipliedReportingOverflow(by: nanosecondsPerUnit)
        guard !overflow else { return nil }
        let padded = String(fraction.prefix(fractionDigits)).padding(
            toLength: fractionDigits,
            withPad: "0",
            startingAt: 0
        )
        guard let fractional = Int64(padded) else { return nil }
        let (total, overflowTotal) = scaled.addingReportingOverflow(fractional)
        guard !overflowTotal else { return nil }
        return .nanoseconds(total)
    }
}
