import Foundation
import Testing

/// The README's first command: `scripts/setup` says what it did. Where the tests run,
/// everything it installs is there already (the build needs readline and duktape, the test
/// plans python3, the diagram tests graphviz, the W3C conformance tests xsltproc), so it must
/// say that nothing was needed, naming what it found.
@Suite("scripts/setup")
struct SetupScriptTests {
    @Test("with everything installed, scripts/setup says that nothing was needed, and what is there")
    func nothingToInstall() throws {
        let process = Process()
        process.executableURL = Readme.root.appendingPathComponent("scripts/setup")
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(
            text
                == "scripts/setup: nothing to install (libreadline-dev duktape-dev python3 graphviz xsltproc already there)\n"
        )
    }

    @Test("an unknown argument is a usage error")
    func unknownArgument() throws {
        let process = Process()
        process.executableURL = Readme.root.appendingPathComponent("scripts/setup")
        process.arguments = ["--bogus"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(text == "scripts/setup: unknown argument '--bogus'\n")
    }
}
