import StateMachineHierarchy

/// Why an SCXML document could not be loaded. (A running document fails with
/// `StatechartError`, like every chart.)
///
/// Every case names the element, attribute, identifier or transitions involved and, for
/// load errors, the 1-based line of the offending element in the document.
public enum SCXMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The text is not well-formed XML; `reason` says what is wrong, in words.
    case malformedXML(line: Int, column: Int, reason: String)
    /// The root element is not `<scxml>`.
    case notSCXML(element: String, line: Int)
    /// An element that is not SCXML, or not allowed where it is.
    case unsupportedElement(element: String, line: Int)
    /// An attribute the subset does not support on this element.
    case unsupportedAttribute(element: String, attribute: String, line: Int)
    /// An attribute value the subset does not support (a `cond` other than `In('id')`,
    /// a `type` other than `internal`/`external`, `shallow`/`deep`, ...).
    case unsupportedValue(element: String, attribute: String, value: String, line: Int)
    /// An expression (`cond`, `<log expr>`) outside what the null data model can state, or
    /// a script or location the data model cannot compile (`attribute` is `<script>` for a
    /// script's body); `reason` says what was expected where, or the data model's message.
    case invalidExpression(element: String, attribute: String, value: String, reason: String, line: Int)
    /// A required attribute is missing.
    case missingAttribute(element: String, attribute: String, line: Int)
    /// Two states share an `id`.
    case duplicateID(id: String, line: Int)
    /// A `target`, `initial` or `In()` names no state of the document.
    case unknownState(id: String, element: String, line: Int)
    /// The document's structure breaks an SCXML rule (text explains which).
    case invalidStructure(reason: String, line: Int)
    /// An element (or attribute, when given) that needs a data model, in a document of
    /// the null data model.
    case needsDataModel(element: String, attribute: String?, line: Int)
    /// The document declares a data model (`datamodel="ecmascript"`) that was not given
    /// when loading it, and the element at `line` needs more than the null data model
    /// (a document that needs no more runs with the null one): load it with that
    /// ``SCXMLDataModel`` (`.ecmascript` comes with the `StateMachineECMAScript` product).
    case dataModelUnavailable(name: String, line: Int)
    /// A source (`<data src>`, `<script src>`, `<invoke src>`) the document's
    /// ``SCXMLSourcePolicy`` refused: `rule` says which rule it broke (outside the allowed
    /// folders, not a regular file, too large, an unknown scheme...). The message never
    /// quotes what the source holds.
    case sourceRefused(element: String, attribute: String, value: String, line: Int, rule: String)
    /// A `delay` that is not a CSS2 time (`2s`, `500ms`, `1.5s`, `0s`).
    case invalidDelay(element: String, value: String, line: Int)

    /// A human-readable message.
    public var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read SCXML file '\(path)': \(reason)"
        case let .malformedXML(line, column, reason): "line \(line), column \(column): malformed XML: \(reason)"
        case let .notSCXML(element, line): "line \(line): root element is <\(element)>, expected <scxml>"
        case let .unsupportedElement(element, line):
            "line \(line): <\(element)> is not supported here"
        case let .unsupportedAttribute(element, attribute, line):
            "line \(line): attribute '\(attribute)' on <\(element)> is not supported"
        case let .unsupportedValue(element, attribute, value, line):
            "line \(line): \(attribute)=\"\(value)\" on <\(element)> is not supported"
        case let .invalidExpression(element, "<script>", _, reason, line):
            "line \(line): <\(element)>: \(reason)"
        case let .invalidExpression(element, attribute, value, reason, line):
            "line \(line): \(attribute)=\"\(value)\" on <\(element)>: \(reason)"
        case let .missingAttribute(element, attribute, line):
            "line \(line): <\(element)> needs the attribute '\(attribute)'"
        case let .duplicateID(id, line): "line \(line): duplicate state id '\(id)'"
        case let .unknownState(id, element, line): "line \(line): <\(element)> refers to unknown state '\(id)'"
        case let .invalidStructure(reason, line): "line \(line): \(reason)"
        case let .needsDataModel(element, attribute?, line):
            "line \(line): attribute '\(attribute)' on <\(element)> needs a data model; this document has the null data model (declare datamodel=\"ecmascript\" on <scxml>, or load it with dataModel: .ecmascript)"
        case let .needsDataModel(element, nil, line):
            "line \(line): <\(element)> needs a data model; this document has the null data model (declare datamodel=\"ecmascript\" on <scxml>, or load it with dataModel: .ecmascript)"
        case let .dataModelUnavailable(name, line) where name == "ecmascript":
            "line \(line): datamodel=\"ecmascript\" needs the ECMAScript data model: depend on the StateMachineECMAScript product and load the document with `dataModel: .ecmascript`"
        case let .dataModelUnavailable(name, line):
            "line \(line): datamodel=\"\(name)\" is not a data model this program was given (null and ecmascript are)"
        case let .sourceRefused(element, attribute, value, line, rule):
            "line \(line): <\(element) \(attribute)=\"\(value)\"> refused by the source policy: \(rule)"
        case let .invalidDelay(element, value, line):
            "line \(line): delay=\"\(value)\" on <\(element)> is not a CSS2 time (such as 2s, 500ms, 1.5s or 0s)"
        }
    }
}

/// Why a session's data could not be read as JSON values (``SCXMLInterpreter/snapshot()``,
/// ``SCXMLInterpreter/variables()``): the data model's message, naming the variable.
public struct SCXMLDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the variable (`variable 'f' holds a function, ...`).
    public let message: String

    /// An error with `message`.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
