import CaseStudiesFeatures
import Foundation
import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport
import StateMachineTable
import Terminal

/// A case-study screen whose machine the `diagram` command draws.
@MainActor
protocol DiagramScreen: Screen {
    /// The screen's machine, ready to draw, or why it cannot be drawn.
    func drawing() async -> MachineDrawing
}

/// A machine as `diagram` draws it: anything with the package's diagrams, which all three
/// kinds of machine have (a Core machine through its explored state graph).
protocol DrawableMachine {
    /// The Mermaid text.
    func mermaid() -> String
    /// The DOT text.
    func dot() -> String
    /// The SVG image Graphviz renders.
    func svg() throws(GraphvizError) -> [UInt8]
    /// The PNG image Graphviz renders.
    func png() throws(GraphvizError) -> [UInt8]
}

extension StateGraph: DrawableMachine {}
extension FSM: DrawableMachine {}
extension Statechart: DrawableMachine {}
extension SCXMLDocument: DrawableMachine {}

/// What a screen's `drawing()` gives: its machine, with a note when its exploration was
/// cut short, or the reason it has none.
enum MachineDrawing {
    case machine(any DrawableMachine, note: String? = nil)
    case unavailable(String)
}

extension GlobalCommand {
    /// `diagram [mermaid|dot|svg|png] [PATH]`: the machine of the case study on screen,
    /// drawn by the package's one diagram renderer (a Core machine from its explored state
    /// graph, the turnstile's table and the player's chart from their own diagrams), printed
    /// or written to `PATH`; an image, rendered by Graphviz, always goes to a file. Without a
    /// format, the extension of `PATH` names one, as for `statechart diagram -o PATH`
    /// (``DiagramFormat/named(byExtensionOf:)``: `.svg`, `.png`, `.dot`, `.gv`, `.mmd`); another
    /// extension is refused, so that no text lands in a file named like an image.
    static func diagram(currentScreen: @escaping @MainActor () -> (any Screen)?) -> GlobalCommand {
        GlobalCommand(
            CommandSpec(
                "diagram",
                arguments: "[FORMAT] [PATH]",
                "Print the case study's machine (mermaid, dot) or write it to PATH (also svg, png)",
                completions: DiagramFormat.allCases.map(\.rawValue)
            )
        ) { command in
            let usage = "Usage: diagram [mermaid|dot|svg|png] [PATH]"
            var arguments = command.arguments[...]
            var format = DiagramFormat.mermaid
            if let first = arguments.first, let chosen = DiagramFormat(rawValue: first.lowercased()) {
                format = chosen
                arguments.removeFirst()
            }
            guard arguments.count <= 1 else {
                return "\(usage): one file at most, not '\(ParsedCommand.shortened(arguments.joined(separator: " ")))'."
            }
            let path = arguments.first
            if let path, command.arguments.count == 1,
                path.range(of: #"^[A-Za-z]+$"#, options: .regularExpression) != nil
            {
                let formats = DiagramFormat.allCases.map(\.rawValue).joined(separator: ", ")
                return "\(usage): the format is one of \(formats), not '\(ParsedCommand.shortened(path))'."
            }
            // Without a format, a file's extension names it: `diagram elevator.svg`.
            if let path, command.arguments.count == 1 {
                guard let named = DiagramFormat.named(byExtensionOf: path) else {
                    return
                        "\(usage): cannot tell the format of '\(ParsedCommand.shortened(path))' from its extension (\(DiagramFormat.extensionList)); name it: diagram dot \(ParsedCommand.shortened(path))."
                }
                format = named
            }
            if format.isImage, path == nil {
                return
                    "\(usage): an image goes to a file: diagram \(format.rawValue) PATH (for example diagram \(format.rawValue) machine.\(format.rawValue))."
            }
            guard let screen = currentScreen() as? any DiagramScreen else {
                return "'diagram' draws the machine of a case study: open one first (for example 'open elevator')."
            }
            let machine: any DrawableMachine
            let note: String?
            switch await screen.drawing() {
            case .unavailable(let reason): return reason
            case .machine(let drawable, let explored):
                machine = drawable
                note = explored
            }
            let bytes: [UInt8]
            do {
                switch format {
                case .mermaid:
                    // A colon needs no entity code inside a label's quotes or after an arrow's ':'.
                    bytes = Array(
                        (machine.mermaid() + (note.map { "%% \($0)\n" } ?? "")).replacing("#58;", with: ":").utf8
                    )
                case .dot: bytes = Array((machine.dot() + (note.map { "// \($0)\n" } ?? "")).utf8)
                case .svg: bytes = try machine.svg()
                case .png: bytes = try machine.png()
                }
            } catch {
                return "The \(format.rawValue) image could not be made: \(error)."
            }
            guard let path else { return String(decoding: bytes, as: UTF8.self) }
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            } catch {
                return "\(path) could not be written: \(error.localizedDescription)"
            }
            return "Wrote the \(format.rawValue) diagram to \(path) (\(bytes.count) bytes)."
        }
        .available { $0 is any DiagramScreen }
    }
}

/// A Core machine's graph explored over `events`, noting a bound that stopped the
/// exploration.
func exploredDrawing<SuperState, SuperEvent>(
    of machine: StateMachine<SuperState, SuperEvent>,
    events: [any Event<SuperEvent>],
    maxDepth: Int
) async -> MachineDrawing {
    do {
        let graph = try await machine.stateGraph(events: events, maxDepth: maxDepth)
        return .machine(graph, note: graph.truncation.map { "explored \($0)" })
    } catch {
        return .unavailable("The machine could not be explored: \(error)\n")
    }
}
