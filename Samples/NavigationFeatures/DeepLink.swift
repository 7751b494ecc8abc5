import Foundation
import StateMachineCore

/// A deep link such as `poc://checkin/place/3/owner/5`: a scheme, a host and path segments.
///
/// The machines read links as the original app reads URLs (scheme, host, number of
/// segments). ``DeepLink/validated(_:)`` is stricter: it accepts only the shapes the app
/// documents, so that a bad link fails with a message instead of silently resetting.
public struct DeepLink: Sendable, Equatable, CustomStringConvertible {
    /// The scheme, lowercased (`poc`).
    public let scheme: String
    /// The host, lowercased (`checkin`, `music`, `profile`).
    public let host: String
    /// The path segments (`["place", "3"]`).
    public let segments: [String]

    /// The scheme of the app's links.
    public static let appScheme = "poc"

    /// A link from its parts.
    public init(scheme: String = DeepLink.appScheme, host: String, segments: [String] = []) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.segments = segments
    }

    /// Reads `scheme://host/segment/...`, or `host/segment/...` (scheme `poc`); white space
    /// around each part is dropped and empty segments (double or trailing slashes) are
    /// ignored. Nil when there is no host.
    public init?(_ text: String) {
        let trimmed = text.trimmingWhitespace()
        let scheme: String
        let rest: Substring
        if let range = trimmed.range(of: "://") {
            scheme = String(trimmed[..<range.lowerBound])
            rest = trimmed[range.upperBound...]
        } else {
            scheme = DeepLink.appScheme
            rest = Substring(trimmed)
        }
        // Each part loses the white space around it, so `place/ 4 /` is `place/4`.
        let parts = rest.split(separator: "/").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        guard !scheme.isEmpty, let host = parts.first else { return nil }
        self.init(scheme: scheme, host: host, segments: Array(parts.dropFirst()))
    }

    /// `poc://checkin/place/3`.
    public var description: String {
        "\(scheme)://" + ([host] + segments).joined(separator: "/")
    }

    /// The shapes the app accepts, as listed in usage errors.
    public static let validShapes = [
        "poc://checkin", "poc://checkin/place/<id>", "poc://checkin/place/<id>/owner/<id>",
        "poc://music", "poc://music/album/<id>", "poc://music/album/<id>/song/<id>",
        "poc://profile",
    ]

    /// Why a link is not one the app accepts, with the valid shapes.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong with the link.
        public let reason: String
        /// One line: the reason, then the valid shapes.
        public var description: String {
            "\(reason); valid links: \(DeepLink.validShapes.joined(separator: ", ")) (the poc:// prefix is optional)"
        }
    }

    /// The link `text` names if it has one of the documented shapes
    /// (``validShapes``); otherwise what is wrong with it.
    public static func validated(_ text: String) -> Result<DeepLink, Invalid> {
        guard let link = DeepLink(text) else {
            return .failure(Invalid(reason: "'\(text)' is not a link"))
        }
        guard link.scheme == appScheme else {
            return .failure(Invalid(reason: "unknown scheme '\(link.scheme)' in '\(text)'"))
        }
        let words = link.segments.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
        let expected: [[String]]
        switch link.host {
        case "profile": expected = [[]]
        case "checkin": expected = [[], ["place"], ["place", "owner"]]
        case "music": expected = [[], ["album"], ["album", "song"]]
        default:
            return .failure(Invalid(reason: "unknown section '\(link.host)' in '\(text)'"))
        }
        guard link.segments.count.isMultiple(of: 2), expected.contains(words) else {
            return .failure(
                Invalid(
                    reason: "unknown path '/\(link.segments.joined(separator: "/"))' for '\(link.host)' in '\(text)'"
                )
            )
        }
        // A part that starts with a combining character (or ends with a prepended one) joins
        // the slash beside it into one character, so the link would not read back as written.
        guard DeepLink(link.description) == link else {
            return .failure(
                Invalid(reason: "a part of '\(text)' starts or ends with a character that joins the '/' beside it")
            )
        }
        return .success(link)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

/// A deep link was received (the original's `.onOpenURL`); each stack and the tab bar
/// have their own, tagged with their event set.
public struct DidReceiveDeepLink<SuperEvent>: Event {
    /// The link.
    public let link: DeepLink
    /// Makes this value: a deep link was received (the original's `.onOpenURL`); each stack and the
    /// tab bar have their own, tagged with their event set; `link` is the link.
    public init(link: DeepLink) { self.link = link }
    /// `DidReceiveDeepLink (poc://music)`.
    public var description: String { "DidReceiveDeepLink (\(link))" }
}
