import CaseStudiesFeatures
import StateMachineHierarchy
import Testing

@Suite("Player")
struct PlayerTests {
    /// A started player.
    func startedPlayer() throws -> Player {
        let player = try makePlayer()
        player.start()
        return player
    }

    @Test("it starts stopped, where only play is accepted")
    func startsStopped() throws {
        let player = try startedPlayer()
        #expect(player.activeStates == ["stopped"])
        #expect(Set(player.acceptedEvents) == ["play"])
        #expect(try player.handle("pause") == .unhandled)
        #expect(player.activeStates == ["stopped"])
    }

    @Test("play enters both regions: playing, and normal order")
    func play() throws {
        let player = try startedPlayer()
        #expect(try player.handle("play") == .handled)
        #expect(Set(player.activeStates) == ["active", "playing", "normal"])
        #expect(Set(player.acceptedEvents) == ["pause", "shuffle", "stop"])
    }

    @Test("shuffle moves only the second region, pause only the first, play resumes")
    func regionsMoveIndependently() throws {
        let player = try startedPlayer()
        try player.handle("play")
        try player.handle("shuffle")
        #expect(Set(player.activeStates) == ["active", "playing", "shuffled"])
        try player.handle("pause")
        #expect(Set(player.activeStates) == ["active", "paused", "shuffled"])
        try player.handle("play")
        #expect(Set(player.activeStates) == ["active", "playing", "shuffled"])
    }

    @Test("stop leaves both regions at once; the next play starts again from playing and normal")
    func stopForgets() throws {
        let player = try startedPlayer()
        try player.handle("play")
        try player.handle("shuffle")
        try player.handle("pause")
        #expect(try player.handle("stop") == .handled)
        #expect(player.activeStates == ["stopped"])
        try player.handle("play")
        #expect(Set(player.activeStates) == ["active", "playing", "normal"])
    }
}
