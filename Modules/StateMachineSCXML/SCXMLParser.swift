import Foundation
import StateMachineHierarchy
import StateMachineSupport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element as read by ``SCXMLParser``: name, attributes, line, element children
/// and whether it held non-whitespace text.
struct SCXMLElement: Sendable {
    /// The local name of an element in the SCXML namespace (or in none); the qualified
    /// name, prefix and all, of an element of another namespace, which no rule accepts.
    var name: String
    var attributes: SCXMLAttributes
    /// Where the element's start tag is.
    var position: SCXMLPosition
    var children: [SCXMLElement] = []
    /// The element's own character data (CDATA sections included), empty when it is only
    /// whitespace: the body of a `<script>`, the inline value of `<data>`, `<assign>` and
    /// `<content>`.
    var text = ""
    /// Whether the element holds text other than whitespace.
    var hasText: Bool { !text.isEmpty }
    /// The line of the element's start tag, as load errors name it.
    var line: Int { position.line }

    /// An element `name` with `attributes`, read at `position`.
    init(name: String, attributes: SCXMLAttributes, position: SCXMLPosition) {
        self.name = name
        self.attributes = attributes
        self.position = position
    }

    /// The element written back as XML: its name, attributes (sorted), text and children
    /// (the text first: the tree does not keep where text stood between children). Inline
    /// XML content (`<assign>`, `<data>`, `<content>`) becomes this text.
    var markup: String {
        var result = "<" + name
        for key in attributes.keys.sorted() {
            result += " \(key)=\"\(markupEscaped(attributes[key]!))\""
        }
        guard !text.isEmpty || !children.isEmpty else { return result + "/>" }
        result += ">" + markupEscaped(text, inAttribute: false) + children.map(\.markup).joined()
        return result + "</\(name)>"
    }
}

/// An element's attributes. An element has a few, so they are kept as (name, value) pairs
/// in one small array rather than in a dictionary each: a document of 10,000 states has some
/// 30,000 elements, and their tree is the largest thing a load holds.
struct SCXMLAttributes: Sendable, ExpressibleByDictionaryLiteral {
    private var pairs: [(name: String, value: String)]

    /// The attributes `dictionary` holds (XML gives an element no attribute twice).
    init(_ dictionary: [String: String]) {
        pairs = dictionary.map { (name: $0.key, value: $0.value) }
    }

    /// The attributes written as a literal (`[:]` for none).
    init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The value of the attribute `name`, nil when the element has none.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The attributes' names, in no particular order.
    var keys: [String] { pairs.map(\.name) }
}

/// Reads XML into an ``SCXMLElement`` tree with Foundation's `XMLParser`.
///
/// Foundation's parser traps on some inputs (bytes that are not UTF-8 in names, comments
/// and processing instructions; a processing instruction without data), so the bytes are
/// checked first: a document must be UTF-8 (a byte-order mark is allowed), and every `<?`
/// but the leading XML declaration's is blanked out (SCXML gives processing instructions no
/// meaning; lines and columns stay as they were). Elements may nest at most
/// ``SCXMLDocument/maxElementDepth`` deep.
enum SCXMLParser {
    static func parse(_ data: Data) throws(SCXMLError) -> SCXMLElement {
        // Foundation reports a blank document as one that ends too early.
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            throw .malformedXML(line: 1, column: 1, reason: "the document is empty")
        }
        let text = try sanitized(data)
        let parser = XMLParser(data: text)
        let delegate = Delegate(parser: parser)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let error = delegate.error {
            throw withEscapingHint(
                error,
                in: text,
                openElement: delegate.openElementAtError,
                code: delegate.errorCode
            )
        }
        guard ok, let root = delegate.root else {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw withEscapingHint(
                .malformedXML(
                    line: max(parser.lineNumber, 1),
                    column: max(parser.columnNumber, 1),
                    reason: delegate.root == nil && code == 0
                        ? "the document has no element" : Self.describe(code, open: delegate.openElement, root: nil)
                ),
                in: text,
                openElement: delegate.openElement,
                code: code
            )
        }
        return root
    }

    /// `data` with every `<?` but the leading XML declaration's turned into spaces, through
    /// the next `?>` (just the `<?` when none follows), or an error naming the line and
    /// column of the first byte that is not UTF-8.
    ///
    /// Foundation's parser traps on a processing instruction without data. Blanking each
    /// one wherever it stands (in comments and CDATA too) keeps any from reaching it, also
    /// in a malformed document where the XML parser, recovering, reads a comment otherwise
    /// than a scan would. SCXML gives processing instructions no meaning. Lines and columns
    /// stay as they were.
    static func sanitized(_ data: Data) throws(SCXMLError) -> Data {
        // Read in place: the usual document has nothing to blank and is handed on as it is,
        // without a copy (a 1 MB document was copied twice here, a tenth of what loading a
        // 10,000-state chart holds at its peak).
        let (failure, blanks) = data.withUnsafeBytes { scan($0) }
        if let failure { throw failure }
        guard !blanks.isEmpty else { return data }
        var bytes = [UInt8](data)
        for range in blanks {
            for position in range where bytes[position] != UInt8(ascii: "\n") {
                bytes[position] = UInt8(ascii: " ")
            }
        }
        return Data(bytes)
    }

    /// What ``sanitized(_:)`` finds in `bytes`: the first byte that is not UTF-8 (as an
    /// error naming its line and column), else the ranges to blank.
    private static func scan(_ bytes: UnsafeRawBufferPointer) -> (SCXMLError?, [Range<Int>]) {
        var line = 1
        var column = 1
        var index = 0
        // A byte-order mark is allowed; it is not a column.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let declaration = index
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            switch byte {
            case 0x00..<0x80: length = 1
            case 0xC2..<0xE0: length = 2
            case 0xE0..<0xF0: length = 3
            case 0xF0..<0xF5: length = 4
            default: return (notUTF8(line, column), [])
            }
            guard index + length <= bytes.count else { return (notUTF8(line, column), []) }
            var scalar = UInt32(byte) & [0x7F, 0x1F, 0x0F, 0x07][length - 1]
            for offset in 1..<length {
                let continuation = bytes[index + offset]
                guard continuation & 0xC0 == 0x80 else { return (notUTF8(line, column), []) }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
            let minimum: UInt32 = [0, 0x80, 0x800, 0x10000][length - 1]
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                return (notUTF8(line, column), [])
            }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        // Every `<?` but the declaration's, through the next `?>` when there is one.
        var blanks: [Range<Int>] = []
        index = declaration
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?"),
                !(index == declaration && isDeclaration(bytes[index...]))
            else {
                index += 1
                continue
            }
            var end = index + 2
            while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) {
                end += 1
            }
            end = end + 1 < bytes.count ? end + 2 : index + 2
            blanks.append(index..<end)
            index = end
        }
        return (nil, blanks)
    }

    /// Whether `bytes` start with an XML declaration (`<?xml` and a space).
    private static func isDeclaration(_ bytes: Slice<UnsafeRawBufferPointer>) -> Bool {
        let prefix = Array("<?xml".utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return false }
        return [UInt8(ascii: " "), 0x09, 0x0A, 0x0D].contains(bytes[bytes.startIndex + prefix.count])
    }

    private static func notUTF8(_ line: Int, _ column: Int) -> SCXMLError {
        .malformedXML(line: line, column: column, reason: "the document is not valid UTF-8 here")
    }

    /// The SCXML namespace; elements in it (or in no namespace) are read by local name.
    static let namespace = "http://www.w3.org/2005/07/scxml"

    /// What libxml2's error `code` (the code of Foundation's parser errors on Linux) means,
    /// where `open` is the innermost element not closed yet and `root` the root element once
    /// closed. Foundation reports one code, 5, both for a document that ends inside an
    /// element (an unclosed `<scxml>`, or a comment or CDATA section that swallowed the
    /// rest) and for content after the root element; which one it is shows from the
    /// elements read so far.
    static func describe(_ code: Int, open: String? = nil, root: String? = nil) -> String {
        switch code {
        case 3: "a start tag ('<') was expected"
        case 4: "the document does not start with an element (such as <scxml>): it is not XML"
        case 5:
            if let open {
                "the document ends before <\(open)> is closed (an element, a comment or a CDATA section is not closed)"
            } else if let root {
                "there is content after the root element <\(root)>, which must be the only one"
            } else {
                "the document has no element"
            }
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
            guard error == nil else { return }
            guard stack.count < SCXMLDocument.maxElementDepth else {
                error = .invalidStructure(
                    reason: "elements nest more than \(SCXMLDocument.maxElementDepth) deep",
                    line: max(parser.lineNumber, 1)
                )
                parser.abortParsing()
                return
            }
            let inSCXML = namespaceURI == nil || namespaceURI == "" || namespaceURI == SCXMLParser.namespace
            stack.append(
                SCXMLElement(
                    name: inSCXML ? elementName : (qName ?? elementName),
                    attributes: SCXMLAttributes(attributeDict),
                    position: SCXMLPosition(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
                )
            )
        }

        func parser(
            _ parser: XMLParser,
            didEndElement elementName: String,
            namespaceURI: String?,
            qualifiedName qName: String?
        ) {
            guard error == nil, var element = stack.popLast() else { return }
            if element.text.allSatisfy(\.isWhitespace) { element.text = "" }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty { stack[stack.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self) }
        }

        /// The name of the innermost element not closed yet.
        var openElement: String? { stack.last?.name }

        /// The innermost element not closed yet when the first error was reported, and
        /// libxml2's code for that error (0 for an error of ours).
        var openElementAtError: String?
        var errorCode = 0

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil {
                openElementAtError = openElement
                errorCode = (parseError as NSError).code
                error = .malformedXML(
                    line: max(parser.lineNumber, 1),
                    column: max(parser.columnNumber, 1),
                    reason: SCXMLParser.describe((parseError as NSError).code, open: openElement, root: root?.name)
                )
            }
        }
    }
}
