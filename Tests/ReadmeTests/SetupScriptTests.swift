import Foundation
import TestSupport
import Testing

/// The README's first command: `scripts/setup` says what it did. Where the tests run,
/// everything it installs is there already (the build needs readline, duktape, SQLite and libpq, the test
/// plans python3, the diagram tests graphviz, the W3C conformance tests xsltproc), so it must
/// say that nothing was needed, naming what it found.
///
/// The script runs through `runPiped`, which waits for it on a thread of its own, not on one
/// of the few cooperative threads every async test shares.
@Suite("scripts/setup")
struct SetupScriptTests {
    private static let setup = Readme.root.appendingPathComponent("scripts/setup")

    @Test("with everything installed, scripts/setup says that nothing was needed, and what is there")
    func nothingToInstall() async throws {
        let (status, text) = try await runPiped(Self.setup, [], input: "", seconds: 120)
        #expect(status == 0, "\(text)")
        #expect(
            text
                == "scripts/setup: nothing to install (libreadline-dev duktape-dev libsqlite3-dev postgresql libpq-dev python3 graphviz xsltproc already there)\n"
        )
    }

    @Test("an unknown argument is a usage error")
    func unknownArgument() async throws {
        let (status, text) = try await runPiped(Self.setup, ["--bogus"], input: "", seconds: 120)
        #expect(status == 2)
        #expect(text == "scripts/setup: unknown argument '--bogus'\n")
    }
}
