import Foundation

/// A small reader and interpreter for the SMC tables of the README (Uncle Bob's State
/// Machine Compiler syntax), so each SMC table can be pasted in verbatim and its Swift
/// twin checked against it event by event.
///
/// The subset: `Initial:`, `FSM:`, abstract `(Super)` states, `State : Super`, entry
/// `<action` and exit `>action`, rows `Event Next Action` with `-` for "same state" or
/// "no action" and `{a b}` for several actions, and `//` comments. Entry and exit
/// actions run on every transition (SMC's rule) in this library's order: transition
/// actions, then exit, then entry.
struct SMCTable {
    struct StateDeclaration {
        var superStates: [String] = []
        var entry: [String] = []
        var exit: [String] = []
        var rows: [(event: String, next: String?, actions: [String])] = []
    }

    let initial: String
    var states: [String: StateDeclaration] = [:]

    init(_ text: String) {
        let tokens = Self.tokens(text)
        var position = 0
        func next() -> String {
            defer { position += 1 }
            return tokens[position]
        }
        func peek() -> String { tokens[position] }
        var initial = ""
        while peek() != "{" {
            let word = next()
            if word == "Initial:" { initial = next() } else if word == "FSM:" { _ = next() }
        }
        self.initial = initial
        _ = next()  // {
        while peek() != "}" {
            var name = next()
            if name == "(" {
                name = next()
                _ = next()  // )
            }
            var declaration = StateDeclaration()
            while peek() != "{" && !Self.isRowStart(peek()) {
                let word = next()
                if word == ":" {
                    declaration.superStates.append(next())
                } else if word.hasPrefix("<") {
                    declaration.entry += Self.actions(String(word.dropFirst()), tokens, &position)
                } else if word.hasPrefix(">") {
                    declaration.exit += Self.actions(String(word.dropFirst()), tokens, &position)
                }
            }
            if peek() == "{" {
                _ = next()
                while peek() != "}" {
                    let event = next()
                    let target = next()
                    let actions = Self.actions(next(), tokens, &position)
                    declaration.rows.append((event, target == "-" ? nil : target, actions))
                }
                _ = next()
            } else {
                // A one-line state such as `Alarming : Resetable <alarmOn >alarmOff - - -`.
                let event = next()
                let target = next()
                let actions = Self.actions(next(), tokens, &position)
                if event != "-" { declaration.rows.append((event, target == "-" ? nil : target, actions)) }
            }
            states[name] = declaration
        }
    }

    private static func isRowStart(_ token: String) -> Bool { token == "-" }

    /// `-` is no action, `{a b}` several, a word one. `first` was already read.
    private static func actions(_ first: String, _ tokens: [String], _ position: inout Int) -> [String] {
        if first == "-" { return [] }
        guard first == "{" else { return [first] }
        var names: [String] = []
        while tokens[position] != "}" {
            names.append(tokens[position])
            position += 1
        }
        position += 1
        return names
    }

    private static func tokens(_ text: String) -> [String] {
        var spaced = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.components(separatedBy: "//")[0]
            spaced +=
                code.replacingOccurrences(of: "{", with: " { ")
                .replacingOccurrences(of: "}", with: " } ")
                .replacingOccurrences(of: "(", with: " ( ")
                .replacingOccurrences(of: ")", with: " ) ")
                .replacingOccurrences(of: " : ", with: " :  ") + "\n"
        }
        return spaced.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
    }

    /// The row for `event` in `state`, looked up in its own rows, then its super states'.
    private func row(_ state: String, _ event: String) -> (event: String, next: String?, actions: [String])? {
        guard let declaration = states[state] else { return nil }
        if let row = declaration.rows.first(where: { $0.event == event }) { return row }
        for superState in declaration.superStates {
            if let row = row(superState, event) { return row }
        }
        return nil
    }

    private func inherited(_ state: String, _ actions: KeyPath<StateDeclaration, [String]>) -> [String] {
        guard let declaration = states[state] else { return [] }
        return declaration.superStates.flatMap { inherited($0, actions) } + declaration[keyPath: actions]
    }

    /// Runs `events` (SMC names) from the initial state: the state and calls after each.
    func run(_ events: [String]) -> [(state: String, calls: [String])] {
        var state = initial
        return events.map { event in
            guard let row = row(state, event) else { return (state, []) }
            let next = row.next ?? state
            let calls = row.actions + inherited(state, \.exit) + inherited(next, \.entry)
            state = next
            return (state, calls)
        }
    }
}

extension String {
    /// SMC's `Unlocked` as Swift's `unlocked`.
    var lowercasingFirst: String { prefix(1).lowercased() + dropFirst() }
}
