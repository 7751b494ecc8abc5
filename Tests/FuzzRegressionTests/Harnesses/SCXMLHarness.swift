import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML

/// Fuzz harness: an SCXML document from arbitrary bytes, with the null or the ECMAScript
/// data model (its scripts bounded per call). When it loads, it runs (on a
/// manual clock) through its own events and some it does not know, and its snapshot must
/// survive JSON and be accepted by a fresh machine. Every `src` and `srcexpr` goes through a
/// policy rooted at an empty temporary folder, wrapped so that a source read from anywhere
/// (the folder is empty, so any read at all came from outside it) stops the run, and the
/// folder must stay empty. Shared by the `Fuzz` package's `FuzzSCXML` target and the
/// regression tests (the same file, linked).
enum SCXMLHarness {
    /// The empty folder the documents' sources are confined to (relative names start there).
    static let sandbox: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-scxml-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Removed when the process exits (libFuzzer ends with exit, as do the tests).
        atexit { try? FileManager.default.removeItem(at: SCXMLHarness.sandbox) }
        return folder
    }()

    /// The policy the documents load with: the folder's, through a wrapper that checks what
    /// it returns.
    static let sources: SCXMLSourcePolicy = {
        let confined = SCXMLSourcePolicy.folders([sandbox])
        let folder = sandbox
        return SCXMLSourcePolicy.resolver { uri, base in
            let bytes = try confined.read(uri, relativeTo: base ?? folder)
            preconditionFailure(
                "a source was read from outside the empty folder \(folder.path): '\(uri)' (\(bytes.count) bytes)"
            )
        }
    }()

    static func run(_ data: Data) {
        defer {
            precondition(
                (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path)) == [],
                "the sources' folder changed"
            )
        }
        guard let document = try? SCXMLDocument(data: data, dataModel: .ecmascript, sources: sources) else { return }
        _ = document.mermaid()
        _ = document.dot()
        let clock = ManualStatechartClock()
        let machine = SCXMLInterpreter(document: document, clock: clock)
        try? machine.start()
        for event in document.events.prefix(8) + ["error.execution", "done.invoke.x", "unknown"] {
            try? machine.send(event)
            clock.advance(by: .milliseconds(500))
        }
        // A variable JSON cannot hold is the one reason a snapshot fails, and says so.
        guard let snapshot = try? machine.snapshot() else { return }
        let data = try! JSONEncoder().encode(snapshot)  // a snapshot is always encodable
        let decoded = try! JSONDecoder().decode(StatechartSnapshot.self, from: data)
        precondition(decoded == snapshot, "a snapshot changed through JSON")
        do {
            let restored = try SCXMLInterpreter(document: document, restoring: decoded, clock: ManualStatechartClock())
            precondition(
                (try? restored.snapshot())?.configuration == snapshot.configuration,
                "a restored machine has another configuration"
            )
        } catch {
            preconditionFailure("a machine refused its own snapshot: \(error)")
        }
    }
}
