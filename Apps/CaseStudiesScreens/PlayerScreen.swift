import Observation
import StateMachineHierarchy
import Terminal

/// Player: a statechart whose "active" state has two orthogonal regions.
@MainActor
@Observable
final class PlayerScreen: Screen {
    typealias Player = Statechart<String, String, Int>

    @ObservationIgnored private let player: Player?
    private(set) var configuration: [String] = []
    private(set) var log: [String] = []
    private var buildError: String?

    init() {
        do {
            let player = try Player(name: "player") {
                Player.State("stopped").on("play", to: "active")
                Player.State(parallel: "active") {
                    Player.Region {
                        Player.State("playing").on("pause", to: "paused")
                        Player.State("paused").on("play", to: "playing")
                    }
                    Player.Region {
                        Player.State("normal").on("shuffle", to: "shuffled")
                        Player.State("shuffled").on("shuffle", to: "normal")
                    }
                }
                .on("stop", to: "stopped")
            }
            player.start()
            self.player = player
            self.configuration = player.activeStateConfiguration.split(separator: "\n").map(String.init)
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

    var commands: [CommandSpec] {
        [
            CommandSpec("play", "Play (from stopped, or resume)"),
            CommandSpec("pause", "Pause the playing region"),
            CommandSpec("shuffle", "Toggle shuffle in the other region"),
            CommandSpec("stop", "Leave the parallel state"),
        ]
    }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        guard let player else { return .message("The chart did not build.") }
        do {
            let outcome = try player.handle(command.name)
            log.append("\(command.name): \(outcome)")
            configuration = player.activeStateConfiguration.split(separator: "\n").map(String.init)
            return outcome == .handled ? .done : .message("'\(command.name)' does nothing in this configuration.")
        } catch {
            return .message("'\(command.name)' failed: \(error)")
        }
    }
}
