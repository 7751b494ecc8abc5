// swift-format-ignore-file
// The README's player program builds this chart, verbatim (ReadmeCodeTests checks it): keep
// the lines of `makePlayer()` from `let player` to `return player` as the README shows them.
import StateMachineHierarchy

// MARK: Player: a statechart whose "active" state has two orthogonal regions.

/// The player's chart type: states and events named by strings, an `Int` payload.
public typealias Player = Statechart<String, String, Int>

/// A music player as a `StateMachineHierarchy` statechart: `stopped`, or `active`, a
/// parallel state whose two regions move independently, one between `playing` and
/// `paused`, the other between `normal` and `shuffled`.
///
/// `play` starts it (entering `playing` and `normal`) and resumes it when paused; `pause`
/// and `shuffle` each move only their own region; `stop` leaves both regions at once, and
/// the next `play` starts again from `playing` and `normal` (no history). An event the
/// active configuration has no handler for is `.unhandled` and changes nothing. The chart
/// is returned unstarted: call `start()`.
public func makePlayer() throws -> Player {
    let player = try Player(name: "player") {
        Player.State("stopped")
            .on("play", to: "active")
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
    return player
}
