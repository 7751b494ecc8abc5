import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

#if canImport(Glibc)
import Glibc
#endif

// Hostile documents: every `src` is read through the document's SCXMLSourcePolicy, and
// each way out of the document's folder is refused with the rule it broke.

private let namespace = #"xmlns="http://www.w3.org/2005/07/scxml" version="1.0""#

/// A valid child document: a hostile `src` that is read gets this far and loads.
private let childText = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><final id="f"/></scxml>"#

/// A temporary tree whose `..` paths reach the files meant:
///
///     root/secret.txt, root/outside.scxml         outside the document's folder
///     root/docs/charts/                            the document's folder
///         child.scxml, pipe (a FIFO), big.scxml (100 MB, sparse),
///         link.scxml -> root/outside.scxml, sub/nested.scxml (invokes ../../../outside.scxml)
///     root/docs/charts2/sibling.scxml              a folder whose name only starts the same
private struct HostileTree {
    let root: URL
    var charts: URL { root.appendingPathComponent("docs/charts") }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("source-policy-\(UUID().uuidString)")
        let manager = FileManager.default
        try manager.createDirectory(
            at: root.appendingPathComponent("docs/charts/sub"),
            withIntermediateDirectories: true
        )
        try manager.createDirectory(at: root.appendingPathComponent("docs/charts2"), withIntermediateDirectories: true)
        try Data("the secret".utf8).write(to: root.appendingPathComponent("secret.txt"))
        try Data(childText.utf8).write(to: root.appendingPathComponent("outside.scxml"))
        try Data(childText.utf8).write(to: root.appendingPathComponent("docs/charts/child.scxml"))
        try Data(childText.utf8).write(to: root.appendingPathComponent("docs/charts2/sibling.scxml"))
        try Data(
            #"<scxml \#(namespace)><state id="n"><invoke src="../../../outside.scxml"/></state></scxml>"#.utf8
        ).write(to: root.appendingPathComponent("docs/charts/sub/nested.scxml"))
        try manager.createSymbolicLink(
            at: root.appendingPathComponent("docs/charts/link.scxml"),
            withDestinationURL: root.appendingPathComponent("outside.scxml")
        )
        guard mkfifo(root.appendingPathComponent("docs/charts/pipe").path, 0o600) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        let big = root.appendingPathComponent("docs/charts/big.scxml")
        _ = manager.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// Every entry under the root with its type and size, and the small files' bytes: what
    /// a load must leave as it was.
    func listing() throws -> [String] {
        let manager = FileManager.default
        let paths = try manager.subpathsOfDirectory(atPath: root.path).sorted()
        return try paths.map { path in
            let full = root.appendingPathComponent(path).path
            let attributes = try manager.attributesOfItem(atPath: full)
            let type = attributes[.type] as? FileAttributeType
            let size = attributes[.size] as? Int ?? -1
            var entry = "\(path) \(type?.rawValue ?? "?") \(size)"
            if type == .typeRegular, size < 4096 {
                entry += " " + String(decoding: try Data(contentsOf: URL(fileURLWithPath: full)), as: UTF8.self)
            }
            return entry
        }
    }

    /// Writes a main document in the charts folder that invokes `src`, and loads it.
    func loadInvoking(_ src: String, sources: SCXMLSourcePolicy = .documentFolder) throws -> SCXMLDocument {
        let main = charts.appendingPathComponent("main.scxml")
        try Data(
            """
            <scxml \(namespace) initial="s">
              <state id="s">
                <invoke src="\(src)"/>
                <transition event="done.invoke" target="t"/>
              </state>
              <state id="t"/>
            </scxml>
            """.utf8
        ).write(to: main)
        defer { try? FileManager.default.removeItem(at: main) }
        return try SCXMLDocument.load(contentsOf: main, sources: sources)
    }
}

/// The rule a load refused `src` for, or nil (recorded as an issue) when it was not refused.
private func refusal(_ load: () throws -> SCXMLDocument, src: String) -> String? {
    do {
        _ = try load()
        Issue.record("<invoke src=\"\(src)\"> loaded")
    } catch let error as SCXMLError {
        guard case .sourceRefused("invoke", "src", src, 3, let rule) = error else {
            Issue.record("expected sourceRefused, got \(error)")
            return nil
        }
        #expect(error.description.hasPrefix("line 3: <invoke src=\"\(src)\"> refused by the source policy: "))
        return rule
    } catch {
        Issue.record("unexpected \(error)")
    }
    return nil
}

@Suite("SCXML source policy: hostile documents", .timeLimit(.minutes(1)))
struct SCXMLSourcePolicyTests {
    @Test(
        "With the default policy, a source outside the document's folder is refused naming the rule",
        arguments: [
            ("../../outside.scxml", "is outside the allowed folders"),
            ("ROOT/outside.scxml", "is outside the allowed folders"),
            ("file://ROOT/outside.scxml", "is outside the allowed folders"),
            ("file:../../outside.scxml", "is outside the allowed folders"),
            ("link.scxml", "link.scxml' resolves to 'ROOT/outside.scxml', which is outside the allowed folders"),
            ("../charts2/sibling.scxml", "is outside the allowed folders"),
            ("/proc/self/environ", "is outside the allowed folders"),
            ("/dev/zero", "is outside the allowed folders"),
            ("pipe", "pipe' is a FIFO; only regular files are read"),
            ("big.scxml", "it is larger than the limit of 1048576 bytes per source"),
            ("http://example.com/child.scxml", "the scheme 'http:' is not read"),
            ("file://elsewhere/child.scxml", "a file: URI naming another host ('elsewhere') is never read"),
        ]
    )
    func hostileSources(_ written: String, _ expected: String) throws {
        let tree = try HostileTree()
        defer { tree.remove() }
        let realRoot = tree.root.resolvingSymlinksInPath().path
        let src = written.replacingOccurrences(of: "ROOT", with: tree.root.path)
        let before = try tree.listing()
        let rule = refusal({ try tree.loadInvoking(src) }, src: src)
        let wanted = expected.replacingOccurrences(of: "ROOT", with: realRoot)
        #expect(rule?.contains(wanted) == true, "\(rule ?? "nil")")
        #expect(rule?.contains("the secret") != true)
        #expect(try tree.listing() == before)
    }

    @Test("A regular file inside the document's folder is read and runs")
    func insideTheFolder() throws {
        let tree = try HostileTree()
        defer { tree.remove() }
        for src in ["child.scxml", "./sub/../child.scxml", "file:child.scxml", "\(tree.charts.path)/child.scxml"] {
            let machine = SCXMLInterpreter(document: try tree.loadInvoking(src), clock: ManualStatechartClock())
            try machine.start()
            #expect(machine.activeAtomicStates == ["t"], "\(src)")
        }
    }

    @Test("An invoked document inherits its parent's policy: its own .. escape is refused")
    func invokedDocumentsInherit() throws {
        let tree = try HostileTree()
        defer { tree.remove() }
        #expect {
            _ = try tree.loadInvoking("sub/nested.scxml")
        } throws: { error in
            let text = "\(error)"
            return text.contains(#"<invoke src="../../../outside.scxml"> refused by the source policy"#)
                && text.contains("is outside the allowed folders")
        }
    }

    @Test("Allowed folders are still bounded: /dev/zero is a device, /proc/self/environ is read only to maxBytes")
    func boundsHoldInAllowedFolders() throws {
        let tree = try HostileTree()
        defer { tree.remove() }
        let devices = SCXMLSourcePolicy.folders([tree.charts, URL(fileURLWithPath: "/dev")])
        let device = refusal({ try tree.loadInvoking("/dev/zero", sources: devices) }, src: "/dev/zero")
        #expect(device == "'/dev/zero' is a character device; only regular files are read")
        // /proc files report a size of 0: the bound counts the bytes read.
        let proc = SCXMLSourcePolicy.folders([tree.charts, URL(fileURLWithPath: "/proc/self")], maxBytes: 16)
        let environ = refusal({ try tree.loadInvoking("/proc/self/environ", sources: proc) }, src: "/proc/self/environ")
        #expect(environ == "it is larger than the limit of 16 bytes per source")
        // The bound is the policy's: the child (about 80 bytes) is refused under 10 and read under the default.
        let small = SCXMLSourcePolicy.folders([tree.charts], maxBytes: 10)
        let child = refusal({ try tree.loadInvoking("child.scxml", sources: small) }, src: "child.scxml")
        #expect(child == "it is larger than the limit of 10 bytes per source")
        _ = try tree.loadInvoking("child.scxml", sources: .folders([tree.charts]))
    }

    @Test("A folder the program allows opens the files under it, and only those")
    func allowedFolders() throws {
        let tree = try HostileTree()
        defer { tree.remove() }
        let policy = SCXMLSourcePolicy.folders([tree.charts, tree.root.appendingPathComponent("docs/charts2")])
        _ = try tree.loadInvoking("../charts2/sibling.scxml", sources: policy)
        let rule = refusal(
            { try tree.loadInvoking("../../outside.scxml", sources: policy) },
            src: "../../outside.scxml"
        )
        #expect(rule?.contains("is outside the allowed folders") == true)
        // The document's own folder is allowed only when listed.
        let elsewhere = SCXMLSourcePolicy.folders([tree.root.appendingPathComponent("docs/charts2")])
        let own = refusal({ try tree.loadInvoking("child.scxml", sources: elsewhere) }, src: "child.scxml")
        #expect(own?.contains("is outside the allowed folders") == true)
    }

    @Test("A document given as text reads nothing unless the program gives a policy")
    func textReadsNothing() throws {
        let tree = try HostileTree()
        defer { tree.remove() }
        let src = "\(tree.charts.path)/child.scxml"
        let text = "<scxml \(namespace) initial=\"s\">\n<state id=\"s\">\n<invoke src=\"\(src)\"/></state></scxml>"
        for policy in [SCXMLSourcePolicy.none, .documentFolder] {
            let rule = refusal({ try SCXMLDocument(xml: text, sources: policy) }, src: src)
            #expect(rule?.hasPrefix("the source policy allows no sources") == true)
        }
        _ = try SCXMLDocument(xml: text, sources: .folders([tree.charts]))
        _ = try SCXMLDocument(data: Data(text.utf8), sources: .folders([tree.charts]))
    }

    @Test("A resolver answers every name, bounded by maxBytes; what it throws refuses the source")
    func resolver() throws {
        let text = { (src: String) in
            "<scxml \(namespace) initial=\"s\">\n<state id=\"s\">\n<invoke src=\"\(src)\"/>"
                + "<transition event=\"done.invoke\" target=\"t\"/></state><state id=\"t\"/></scxml>"
        }
        struct Unknown: Error {}
        let policy = SCXMLSourcePolicy.resolver(maxBytes: 200) { uri, base in
            #expect(base == nil)
            switch uri {
            case "mem:child": return Data(childText.utf8)
            case "mem:huge": return Data(count: 201)
            default: throw Unknown()
            }
        }
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument(xml: text("mem:child"), sources: policy),
            clock: ManualStatechartClock()
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["t"])
        let huge = refusal({ try SCXMLDocument(xml: text("mem:huge"), sources: policy) }, src: "mem:huge")
        #expect(huge == "it is larger than the limit of 200 bytes per source")
        let other = refusal({ try SCXMLDocument(xml: text("mem:other"), sources: policy) }, src: "mem:other")
        #expect(other?.hasPrefix("the program's resolver refused it") == true)
    }

    @Test("A document reaches no network and no session the program does not run: such sends raise errors")
    func noNetworkNoStrangers() throws {
        let machine = SCXMLInterpreter(
            document: try scxmlDocument(
                """
                <state id="s">
                  <onentry><send event="x" target="http://127.0.0.1:9/"/></onentry>
                  <transition event="error.execution" target="t"/>
                </state>
                <state id="t">
                  <onentry><send event="y" target="#_scxml_not-a-session"/></onentry>
                  <transition event="error.communication" target="u"/>
                </state>
                <state id="u"/>
                """
            ),
            clock: ManualStatechartClock()
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["u"], "\(machine.trace)")
    }

    @Test("The policy's read can be called by the program, with the same rules")
    func readDirectly() throws {
        let tree = try HostileTree()
        defer { tree.remove() }
        let policy = SCXMLSourcePolicy.folders([tree.charts])
        #expect(try policy.read("child.scxml", relativeTo: tree.charts) == Data(childText.utf8))
        #expect(throws: SCXMLSourcePolicy.Refusal.self) { try policy.read("../../secret.txt", relativeTo: tree.charts) }
    }
}
