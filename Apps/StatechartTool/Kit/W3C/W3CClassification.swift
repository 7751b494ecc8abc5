import Foundation
import StateMachineHierarchy
import StateMachineSCXML

/// Which W3C tests need a data model, decided from the documents themselves.
///
/// A test runs with the null data model when its converted documents (every `<start>` and
/// `<dep>`) use only what that model has, and it is not a test of another data model:
///
/// - every expression compiles with the null data model itself (``SCXMLDataModel/null``):
///   `cond` is `In('id')`, `true` or `false` (with `!`, `&&`, `||`); `expr`, `delayexpr`,
///   `eventexpr`, `targetexpr`, `typeexpr`, `sendidexpr` and `srcexpr` are quoted literals;
///   `idlocation` is a slot name;
/// - there is no `location` or `namelist` (variables), and none of `<datamodel>`, `<data>`,
///   `<assign>`, `<script>`, `<foreach>`, `<param>`, `<donedata>`, nor a `<content>` other
///   than an `<invoke>`'s inline `<scxml>` (event data);
/// - its `.txml` does not name a data model other than `null` in `datamodel` (the tests of
///   Appendix C.2 and C.3 belong to the ECMAScript and XPath data models, whatever they use;
///   the data-model-neutral tests write `conf:datamodel`).
public enum W3CClassification {
    /// What in `test` needs a data model, each use once, in the order found (`<data>`,
    /// `cond="Var1 == 1"`, `datamodel="ecmascript" in test451.txml`); empty when the null
    /// data model runs it. `source` holds the `.txml` files, `converted` the documents
    /// ``W3CConverter/prepare(_:from:into:)`` wrote.
    /// - Throws: ``W3CConformanceError`` when a file cannot be read as XML.
    public static func dataModelUses(
        of test: W3CTest,
        source: URL,
        converted: URL
    ) throws(W3CConformanceError) -> [String] {
        var uses: [String] = []
        func note(_ use: String) {
            if !uses.contains(use) { uses.append(use) }
        }
        for file in test.documents + test.dependencies where file.hasSuffix(".txml") {
            let original = try W3CXMLElement.read(source.appendingPathComponent(file))
            if let model = original.attributes["datamodel"], model != "null" {
                note("datamodel=\"\(model)\" in \(file)")
            }
            let document = try W3CXMLElement.read(converted.appendingPathComponent(W3CConverter.convertedName(file)))
            for use in Self.uses(in: document) { note(use) }
        }
        return uses
    }

    /// The elements that hold data or scripts.
    private static let dataElements: Set<String> = [
        "datamodel", "data", "assign", "script", "foreach", "param", "donedata",
    ]
    /// The attributes whose value is an expression.
    private static let valueAttributes: Set<String> = [
        "expr", "delayexpr", "eventexpr", "targetexpr", "typeexpr", "sendidexpr", "srcexpr",
    ]

    /// What in the SCXML document `root` the null data model does not have.
    static func uses(in root: W3CXMLElement) -> [String] {
        var uses: [String] = []
        var sources: [(use: String, source: SCXMLScriptSource)] = []
        for (element, parent) in root.descendants() {
            if dataElements.contains(element.name) { uses.append("<\(element.name)>") }
            if element.name == "content",
                !(parent?.name == "invoke" && element.children.count == 1 && element.children[0].name == "scxml")
            {
                uses.append("<content> in <\(parent?.name ?? "?")>")
            }
            for (attribute, value) in element.attributes.sorted(by: { $0.key < $1.key }) {
                let kind: SCXMLScriptSource.Kind
                switch attribute {
                case "cond": kind = .condition
                case "idlocation": kind = .location
                case "location", "namelist":
                    uses.append(attribute)
                    continue
                case _ where valueAttributes.contains(attribute): kind = .value
                default: continue
                }
                let source = SCXMLScriptSource(
                    kind: kind,
                    text: value,
                    line: 0,
                    element: element.name,
                    attribute: attribute
                )
                sources.append(("\(attribute)=\"\(value)\"", source))
            }
        }
        // The null data model stops at the first source it cannot compile: one at a time.
        for (use, source) in sources {
            do {
                _ = try SCXMLDataModel.null.engine.compile([source])
            } catch {
                uses.append(use)
            }
        }
        return uses
    }
}
