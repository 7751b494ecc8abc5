import Foundation

// The regression tests import the sample's target; the FuzzDeepLink executable compiles its
// files into itself instead (it is no product the Fuzz package could depend on).
#if canImport(NavigationFeatures)
import NavigationFeatures
#endif

/// Fuzz harness: a deep link from arbitrary text, read loosely and strictly, and routed by
/// every section. A link the strict reader accepts must read back the same from its
/// description. Shared by `FuzzDeepLink` and the regression tests.
enum DeepLinkHarness {
    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        if let link = DeepLink(text) {
            _ = checkinRoutes(for: link)
            _ = musicState(for: link)
        }
        if case .success(let link) = DeepLink.validated(text) {
            precondition(DeepLink(link.description) == link, "a valid link does not read back: \(link)")
        }
    }
}
