import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import Terminal

/// A case-study screen whose machine the `diagram` command draws.
@MainActor
protocol DiagramScreen: Screen {
    /// The screen's machine in `format`, ending with a newline.
    func diagram(_ format: DiagramFormat) async -> String
}

/// What `diagram` prints: a Mermaid state diagram (the default) or Graphviz's DOT.
enum DiagramFormat: String, CaseIterable {
    case mermaid
    case dot
}

extension GlobalCommand {
    /// `diagram [mermaid|dot]`: the machine of the case study on screen, drawn by the
    /// package's one diagram renderer (a Core machine from its explored state graph, the
    /// turnstile's table and the player's chart from their own diagrams).
    static func diagram(currentScreen: @escaping @MainActor () -> (any Screen)?) -> GlobalCommand {
        GlobalCommand(
            CommandSpec(
                "diagram",
                arguments: "[mermaid|dot]",
                "Print the case study's machine as a Mermaid (default) or DOT diagram",
                completions: DiagramFormat.allCases.map(\.rawValue)
            )
        ) { command in
            let formats = DiagramFormat.allCases.map(\.rawValue).joined(separator: " or ")
            guard command.arguments.count <= 1,
                let format = DiagramFormat(rawValue: command.arguments.first?.lowercased() ?? "mermaid")
            else {
                return
                    "Usage: diagram [mermaid|dot]: the format is \(formats), not '\(ParsedCommand.shortened(command.arguments.joined(separator: " ")))'."
            }
            guard let screen = currentScreen() as? any DiagramScreen else {
                return "'diagram' draws the machine of a case study: open one first (for example 'open elevator')."
            }
            // A colon needs no entity code inside a label's quotes or after an arrow's ':'.
            let text = await screen.diagram(format)
            return format == .mermaid ? text.replacing("#58;", with: ":") : text
        }
        .available { $0 is any DiagramScreen }
    }
}

/// Draws a Core machine from the graph explored over `events`, noting a bound that stopped
/// the exploration as a comment of the format.
func exploredDiagram<SuperState, SuperEvent>(
    of machine: StateMachine<SuperState, SuperEvent>,
    events: [any Event<SuperEvent>],
    maxDepth: Int,
    format: DiagramFormat
) async -> String {
    do {
        let graph = try await machine.stateGraph(events: events, maxDepth: maxDepth)
        let text = format == .mermaid ? graph.mermaid() : graph.dot()
        guard let truncation = graph.truncation else { return text }
        return text + (format == .mermaid ? "%% " : "// ") + "explored \(truncation)\n"
    } catch {
        return "The machine could not be explored: \(error)\n"
    }
}
