import StateMachineHierarchy

/// A data model that SCXML documents can declare (`<scxml datamodel="...">`): what
/// evaluates their expressions, conditions, locations and scripts.
///
/// A document with `datamodel="null"`, or without a `datamodel` attribute loaded without a
/// data model, runs with the null data model, built in: `In('id')` conditions, quoted
/// literals in `<log expr>`, and `idlocation` slots. Other data models come from their own
/// products, so that a program that never loads such a document never links their engine:
/// the `StateMachineECMAScript` product adds `SCXMLDataModel.ecmascript`. Pass the data
/// model when loading; a document without a `datamodel` attribute then runs with it too (W3C
/// leaves that default to the platform, and SCION and uSCXML choose ECMAScript):
///
/// ```swift
/// let document = try SCXMLDocument(xml: text, dataModel: .ecmascript)
/// ```
public struct SCXMLDataModel: Sendable {
    /// The implementation.
    package let engine: any SCXMLDataModelEngine

    /// A data model served by `engine`.
    package init(engine: any SCXMLDataModelEngine) {
        self.engine = engine
    }

    /// The value of the `datamodel` attribute that selects it (`"null"`, `"ecmascript"`).
    public var name: String { engine.name }

    /// The null data model (SCXML 1.0, section B.1): what `datamodel="null"` declares, and
    /// what a document without a `datamodel` attribute runs with when it is loaded without
    /// a data model.
    public static let null = SCXMLDataModel(engine: SCXMLNullDataModel())
}

// MARK: The seam

/// What implements a data model: compiles a document's scripts once, when it loads, into
/// a form every session of the document shares.
package protocol SCXMLDataModelEngine: Sendable {
    /// The `datamodel` attribute's value for this model.
    var name: String { get }
    /// Compiles the document's scripts, in the order given; their positions in `sources`
    /// are the numbers sessions evaluate them by.
    /// - Throws: a failure whose `index` names the source that does not compile.
    func compile(_ sources: [SCXMLScriptSource]) throws(SCXMLScriptFailure) -> any SCXMLCompiledScripts
}

/// One script of a document, as written, with where it is.
package struct SCXMLScriptSource: Sendable, Hashable {
    /// What the text is.
    package enum Kind: Sendable, Hashable {
        /// An expression whose value is used (`expr`, `eventexpr`, `<content expr>`...).
        case value
        /// A boolean expression (`cond`).
        case condition
        /// A location: what can be assigned (`<assign location>`, `idlocation`,
        /// `<foreach item index>`, `namelist` entries).
        case location
        /// A script (`<script>`): statements, no value.
        case script
    }

    /// What the text is.
    package var kind: Kind
    /// The column of the element's start tag (kept as 32 bits beside `kind`, where the
    /// struct had padding: a document's scripts take no more memory for it).
    private var storedColumn: Int32
    /// The text as written in the document.
    package var text: String
    /// The line of the element.
    package var line: Int
    /// The element it belongs to (`transition`, `assign`...).
    package var element: String
    /// The attribute that holds it (`cond`, `expr`...), or `<script>` for a script's body.
    package var attribute: String

    /// The column of the element's start tag, as the XML parser reports it (the position just
    /// past its `>`); 0 when unknown.
    package var column: Int { Int(storedColumn) }

    /// A source; `column` is where the element's start tag is on `line` (0 when unknown).
    package init(kind: Kind, text: String, line: Int, column: Int = 0, element: String, attribute: String) {
        self.kind = kind
        storedColumn = Int32(clamping: column)
        self.text = text
        self.line = line
        self.element = element
        self.attribute = attribute
    }

    /// Where the source is, as errors name it: `line 12: cond="x > 1" on <transition>`
    /// (a script's body is `<script> at line 12`).
    package var location: String {
        if attribute == "<script>" { return "line \(line): <script>" }
        return "line \(line): \(attribute)=\"\(text)\" on <\(element)>"
    }
}

/// Why a script did not compile or run: the data model's own message (an ECMAScript
/// engine's `TypeError: ...`), and for compile errors, which source.
package struct SCXMLScriptFailure: Error, Sendable, Equatable {
    /// The position of the failing source in what `compile` was given (compile errors).
    package var index: Int?
    /// The data model's message.
    package var message: String

    /// A failure.
    package init(index: Int? = nil, message: String) {
        self.index = index
        self.message = message
    }
}

/// A document's compiled scripts, shared by all its sessions.
package protocol SCXMLCompiledScripts: Sendable {
    /// A session's own data, with the system variables `host` gives.
    /// - Throws: when the data model cannot make one (out of memory).
    func makeSession(_ host: SCXMLDataModelHost) throws(SCXMLScriptFailure) -> any SCXMLDataModelSession
}

/// What a session's data model learns from the interpreter it serves.
package struct SCXMLDataModelHost: Sendable {
    /// `_sessionid`.
    package var sessionID: String
    /// `_name` (the `<scxml name>`, null when there is none).
    package var name: String?
    /// `_ioprocessors`.
    package var ioProcessors: SCXMLValue
    /// `In(id)`: whether the state `id` is active in the running step.
    package var isActive: @Sendable (String) -> Bool

    /// A host.
    package init(
        sessionID: String,
        name: String?,
        ioProcessors: SCXMLValue,
        isActive: @escaping @Sendable (String) -> Bool
    ) {
        self.sessionID = sessionID
        self.name = name
        self.ioProcessors = ioProcessors
        self.isActive = isActive
    }
}

/// One session's data. Its methods are called by one thread at a time (the interpreter
/// serialises them behind its lock), never concurrently, and never re-entered: none takes
/// a callback into the interpreter's content (`In()` only reads the configuration). A
/// failure is reported to the document as `error.execution`, and the session stays usable.
package protocol SCXMLDataModelSession: AnyObject {
    /// The value of the expression `script` (a `.value` source).
    func evaluate(_ script: Int) throws(SCXMLScriptFailure) -> SCXMLValue
    /// The truth of the condition `script` (a `.condition` source).
    func isTrue(_ script: Int) throws(SCXMLScriptFailure) -> Bool
    /// Assigns the value of the expression `expression` to `location`, keeping the data
    /// model's own value (an object stays the same object).
    func assign(_ location: Int, from expression: Int) throws(SCXMLScriptFailure)
    /// Assigns `value` to `location`.
    func assign(_ location: Int, value: SCXMLValue) throws(SCXMLScriptFailure)
    /// Runs the script `script` (a `.script` source).
    func run(_ script: Int) throws(SCXMLScriptFailure)
    /// Declares the variable `id` (`<data>`) with the value of `expression`, or undefined
    /// when nil.
    func declare(_ id: String, from expression: Int?) throws(SCXMLScriptFailure)
    /// Declares the variable `id` with `value`.
    func declare(_ id: String, value: SCXMLValue) throws(SCXMLScriptFailure)
    /// `<foreach>` begins: evaluates the array expression `array` and keeps a shallow copy
    /// of it on the session's stack of iterations (foreach elements nest); returns its
    /// length. Fails when the value is not an array.
    func beginForEach(array: Int) throws(SCXMLScriptFailure) -> Int
    /// Assigns the element at `position` of the innermost iteration's copy to `item`, and
    /// `position` to `index` (if any).
    func assignForEach(position: Int, item: Int, index: Int?) throws(SCXMLScriptFailure)
    /// Ends the innermost iteration (drops its copy), also after a failure.
    func endForEach()
    /// Binds `_event` to the event about to be processed (nil before the first).
    func setEvent(_ event: SCXMLEventFields?)
    /// The document's top-level `<script>`s have run: the functions they made are code,
    /// which ``variables()`` leaves out (a restore runs those scripts again, then
    /// ``restore(_:)``).
    func markCode() throws(SCXMLScriptFailure)
    /// Every variable the document declared or scripts made, as values (snapshots), but
    /// the code ``markCode()`` set aside.
    /// - Throws: naming the first variable that cannot cross (a function, a cycle).
    func variables() throws(SCXMLScriptFailure) -> [String: SCXMLValue]
    /// Sets the variables from a snapshot's `variables()`.
    func restore(_ variables: [String: SCXMLValue]) throws(SCXMLScriptFailure)
}
