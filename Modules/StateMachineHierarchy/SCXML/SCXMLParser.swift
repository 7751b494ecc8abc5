import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element as read by ``SCXMLParser``: name, attributes, line, element children
/// and whether it held non-whitespace text.
struct SCXMLElement: Sendable {
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
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        guard ok, let root = delegate.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown parser error"
            throw .malformedXML(line: max(parser.lineNumber, 1), reason: reason)
        }
        return root
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
            stack.append(SCXMLElement(name: elementName, attributes: attributeDict, line: max(parser.lineNumber, 1)))
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
                error = .malformedXML(line: max(parser.lineNumber, 1), reason: "\(parseError.localizedDescription)")
            }
        }
    }
}
