import StateMachineHierarchy
import StateMachineSCXML

extension SCXMLDataModel {
    /// The ECMAScript data model (SCXML 1.0, section B.2), for documents that declare
    /// `datamodel="ecmascript"`: their expressions, conditions, locations and `<script>`s are
    /// ECMAScript, run by the duktape engine in a sandbox of their own per session.
    ///
    /// ```swift
    /// let document = try SCXMLDocument(xml: text, dataModel: .ecmascript)
    /// ```
    ///
    /// A document's scripts are compiled once, when it loads: a `<script>` or a location
    /// that does not parse rejects the document, while a value or a condition that does not
    /// parse fails when it runs, as SCXML requires (`error.execution`). Each session has its
    /// own heap, with the read-only system variables `_sessionid`, `_name`,
    /// `_ioprocessors` and `_event`, and the function `In(id)`. Each call runs for at most
    /// 100 ms and a session holds at most 16 MiB; a script that exceeds either fails, and
    /// the session stays usable. An empty condition is true. See <doc:BoundsAndSandbox> and
    /// <doc:TheEngineChosen>.
    public static let ecmascript = SCXMLDataModel(engine: ECMAScriptDataModel())
}
