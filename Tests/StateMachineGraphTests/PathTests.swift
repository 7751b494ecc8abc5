import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import Testing

/// Shortest paths, transition covers and simple paths, with the events they print.
@Suite("Paths")
struct PathTests {
    @MainActor
    @Test("a shortest path to every state, in node order, printed as the events to send")
    func shortestPaths() throws {
        let paths = try Machines.turnstileGraph().shortestPaths()
        #expect(paths.map(\.description) == ["locked", "locked -(coin)-> unlocked"])
        #expect(paths[1].events.map(\.event) == [.coin])
        #expect(paths[1].end.name == "unlocked")
        #expect(paths[0].steps.isEmpty)
        #expect(paths[0].end.name == "locked")
    }

    @Test("the elevator's shortest paths reach each state in as few events as its depth")
    func shortestPathLengths() async throws {
        let graph = try await Machines.elevatorGraph()
        let paths = graph.shortestPaths()
        #expect(paths.count == graph.nodes.count)
        for (node, path) in zip(graph.nodes, paths) {
            #expect(path.end.name == node.name)
            #expect(path.steps.count == node.depth)
        }
        #expect(
            paths.last?.description
                == "ElevatorIsOpen (persons: 0)"
                + (1...5).map { " -(DidEnter())-> ElevatorIsOpen (persons: \($0))" }.joined()
                + " -(DidEnter())-> ElevatorIsInWarning (persons: 6) -(DidEnter())-> ElevatorIsInWarning (persons: 7)"
        )
    }

    @Test("a transition cover takes every transition of every case-study graph", arguments: CoverCase.allCases)
    func transitionCover(_ cover: CoverCase) async throws {
        let (edges, covered, pathsStartAtInitial) = try await cover.check()
        #expect(!edges.isEmpty)
        #expect(Set(covered) == Set(edges))
        #expect(pathsStartAtInitial)
    }

    @Test("the player's cover, step by step")
    func playerCover() throws {
        let cover = try makePlayer().stateGraph().transitionCover()
        #expect(cover.count == 1)
        #expect(
            cover[0].steps.map(\.label) == [
                "play", "stop", "play", "pause", "play", "shuffle", "stop", "play", "pause", "stop", "play", "pause",
                "shuffle", "play", "pause", "stop", "play", "shuffle", "shuffle", "pause", "shuffle", "shuffle",
            ]
        )
    }

    @Test("simple paths visit no state twice and stop at the length bound")
    func simplePaths() throws {
        let graph = try makePlayer().stateGraph()
        let paths = try graph.simplePaths(maxLength: 2)
        #expect(
            paths.map(\.description) == [
                "stopped -(play)-> active, playing, normal",
                "stopped -(play)-> active, playing, normal -(pause)-> active, paused, normal",
                "stopped -(play)-> active, playing, normal -(shuffle)-> active, playing, shuffled",
            ]
        )
        let all = try graph.simplePaths(maxLength: 10)
        #expect(all.count == 7)
        for path in all {
            let names = [path.start.name] + path.steps.map(\.target.name)
            #expect(Set(names).count == names.count, "\(path) visits a state twice")
        }
    }

    @Test("a length bound below 1 is refused, naming the bound")
    func simplePathsBound() throws {
        let graph = try makePlayer().stateGraph()
        #expect(throws: StateGraphError.invalidBound(name: "maxLength", value: 0)) {
            try graph.simplePaths(maxLength: 0)
        }
        #expect(
            StateGraphError.invalidBound(name: "maxLength", value: 0).description
                == "maxLength must be at least 1, not 0."
        )
    }
}

/// The graphs whose covers are checked.
enum CoverCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case elevator, units, wallet, clics, turnstile, player

    var testDescription: String { rawValue }

    /// The graph's edges, the edges the cover's steps take (as lines), and whether every
    /// path starts at the initial node.
    func check() async throws -> (edges: [String], covered: [String], startsAtInitial: Bool) {
        switch self {
        case .elevator: return Self.lines(try await Machines.elevatorGraph())
        case .units:
            return Self.lines(
                try await makeUnitsStateMachine().stateGraph(
                    events: [DidRequestIncrease(), DidRequestDecrease()],
                    maxDepth: 4
                )
            )
        case .wallet:
            return Self.lines(
                try await makeWalletStateMachine().stateGraph(
                    events: [DidRequestToAddCredits(credits: 5), DidRequestToRemoveCredits(credits: 10)],
                    maxDepth: 5
                )
            )
        case .clics:
            return Self.lines(
                try await makeClicsStateMachine(cancelling: true, load: {}).stateGraph(
                    events: [DidRequestClicsLoading(), DidCompleteClicsLoading(), DidRequestClicsReset()],
                    maxDepth: 5
                )
            )
        case .turnstile: return Self.lines(try await Machines.turnstileGraph())
        case .player: return Self.lines(try makePlayer().stateGraph())
        }
    }

    private static func lines<S, E>(_ graph: StateGraph<S, E>) -> ([String], [String], Bool) {
        let edges = graph.edges.map { "\(graph.nodes[$0.source].name) -(\($0.label))-> \(graph.nodes[$0.target].name)" }
        var covered: [String] = []
        var startsAtInitial = true
        for path in graph.transitionCover() {
            startsAtInitial = startsAtInitial && path.start.index == graph.initial.index
            var current = path.start
            for step in path.steps {
                covered.append("\(current.name) -(\(step.label))-> \(step.target.name)")
                current = step.target
            }
        }
        // Every step is an edge of the graph.
        #expect(Set(covered).isSubset(of: Set(edges)))
        return (edges, covered, startsAtInitial)
    }
}
