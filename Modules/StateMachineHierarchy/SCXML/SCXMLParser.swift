import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element as read by ``SCXMLParser``: name, attributes, line, element children
/// and whether it held non-whitespace text.
struct SCXMLElement: Sendable {
    /// The local name of an element in the SCXML namespace (or in none); the qualified
    /// name, prefix and all, of an element of another namespace, which no rule accepts.
    var name: String
    var attributes: [String: String]
    var line: Int
    var children: [SCXMLElement] = []
    var hasText = false
}

/// Reads XML into an ``SCXMLElement`` tree with Foundation's `XMLParser`.
enum SCXMLParser {
    static func parse(_ data: Data) throws(SCXMLError) -> SCXMLElement {
        let parser = XMLParser(data: data)
        let delegate = Delegate(parser: parser)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        guard ok, let root = delegate.root else {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw .malformedXML(
                line: max(parser.lineNumber, 1),
                column: max(parser.columnNumber, 1),
                reason: delegate.root == nil && code == 0 ? "the document has no element" : Self.describe(code)
            )
        }
        return root
    }

    /// The SCXML namespace; elements in it (or in no namespace) are read by local name.
    static let namespace = "http://www.w3.org/2005/07/scxml"

    /// What libxml2's error `code` (the code of Foundation's parser errors on Linux) means.
    static func describe(_ code: Int) -> String {
        switch code {
        case 3: "a start tag ('<') was expected"
        case 4: "the document is empty"
        case 5: "there is content after the root element"
        case 6, 7, 8: "a character reference is not valid"
        case 9: "a character is not allowed in XML"
        case 22, 23: "an entity reference is not complete (expected a name and ';')"
        case 26, 27: "an entity is used but not declared"
        case 31, 32: "the document's encoding is not supported"
        case 38: "'<' is not allowed in an attribute value"
        case 39: "an attribute value must be quoted"
        case 40: "an attribute value is not closed (missing quote)"
        case 41: "an attribute has no value"
        case 42: "an attribute is given twice"
        case 43, 44: "a quoted literal is not closed"
        case 45: "a comment is not closed ('-->')"
        case 46, 47: "a processing instruction is not closed ('?>')"
        case 61: "the document type declaration is not closed"
        case 63: "a CDATA section is not closed (']]>')"
        case 64: "a processing instruction may not be named 'xml' here"
        case 65: "a space is required here"
        case 68: "a name is required here"
        case 73: "'>' was expected to close a tag"
        case 74: "'</' was expected"
        case 75: "'=' was expected after an attribute name"
        case 76: "an end tag does not match its start tag"
        case 77: "an element is not closed before the end of the document"
        case 80: "'--' is not allowed inside a comment"
        case 81: "the bytes are not valid in the document's encoding"
        case 85: "the document's elements are not balanced"
        case 86: "there is extra content at the end of the document"
        case 89: "an entity refers to itself"
        case 201, 202, 203: "a namespace prefix is not declared or not valid"
        default: "XML error \(code)"
        }
    }

    /// Collects elements; used only inside one `parse` call on one thread.
    private final class Delegate: NSObject, XMLParserDelegate {
        unowned let parser: XMLParser
        var stack: [SCXMLElement] = []
        var root: SCXMLElement?
        var error: SCXMLError?

        init(parser: XMLParser) { self.parser = parser }

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            let inSCXML = namespaceURI == nil || namespaceURI == "" || namespaceURI == SCXMLParser.namespace
            stack.append(
                SCXMLElement(
                    name: inSCXML ? elementName : (qName ?? elementName),
                    attributes: attributeDict,
                    line: max(parser.lineNumber, 1)
                )
            )
        }

        func parser(
            _ parser: XMLParser,
            didEndElement elementName: String,
            namespaceURI: String?,
            qualifiedName qName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty, string.contains(where: { !$0.isWhitespace }) {
                stack[stack.count - 1].hasText = true
            }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if !stack.isEmpty { stack[stack.count - 1].hasText = true }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil {
                error = .malformedXML(
                    line: max(parser.lineNumber, 1),
                    column: max(parser.columnNumber, 1),
                    reason: SCXMLParser.describe((parseError as NSError).code)
                )
            }
        }
    }
}
