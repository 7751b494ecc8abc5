import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One test of the W3C SCXML 1.0 Implementation Report Plan, as its `manifest.xml` lists
/// it: `<test id="403" conformance="mandatory" manual="false">` with one `<start>` per
/// document the test runs and one `<dep>` per file they read or invoke.
public struct W3CTest: Sendable, Hashable {
    /// Whether an implementation must pass the test.
    public enum Conformance: String, Sendable, Hashable {
        /// Every conforming processor passes it.
        case mandatory
        /// It tests an optional feature (a data model, the Basic HTTP Event I/O Processor).
        case optional
    }

    /// The test's number (`"144"`).
    public let id: String
    /// `conformance`.
    public let conformance: Conformance
    /// `manual="true"`: a person has to judge the outcome (the test is not run).
    public let isManual: Bool
    /// The section of the specification the test's assertion is in (`"6.4"`, `"D.2"`).
    public let specSection: String
    /// The documents the test runs, by file name (`test403a.txml`); each must reach
    /// `pass` for the test to pass. Usually one.
    public let documents: [String]
    /// The other files the documents use, by file name (`test239sub1.txml`, `test446.txt`).
    public let dependencies: [String]

    /// A test.
    public init(
        id: String,
        conformance: Conformance,
        isManual: Bool,
        specSection: String,
        documents: [String],
        dependencies: [String] = []
    ) {
        self.id = id
        self.conformance = conformance
        self.isManual = isManual
        self.specSection = specSection
        self.documents = documents
        self.dependencies = dependencies
    }

    /// `test<id>`, as reports name it.
    public var name: String { "test" + id }
}

extension W3CTest {
    /// The tests of the manifest at `url`, in the manifest's order.
    /// - Throws: ``W3CConformanceError`` when the file cannot be read, is not XML, or
    ///   lists a test without an id or a document.
    public static func manifest(contentsOf url: URL) throws(W3CConformanceError) -> [W3CTest] {
        let root = try W3CXMLElement.read(url)
        var tests: [W3CTest] = []
        for assertion in root.children where assertion.name == "assert" {
            for test in assertion.children where test.name == "test" {
                let uris = { (kind: String) in
                    test.children.filter { $0.name == kind }.compactMap { $0.attributes["uri"] }
                        .map { ($0 as NSString).lastPathComponent }
                }
                guard let id = test.attributes["id"], !uris("start").isEmpty else {
                    throw W3CConformanceError("\(url.path): a <test> without an id or a <start> document")
                }
                tests.append(
                    W3CTest(
                        id: id,
                        conformance: test.attributes["conformance"] == "optional" ? .optional : .mandatory,
                        isManual: test.attributes["manual"] == "true",
                        specSection: assertion.attributes["specnum"] ?? "",
                        documents: uris("start"),
                        dependencies: uris("dep")
                    )
                )
            }
        }
        return tests
    }
}

/// Why the W3C tests could not be read, converted or run: the message names the file.
public struct W3CConformanceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}

/// An element of a small XML file (the manifest, a converted test), read whole with
/// Foundation's `XMLParser`, without namespace processing: names are as written
/// (`conf:pass`).
struct W3CXMLElement {
    var name: String
    var attributes: [String: String]
    var children: [W3CXMLElement] = []

    /// The root element of the XML file at `url`.
    static func read(_ url: URL) throws(W3CConformanceError) -> W3CXMLElement {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw W3CConformanceError("\(url.path): cannot be read (\(error.localizedDescription))")
        }
        let parser = XMLParser(data: data)
        let builder = Builder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), let root = builder.stack.first else {
            throw W3CConformanceError("\(url.path): line \(parser.lineNumber): not well-formed XML")
        }
        return root
    }

    /// Builds the tree as the parser reads it.
    private final class Builder: NSObject, XMLParserDelegate {
        /// The open elements, the root first; the root stays when it closes.
        var stack: [W3CXMLElement] = []

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            stack.append(W3CXMLElement(name: elementName, attributes: attributes))
        }

        func parser(
            _ parser: XMLParser,
            didEndElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            guard stack.count > 1 else { return }
            let closed = stack.removeLast()
            stack[stack.count - 1].children.append(closed)
        }
    }

    /// The element and every element inside it, in document order, each with its parent
    /// (nil for this one).
    func descendants(parent: W3CXMLElement? = nil) -> [(element: W3CXMLElement, parent: W3CXMLElement?)] {
        [(self, parent)] + children.flatMap { $0.descendants(parent: self) }
    }
}
