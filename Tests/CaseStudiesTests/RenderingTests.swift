import Testing

@testable import CaseStudiesScreens

@Suite("CaseStudies rendering never traps")
struct RenderingTests {
    @Test(
        "currency prints any amount, exactly when its cents fit an Int",
        arguments: [
            (0, "$0.00"), (7.5, "$7.50"), (1_234.5, "$1,234.50"), (1_000_000_000, "$1,000,000,000.00"),
            (-2.25, "-$2.25"),
        ]
    )
    func currencyFormats(amount: Double, expected: String) {
        #expect(currency(amount) == expected)
    }

    @Test("currency of amounts beyond an Int's cents, and of non-finite values, does not trap")
    func currencyExtremes() {
        for amount in [1e17, 9e16, 1e308, -1e308, .infinity, -.infinity, .nan, Double(Int.max)] {
            #expect(!currency(amount).isEmpty)
        }
    }

    @Test("formatSeconds prints whole seconds and anything else without trapping")
    func seconds() {
        #expect(formatSeconds(5) == "5s")
        #expect(formatSeconds(0.05) == "0.05s")
        for seconds in [5e300, 1e19, .infinity, .nan] {
            #expect(!formatSeconds(seconds).isEmpty)
        }
    }
}
