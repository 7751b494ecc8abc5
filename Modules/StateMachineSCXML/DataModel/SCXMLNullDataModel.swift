import StateMachineHierarchy

/// The null data model (SCXML 1.0, section B.1), built in: a condition is `In('id')`,
/// `true` or `false` joined by `!`, `&&`, `||` and parentheses; a value is a quoted
/// literal (`'text'`); a location is a slot name that holds a generated id (`idlocation`),
/// and evaluating it reads the slot (`<cancel sendidexpr="slot">`).
/// It has no variables and runs no scripts.
struct SCXMLNullDataModel: SCXMLDataModelEngine {
    var name: String { "null" }

    /// One compiled source.
    enum Compiled: Sendable {
        case condition(SCXMLDocument.Condition)
        case literal(String)
        case slot(String)
    }

    func compile(_ sources: [SCXMLScriptSource]) throws(SCXMLScriptFailure) -> any SCXMLCompiledScripts {
        var compiled: [Compiled] = []
        compiled.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() {
            switch source.kind {
            case .condition:
                do {
                    compiled.append(.condition(try SCXMLConditionParser.parse(source.text)))
                } catch {
                    throw SCXMLScriptFailure(index: index, message: error.reason)
                }
            case .value:
                guard let literal = Self.quotedLiteral(source.text) else {
                    throw SCXMLScriptFailure(
                        index: index,
                        message: "the null data model's values are quoted literals ('text')"
                    )
                }
                compiled.append(.literal(literal))
            case .location:
                guard Self.isSlotName(source.text) else {
                    throw SCXMLScriptFailure(index: index, message: "not a slot name")
                }
                compiled.append(.slot(source.text))
            case .script:
                throw SCXMLScriptFailure(index: index, message: "the null data model runs no scripts")
            }
        }
        return Scripts(compiled: compiled)
    }

    /// The text of a quoted literal (`'text'` or `"text"`), nil for anything else.
    static func quotedLiteral(_ expression: String) -> String? {
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, let quote = trimmed.first, quote == "'" || quote == "\"", trimmed.last == quote
        else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        return inner.contains(quote) ? nil : String(inner)
    }

    /// A slot name: letters, digits, `_`, `.`, `-` and `$`, not starting with a digit.
    static func isSlotName(_ text: String) -> Bool {
        guard let first = text.first, !first.isNumber else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || "_.-$".contains($0) }
    }

    struct Scripts: SCXMLCompiledScripts {
        let compiled: [Compiled]

        func makeSession(_ host: SCXMLDataModelHost) -> any SCXMLDataModelSession {
            Session(compiled: compiled, isActive: host.isActive)
        }
    }

    /// A null-model session: its only state is the slots.
    final class Session: SCXMLDataModelSession {
        let compiled: [Compiled]
        let isActive: @Sendable (String) -> Bool
        var slots: [String: SCXMLValue] = [:]

        init(compiled: [Compiled], isActive: @escaping @Sendable (String) -> Bool) {
            self.compiled = compiled
            self.isActive = isActive
        }

        func evaluate(_ script: Int) throws(SCXMLScriptFailure) -> SCXMLValue {
            switch compiled[script] {
            case .literal(let text): return .string(text)
            case .slot(let name): return slots[name] ?? .null
            case .condition(let condition): return .bool(condition.holds(isActive))
            }
        }

        func isTrue(_ script: Int) throws(SCXMLScriptFailure) -> Bool {
            guard case .condition(let condition) = compiled[script] else {
                throw SCXMLScriptFailure(message: "not a condition")
            }
            return condition.holds(isActive)
        }

        func assign(_ location: Int, from expression: Int) throws(SCXMLScriptFailure) {
            try assign(location, value: try evaluate(expression))
        }

        func assign(_ location: Int, value: SCXMLValue) throws(SCXMLScriptFailure) {
            guard case .slot(let name) = compiled[location] else {
                throw SCXMLScriptFailure(message: "not a location")
            }
            slots[name] = value
        }

        func run(_ script: Int) throws(SCXMLScriptFailure) {
            throw SCXMLScriptFailure(message: "the null data model runs no scripts")
        }

        func declare(_ id: String, from expression: Int?) throws(SCXMLScriptFailure) {
            throw SCXMLScriptFailure(message: "the null data model has no <data>")
        }

        func declare(_ id: String, value: SCXMLValue) throws(SCXMLScriptFailure) {
            throw SCXMLScriptFailure(message: "the null data model has no <data>")
        }

        func beginForEach(array: Int) throws(SCXMLScriptFailure) -> Int {
            throw SCXMLScriptFailure(message: "the null data model has no <foreach>")
        }

        func assignForEach(position: Int, item: Int, index: Int?) throws(SCXMLScriptFailure) {
            throw SCXMLScriptFailure(message: "the null data model has no <foreach>")
        }

        func endForEach() {}

        func setEvent(_ event: SCXMLEventFields?) {}

        func markCode() throws(SCXMLScriptFailure) {}

        func variables() throws(SCXMLScriptFailure) -> [String: SCXMLValue] { slots }

        func restore(_ variables: [String: SCXMLValue]) throws(SCXMLScriptFailure) {
            slots = variables
        }
    }
}
