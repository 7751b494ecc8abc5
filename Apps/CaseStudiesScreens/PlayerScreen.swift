import CaseStudiesFeatures
import Foundation
import Observation
import StateMachineCore
import StateMachineDump
import StateMachineHierarchy
import Terminal

/// Player: a statechart whose "active" state has two orthogonal regions (the `makePlayer()`
/// feature).
@MainActor
@Observable
final class PlayerScreen: Screen {
    @ObservationIgnored private let player: Player?
    /// The chart's id in the dump.
    @ObservationIgnored private let dumpId = UUID()
    /// Where the chart reports its states for the dump.
    @ObservationIgnored private let dumpMediator: Mediator<DumpEvent>
    /// The events the active configuration has handlers for.
    private(set) var accepted: Set<String> = []
    private(set) var configuration: [String] = []
    /// The last three steps, which the screen shows.
    private(set) var log: [String] = []
    private var buildError: String?

    init(dumpMediator: Mediator<DumpEvent>) {
        self.dumpMediator = dumpMediator
        do {
            let player = try makePlayer()
            player.start()
            self.player = player
            update()
        } catch {
            self.player = nil
            self.buildError = "\(error)"
        }
    }

    var title: String { "Player (statechart)" }

    func body(style: TerminalStyle) -> [String] {
        if let buildError { return ["  The chart does not build: \(buildError)"] }
        return ["  Active configuration:"] + configuration.map { "    " + $0 }
            + ["  Last steps: " + (log.isEmpty ? "none yet" : log.suffix(3).joined(separator: "; "))]
    }

    /// Every event of the chart; those the active configuration does not handle are
    /// dimmed and refused, as on every other screen.
    var commands: [CommandSpec] {
        [
            CommandSpec(
                "play",
                "Play (from stopped, or resume)",
                isEnabled: accepted.contains("play"),
                availableWhen: "in stopped or paused"
            ),
            CommandSpec(
                "pause",
                "Pause the playing region",
                isEnabled: accepted.contains("pause"),
                availableWhen: "in playing ('play' first)"
            ),
            CommandSpec(
                "shuffle",
                "Toggle shuffle in the other region",
                isEnabled: accepted.contains("shuffle"),
                availableWhen: "in active ('play' first)"
            ),
            CommandSpec(
                "stop",
                "Leave the parallel state",
                isEnabled: accepted.contains("stop"),
                availableWhen: "in active ('play' first)"
            ),
        ]
    }

    /// Reads the active configuration and the events it accepts, and records it in the dump.
    private func update() {
        guard let player else { return }
        configuration = Self.tree(of: player.activeStateConfiguration)
        accepted = Set(player.acceptedEvents)
        recordState(
            CaseStudyState(machine: "Player", configuration: player.activeStates.joined(separator: ", ")),
            of: dumpId,
            dumpMediator: dumpMediator
        )
    }

    /// The active configuration as the screen shows it: each state under its parent, one
    /// step (two spaces) deeper, by its own name. `activeStateConfiguration` is
    /// TBStateMachine's debug tree: a tab per level, and a line for each region's machine
    /// (`activeSubMachine-0`), an internal name that is left out here.
    static func tree(of configuration: String) -> [String] {
        var regionDepths: [Int] = []
        var lines: [String] = []
        for line in configuration.split(separator: "\n") {
            let depth = line.prefix { $0 == "\t" }.count
            let name = line.drop { $0 == "\t" }
            regionDepths.removeAll { $0 >= depth }
            if isRegionMachine(name) {
                regionDepths.append(depth)
                continue
            }
            lines.append(String(repeating: "  ", count: depth - regionDepths.count) + name)
        }
        return lines
    }

    /// Whether `name` is a region's machine: `<state>SubMachine` or `<state>SubMachine-<i>`.
    private static func isRegionMachine(_ name: Substring) -> Bool {
        guard let range = name.range(of: "SubMachine", options: .backwards) else { return false }
        let rest = name[range.upperBound...]
        return rest.isEmpty || (rest.first == "-" && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1)
    }

    var stateName: String? { player.map { $0.activeStates.joined(separator: ", ") } }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        guard let player else { return .message("The chart did not build.") }
        do {
            let outcome = try player.handle(command.name)
            log.append("\(command.name): \(outcome)")
            if log.count > 3 { log.removeFirst(log.count - 3) }
            update()
            return outcome == .handled ? .done : .message("'\(command.name)' does nothing in this configuration.")
        } catch {
            return .message("'\(command.name)' failed: \(error)")
        }
    }
}

extension PlayerScreen: DiagramScreen {
    /// The player's chart, drawn by the chart's own diagram (its regions nested).
    func drawing() async -> MachineDrawing {
        guard let player else { return .unavailable("The chart did not build: \(buildError ?? "")\n") }
        return .machine(player)
    }
}
