import StateMachineHierarchy
import StateMachineSCXML

/// A document whose `<scxml>` element (SCXML namespace, version 1.0, the optional
/// `initial` and `extra` attributes) has `body` as its children.
func scxmlDocument(_ body: String, initial: String? = nil, extra: String = "") throws -> SCXMLDocument {
    let initialAttribute = initial.map { " initial=\"\($0)\"" } ?? ""
    return try SCXMLDocument(
        xml: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"\(initialAttribute)\(extra)>
            \(body)
            </scxml>
            """
    )
}

/// The error loading `text` fails with, or nil when it loads.
func scxmlLoadError(_ text: String) -> SCXMLError? {
    do {
        _ = try SCXMLDocument(xml: text)
        return nil
    } catch {
        return error
    }
}

/// SCXML's semantics with another loop guard.
func scxmlOptions(maxMicrosteps: Int) -> StatechartOptions {
    var options = StatechartOptions.scxml
    options.maxMicrosteps = maxMicrosteps
    return options
}
