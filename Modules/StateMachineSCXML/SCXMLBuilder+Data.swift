import Foundation
import StateMachineHierarchy

// Scripts, data items, sources and the values of params, content and donedata.
extension SCXMLBuilder {
    /// Registers a script for the data model to compile, and returns its number.
    mutating func script(
        _ kind: SCXMLScriptSource.Kind,
        _ text: String,
        on element: SCXMLElement,
        attribute: String
    ) -> SCXMLDocument.Script {
        scripts.append(
            SCXMLScriptSource(
                kind: kind,
                text: text,
                line: element.line,
                column: element.position.column,
                element: element.name,
                attribute: attribute
            )
        )
        return SCXMLDocument.Script(index: scripts.count - 1)
    }

    /// The attribute `name` of `element` as a script, if present.
    mutating func script(
        _ kind: SCXMLScriptSource.Kind,
        attribute name: String,
        of element: SCXMLElement
    ) -> SCXMLDocument.Script? {
        element.attributes[name].map { script(kind, $0, on: element, attribute: name) }
    }

    /// Fails unless the document has a data model: `what` needs one.
    func requireData(_ element: SCXMLElement, attribute: String? = nil) throws(SCXMLError) {
        guard isNull else { return }
        if let missingDataModel { throw .dataModelUnavailable(name: missingDataModel, line: element.line) }
        throw .needsDataModel(element: element.name, attribute: attribute, line: element.line)
    }

    /// At most one of the attributes `names` of `element`.
    static func exclusive(_ names: [String], of element: SCXMLElement) throws(SCXMLError) {
        let present = names.filter { element.attributes[$0] != nil }
        if present.count > 1 {
            throw .invalidStructure(
                reason: "<\(element.name)> cannot have both '\(present[0])' and '\(present[1])'",
                line: element.line
            )
        }
    }

    /// A `<script>`: its `src` file or its text, as a script of the data model.
    mutating func script(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Action {
        try requireData(element)
        try Self.checkAttributes(element, allowed: ["src"])
        if let bad = element.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
        if let src = element.attributes["src"] {
            guard !element.hasText else {
                throw .invalidStructure(reason: "<script> cannot have both 'src' and a body", line: element.line)
            }
            return .script(script(.script, try read(src, for: element), on: element, attribute: "<script>"))
        }
        return .script(script(.script, element.text, on: element, attribute: "<script>"))
    }

    /// The `<data>` elements of a `<datamodel>`.
    mutating func dataItems(in element: SCXMLElement) throws(SCXMLError) -> [SCXMLDocument.DataItem] {
        var items: [SCXMLDocument.DataItem] = []
        for child in element.children {
            guard child.name == "data" else { throw .unsupportedElement(element: child.name, line: child.line) }
            try Self.checkAttributes(child, allowed: ["id", "src", "expr"])
            guard let id = child.attributes["id"], !id.isEmpty else {
                throw .missingAttribute(element: "data", attribute: "id", line: child.line)
            }
            try Self.exclusive(["src", "expr"], of: child)
            if child.attributes["src"] != nil || child.attributes["expr"] != nil,
                child.hasText || !child.children.isEmpty
            {
                throw .invalidStructure(
                    reason: "<data> '\(id)' has both a value attribute and content",
                    line: child.line
                )
            }
            let value: SCXMLDocument.ValueSource?
            if let expression = script(.value, attribute: "expr", of: child) {
                value = .expression(expression)
            } else if let src = child.attributes["src"] {
                value = .literal(Self.inlineValue(try read(src, for: child)))
            } else if child.hasText || !child.children.isEmpty {
                value = .literal(Self.inlineValue(of: child))
            } else {
                value = nil
            }
            items.append(SCXMLDocument.DataItem(id: id, value: value, position: child.position))
        }
        return items
    }

    /// The inline content of `element`: its markup as text when it holds elements (the
    /// ECMAScript data model here has no DOM: an XML value is its text), else its text as
    /// ``inlineValue(_:)`` reads it.
    static func inlineValue(of element: SCXMLElement) -> SCXMLValue {
        guard !element.children.isEmpty else { return inlineValue(element.text) }
        return .string(element.children.map(\.markup).joined())
    }

    /// Inline content as a value: JSON when it is JSON, else the text with its whitespace
    /// runs made single spaces (SCXML 1.0, section B.2.2).
    static func inlineValue(_ text: String) -> SCXMLValue {
        if let json = try? JSONValue.parse(Data(text.utf8)) { return SCXMLValue(json) }
        return .string(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    /// The text of the source a `src` names (a `file:` URI or a path, relative to the
    /// document's folder), read through the document's ``SCXMLSourcePolicy``.
    func read(_ src: String, for element: SCXMLElement) throws(SCXMLError) -> String {
        let data: Data
        do {
            data = try sources.read(src, relativeTo: baseURL)
        } catch {
            throw .sourceRefused(
                element: element.name,
                attribute: "src",
                value: src,
                line: element.line,
                rule: error.rule
            )
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidStructure(reason: "<\(element.name) src=\"\(src)\">: not UTF-8 text", line: element.line)
        }
        return text
    }

    /// `<param>`s and a `namelist`: each name with the script of its value.
    mutating func params(
        of element: SCXMLElement,
        namelist: String?
    ) throws(SCXMLError) -> [SCXMLDocument.Param] {
        var params: [SCXMLDocument.Param] = []
        if let namelist {
            try requireData(element, attribute: "namelist")
            for name in Self.tokens(namelist) {
                params.append(
                    SCXMLDocument.Param(name: name, value: script(.value, name, on: element, attribute: "namelist"))
                )
            }
        }
        for child in element.children where child.name == "param" {
            try requireData(child)
            try Self.checkAttributes(child, allowed: ["name", "expr", "location"])
            guard let name = child.attributes["name"], !name.isEmpty else {
                throw .missingAttribute(element: "param", attribute: "name", line: child.line)
            }
            try Self.exclusive(["expr", "location"], of: child)
            if let bad = child.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
            guard
                let value = script(.value, attribute: "expr", of: child)
                    ?? script(.value, attribute: "location", of: child)
            else { throw .missingAttribute(element: "param", attribute: "expr", line: child.line) }
            params.append(SCXMLDocument.Param(name: name, value: value))
        }
        return params
    }

    /// A `<content>`: its `expr`, or its text as JSON or a space-normalised string.
    mutating func content(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.ValueSource {
        try requireData(element)
        try Self.checkAttributes(element, allowed: ["expr"])
        if let expression = script(.value, attribute: "expr", of: element) {
            guard !element.hasText, element.children.isEmpty else {
                throw .invalidStructure(reason: "<content> cannot have both 'expr' and a body", line: element.line)
            }
            return .expression(expression)
        }
        return .literal(Self.inlineValue(of: element))
    }

    /// A `<donedata>`: one `<content>` or `<param>`s.
    mutating func doneData(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.DoneData {
        try Self.checkAttributes(element, allowed: [])
        let contents = element.children.filter { $0.name == "content" }
        if let bad = element.children.first(where: { $0.name != "content" && $0.name != "param" }) {
            throw .unsupportedElement(element: bad.name, line: bad.line)
        }
        if let content = contents.first {
            guard contents.count == 1, element.children.count == 1 else {
                throw .invalidStructure(reason: "<donedata> holds one <content> or <param>s", line: element.line)
            }
            return .content(try self.content(content))
        }
        return .params(try params(of: element, namelist: nil))
    }
}
