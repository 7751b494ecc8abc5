import Foundation
import StateMachineHierarchy

extension SCXMLDocument {
    /// One `<send>`: an event for this machine, the session that invoked it or one it invoked.
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
            /// `target="#_scxml_<sessionid>"`: the external queue of the session with
            /// that id (this one included); `error.communication` when there is none.
            case session(String)
            /// A target or type the SCXML event I/O processor cannot deliver to (another
            /// URI, an unknown processor type): executing the send raises `error` on the
            /// internal queue (`error.execution`, or `error.communication`) and skips the
            /// rest of its block.
            case undeliverable(error: String)
        }

        /// The event name (`event` or `eventexpr`).
        let event: Text
        /// `target` (nil for the session's own external queue) or `targetexpr`.
        let target: Text?
        /// `type` or `typeexpr` (nil for the SCXML event I/O processor).
        let type: Text?
        /// `delay` (zero when absent) or `delayexpr` (a CSS2 time, evaluated when the send runs).
        let delay: Delay
        /// The send id given by `id`, which `<cancel sendid>` refers to.
        let id: String?
        /// The location `idlocation` names: executing the send stores a generated send id
        /// there, which `<cancel sendidexpr>` can read.
        let idLocation: Script?
        /// `namelist` (each name with its value's expression) and `<param>`s: the event's
        /// data, as an object (none when both are empty).
        let params: [Param]
        /// `<content>`: the event's data, as it is.
        let content: ValueSource?
        /// Where the element is.
        let position: SCXMLPosition
        /// The line of the element.
        var line: Int { position.line }

        /// A `delay` or `delayexpr`.
        enum Delay: Sendable, Equatable {
            case fixed(Duration)
            case expression(Script)
        }
    }

    /// One `<cancel>`: which pending delayed sends it cancels.
    struct Cancel: Sendable, Equatable {
        /// `sendid` or `sendidexpr`.
        let sendID: Text
        /// The line of the element.
        let line: Int
    }

    /// What `target` and `type` (given or evaluated) make of a send.
    static func sendTarget(_ target: String?, type: String?) -> Send.Target {
        if let type, !scxmlProcessorTypes.contains(type) {
            // A processor type this interpreter does not implement; but a Basic HTTP send
            // without a target has nowhere to go, which SCXML D.2 reports as a
            // communication error (W3C test577).
            let basicHTTPWithoutTarget = basicHTTPTypes.contains(type) && target == nil
            return .undeliverable(error: basicHTTPWithoutTarget ? "error.communication" : "error.execution")
        }
        switch target {
        case nil: return .external
        case "#_internal": return .internal
        case "#_parent": return .parent
        case let other? where other.hasPrefix("#_scxml_"): return .session(String(other.dropFirst(8)))
        case let other? where other.hasPrefix("#_") && other.count > 2: return .invoked(String(other.dropFirst(2)))
        case _?:
            // A URI the SCXML event I/O processor cannot deliver to.
            return .undeliverable(error: "error.execution")
        }
    }

    /// The SCXML event I/O processor's type URI (and its short legacy form).
    static let scxmlProcessorTypes: Set<String> = [
        "http://www.w3.org/TR/scxml/#SCXMLEventProcessor", "scxml",
    ]

    /// The Basic HTTP event I/O processor's type URI (and its short form), which this
    /// interpreter does not run.
    static let basicHTTPTypes: Set<String> = ["http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor", "basichttp"]

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
