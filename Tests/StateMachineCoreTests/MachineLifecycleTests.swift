import Testing

@testable import StateMachineCore

/// The pure transitions of a machine's lifecycle (`MachineLifecycle`): each move from each
/// state, and the action the core then runs outside its lock.
@Suite("Machine lifecycle transitions")
struct MachineLifecycleTests {
    typealias Lifecycle = MachineLifecycle

    /// Every state a lifecycle can be in.
    static let allStates: [Lifecycle] = [
        .idle(isDraining: false), .idle(isDraining: true), .started(isDraining: false), .started(isDraining: true),
        .closed, .terminated,
    ]

    /// One move from `state`: the state it leads to and what it returned.
    static func move<Action>(_ state: Lifecycle, _ body: (inout Lifecycle) -> Action) -> (Lifecycle, Action) {
        var lifecycle = state
        let action = body(&lifecycle)
        return (lifecycle, action)
    }

    @Test("a new machine is idle, with no drainer")
    func initial() {
        let lifecycle = Lifecycle()
        #expect(lifecycle == .idle(isDraining: false))
        #expect(!lifecycle.isStarted && !lifecycle.isTerminated)
    }

    @Test("an event starts an idle machine (the initial state queued first) and claims the drainer role if free")
    func acceptEvent() {
        #expect(
            Self.move(.idle(isDraining: false)) { $0.acceptEvent() }
                == (.started(isDraining: true), .queue(startFirst: true, startDrainer: true))
        )
        #expect(
            Self.move(.idle(isDraining: true)) { $0.acceptEvent() }
                == (.started(isDraining: true), .queue(startFirst: true, startDrainer: false))
        )
        #expect(
            Self.move(.started(isDraining: false)) { $0.acceptEvent() }
                == (.started(isDraining: true), .queue(startFirst: false, startDrainer: true))
        )
        #expect(
            Self.move(.started(isDraining: true)) { $0.acceptEvent() }
                == (.started(isDraining: true), .queue(startFirst: false, startDrainer: false))
        )
        for state in [Lifecycle.closed, .terminated] {
            #expect(Self.move(state) { $0.acceptEvent() } == (state, .reject), "\(state)")
        }
    }

    @Test("a signal is queued without starting the machine, and rejected once it is closed")
    func acceptSignal() {
        #expect(
            Self.move(.idle(isDraining: false)) { $0.acceptSignal() }
                == (.idle(isDraining: true), .queue(startFirst: false, startDrainer: true))
        )
        #expect(
            Self.move(.idle(isDraining: true)) { $0.acceptSignal() }
                == (.idle(isDraining: true), .queue(startFirst: false, startDrainer: false))
        )
        #expect(
            Self.move(.started(isDraining: false)) { $0.acceptSignal() }
                == (.started(isDraining: true), .queue(startFirst: false, startDrainer: true))
        )
        #expect(
            Self.move(.started(isDraining: true)) { $0.acceptSignal() }
                == (.started(isDraining: true), .queue(startFirst: false, startDrainer: false))
        )
        for state in [Lifecycle.closed, .terminated] {
            #expect(Self.move(state) { $0.acceptSignal() } == (state, .reject), "\(state)")
        }
    }

    @Test("starting an idle machine emits the initial state here without a drainer, queues it with one; once only")
    func start() {
        #expect(Self.move(.idle(isDraining: false)) { $0.start() } == (.started(isDraining: true), .emitInitialState))
        #expect(Self.move(.idle(isDraining: true)) { $0.start() } == (.started(isDraining: true), .queueStart))
        for state in Self.allStates.dropFirst(2) {
            #expect(Self.move(state) { $0.start() } == (state, .none), "\(state)")
        }
    }

    @Test("finishing closes an open machine, behind the initial state if it had not started; only once")
    func finish() {
        #expect(
            Self.move(.idle(isDraining: false)) { $0.finish() }
                == (.closed, .queue(startFirst: true, startDrainer: true))
        )
        #expect(
            Self.move(.idle(isDraining: true)) { $0.finish() }
                == (.closed, .queue(startFirst: true, startDrainer: false))
        )
        #expect(
            Self.move(.started(isDraining: false)) { $0.finish() }
                == (.closed, .queue(startFirst: false, startDrainer: true))
        )
        #expect(
            Self.move(.started(isDraining: true)) { $0.finish() }
                == (.closed, .queue(startFirst: false, startDrainer: false))
        )
        for state in [Lifecycle.closed, .terminated] {
            #expect(Self.move(state) { $0.finish() } == (state, .reject), "\(state)")
        }
    }

    @Test("the drainer gives its role back while the machine is open, so the next command starts one")
    func drainerFoundQueueEmpty() {
        let expected: [Lifecycle] = [
            .idle(isDraining: false), .idle(isDraining: false), .started(isDraining: false),
            .started(isDraining: false), .closed, .terminated,
        ]
        for (state, after) in zip(Self.allStates, expected) {
            #expect(Self.move(state) { $0.drainerFoundQueueEmpty() }.0 == after, "\(state)")
        }
        var lifecycle = Lifecycle.started(isDraining: true)
        lifecycle.drainerFoundQueueEmpty()
        #expect(lifecycle.acceptEvent() == .queue(startFirst: false, startDrainer: true))
    }

    @Test("a closed machine terminates once shut down, and then accepts nothing; the queries follow the phase")
    func shutDown() {
        var lifecycle = Lifecycle()
        #expect(lifecycle.finish() == .queue(startFirst: true, startDrainer: true))
        #expect(lifecycle == .closed)
        #expect(lifecycle.isStarted && !lifecycle.isTerminated)
        lifecycle.didTerminate()
        #expect(lifecycle == .terminated)
        #expect(lifecycle.isStarted && lifecycle.isTerminated)
        #expect(lifecycle.acceptEvent() == .reject)
        #expect(lifecycle.start() == .none)
        #expect(lifecycle == .terminated)
    }

    @Test("only an idle machine has not started")
    func isStarted() {
        for state in Self.allStates {
            if case .idle = state {
                #expect(!state.isStarted, "\(state)")
            } else {
                #expect(state.isStarted, "\(state)")
            }
        }
    }
}
