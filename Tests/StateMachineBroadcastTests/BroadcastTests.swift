import Foundation
import StateMachineBroadcast
import StateMachineCore
import TestSupport
import Testing

/// What a test compares: a context without its time stamp.
struct Step: Equatable, Sendable, CustomStringConvertible {
    let current: String
    let event: String?
    let new: String?

    init(_ current: String, _ event: String? = nil, _ new: String? = nil) {
        self.current = current
        self.event = event
        self.new = new
    }

    init(_ context: BroadcastStateContext) {
        self.init(
            String(describing: context.currentState),
            context.event.map { String(describing: $0) },
            context.newState.map { String(describing: $0) }
        )
    }

    var description: String { "\(current) + \(event ?? "-") => \(new ?? "-")" }
}

/// Consumes `broadcaster` until `count` contexts of `machine` have arrived (other tests'
/// machines broadcast to the same subscribers, so contexts are filtered by machine id).
func steps(
    _ count: Int,
    of machine: UUID,
    from broadcaster: StateContextBroadcaster
) async -> [BroadcastStateContext] {
    var received: [BroadcastStateContext] = []
    for await context in broadcaster.stream where context.stateMachineId == machine {
        received.append(context)
        if received.count == count { break }
    }
    return received
}

// Serialized: subscribers receive every broadcasting machine's contexts, so the bounded
// buffer test needs to be the only one broadcasting while it runs.
@Suite("StateMachineBroadcast", .serialized, .timeLimit(.minutes(1)))
struct BroadcastTests {
    let loadingSteps = [
        Step("DataIsIdle"),
        Step("DataIsIdle", "DidRequestLoading", "DataIsLoading"),
        Step("DataIsLoading", "DidSucceedToLoad", "DataIsLoaded"),
    ]

    @Test("the initial state context has no event and no new state; transitions have both")
    func initialStateContext() async {
        let broadcaster = makeStateContextBroadcaster()
        defer { broadcaster.stop() }
        let machine = makeLoadingMachine().activateBroadcast()
        let before = Date()
        await machine.sendAndWait(event: DidRequestLoading(id: "1"))
        let received = await within { await steps(3, of: machine.id, from: broadcaster) } ?? []
        try? #require(received.count == 3)
        guard received.count == 3 else { return }
        #expect(received[0].isInitialState)
        #expect(received[0].event == nil)
        #expect(received[0].newState == nil)
        #expect(received[0].currentState as? DataIsIdle == DataIsIdle())
        #expect(!received[1].isInitialState)
        #expect(received[1].event is DidRequestLoading)
        #expect(received[1].newState as? DataIsLoading == DataIsLoading(id: "1"))
        #expect(received.map(Step.init) == loadingSteps)
        #expect(received[0].description == "[\(machine.id)] DataIsIdle")
        #expect(received[1].description == "[\(machine.id)] DataIsIdle + DidRequestLoading => DataIsLoading")
        #expect(received.allSatisfy { $0.timeStamp >= before.addingTimeInterval(-1) })
        #expect(zip(received, received.dropFirst()).allSatisfy { $0.timeStamp <= $1.timeStamp })
    }

    @Test("two subscribers see every context, in the same order, across several machines")
    func twoSubscribersSameOrder() async {
        let first = makeStateContextBroadcaster()
        let second = makeStateContextBroadcaster()
        defer {
            first.stop()
            second.stop()
        }
        let machines = (0..<4).map { _ in makeLoadingMachine().activateBroadcast() }
        let ids = Set(machines.map(\.id))
        await withTaskGroup(of: Void.self) { group in
            for (index, machine) in machines.enumerated() {
                group.addTask {
                    for round in 0..<5 { await machine.sendAndWait(event: DidRequestLoading(id: "\(index).\(round)")) }
                }
            }
        }
        // 1 initial state + 5 x 2 transitions per machine.
        let expected = machines.count * 11
        @Sendable func collect(_ broadcaster: StateContextBroadcaster) async -> [BroadcastStateContext] {
            var received: [BroadcastStateContext] = []
            for await context in broadcaster.stream where ids.contains(context.stateMachineId) {
                received.append(context)
                if received.count == expected { break }
            }
            return received
        }
        let a = await within { await collect(first) } ?? []
        let b = await within { await collect(second) } ?? []
        #expect(a.count == expected)
        #expect(a.map(\.stateMachineId) == b.map(\.stateMachineId))
        #expect(a.map(Step.init) == b.map(Step.init))
        for machine in machines {
            let own = a.filter { $0.stateMachineId == machine.id }.map(Step.init)
            #expect(own.first == Step("DataIsIdle"))
            // Per-machine lifecycle order: each transition starts where the previous ended.
            #expect(zip(own, own.dropFirst()).allSatisfy { ($1.current == $0.new) || $0.new == nil })
        }
    }

    @Test("stop ends that subscriber's stream only, and can be called twice")
    func stopEndsOneSubscriber() async {
        let stopped = makeStateContextBroadcaster()
        let running = makeStateContextBroadcaster()
        defer { running.stop() }
        let machine = makeLoadingMachine().activateBroadcast()
        await machine.sendAndWait(event: DidRequestLoading(id: "1"))
        _ = await within { await steps(3, of: machine.id, from: stopped) }
        stopped.stop()
        stopped.stop()
        await machine.sendAndWait(event: DidRequestLoading(id: "2"))
        // The stopped stream ends (for-await terminates) without the new transitions.
        let afterStop = await within("the stopped stream ends") {
            var count = 0
            for await context in stopped.stream where context.stateMachineId == machine.id { count += 1 }
            return count
        }
        #expect(afterStop == 0)
        // The other subscriber still receives everything, the new transitions included.
        let received = await within { await steps(5, of: machine.id, from: running) } ?? []
        #expect(
            received.map(Step.init) == loadingSteps + [
                Step("DataIsLoaded", "DidRequestLoading", "DataIsLoading"),
                Step("DataIsLoading", "DidSucceedToLoad", "DataIsLoaded"),
            ]
        )
    }

    @Test("a machine without activateBroadcast broadcasts nothing")
    func notActivated() async {
        let broadcaster = makeStateContextBroadcaster()
        let silent = makeLoadingMachine()
        let loud = makeLoadingMachine().activateBroadcast()
        await silent.sendAndWait(event: DidRequestLoading(id: "1"))
        await loud.sendAndWait(event: DidRequestLoading(id: "1"))
        // The loud machine's last transition proves everything before it was delivered.
        let ids = await within {
            var ids: [UUID] = []
            for await context in broadcaster.stream {
                if context.stateMachineId == loud.id || context.stateMachineId == silent.id {
                    ids.append(context.stateMachineId)
                }
                if context.stateMachineId == loud.id, context.newState is DataIsLoaded { break }
            }
            return ids
        }
        broadcaster.stop()
        #expect(ids == [loud.id, loud.id, loud.id])
    }

    @Test("a slow subscriber: unbounded keeps every context, a bounded policy keeps the newest n")
    func slowSubscriber() async {
        let unbounded = makeStateContextBroadcaster()
        let bounded = makeStateContextBroadcaster(bufferingPolicy: .bufferingNewest(2))
        let marker = makeStateContextBroadcaster()
        defer {
            unbounded.stop()
            bounded.stop()
            marker.stop()
        }
        // Neither `unbounded` nor `bounded` consumes while the machine runs.
        let machine = makeLoadingMachine().activateBroadcast()
        for round in 0..<10 { await machine.sendAndWait(event: DidRequestLoading(id: "\(round)")) }
        // The marker subscriber proves all 21 contexts were broadcast before the others read.
        _ = await within { await steps(21, of: machine.id, from: marker) }
        unbounded.stop()
        bounded.stop()
        @Sendable func drain(_ broadcaster: StateContextBroadcaster) async -> [Step] {
            var steps: [Step] = []
            for await context in broadcaster.stream where context.stateMachineId == machine.id {
                steps.append(Step(context))
            }
            return steps
        }
        let all = await within { await drain(unbounded) } ?? []
        let newest = await within { await drain(bounded) } ?? []
        #expect(all.count == 21)
        #expect(all.first == Step("DataIsIdle"))
        #expect(newest == Array(all.suffix(2)))
    }
}
