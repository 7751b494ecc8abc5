import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

@Suite("Runtime: ordering and observation", .timeLimit(.minutes(1)))
struct RuntimeTests {
    @Test("the seed's loading flow: idle -> loading -> loaded, output feeding the machine")
    func loadingFlow() async {
        let machine = AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
        machine.send(event: DidRequestLoading(id: "42"))
        let states = await within { await take(3, from: machine) } ?? []
        #expect(states.names == ["DataIsIdle", "DataIsLoading", "DataIsLoaded"])
        #expect(states.last as? DataIsLoaded == DataIsLoaded(data: "data"))
        #expect(machine.lastKnownState is DataIsLoaded)
    }

    @Test("events sent before observation are all observed, in order, after the initial state")
    func sendBeforeObservation() async {
        let machine = countingMachine()
        for sequence in 0..<100 { machine.send(event: Increment(sender: 0, sequence: sequence)) }
        await machine.sendAndWait(event: Increment(sender: 0, sequence: 100), until: .transitionCommitted)
        let states = await within { await take(102, from: machine) } ?? []
        #expect(states.compactMap { ($0 as? Count)?.value } == Array(0...101))
    }

    @Test("FIFO under 1,000 concurrent senders: nothing lost, each sender's order kept, observer and hooks agree")
    func fifoUnderConcurrentSenders() async {
        let transitions = Recorder<Increment>()
        let machine = countingMachine()
            .onTransition { _, _, event, _ in transitions.append(event as! Increment) }
        let senders = 1_000
        let perSender = 5
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for sequence in 0..<perSender {
                        machine.send(event: Increment(sender: sender, sequence: sequence))
                    }
                }
            }
        }
        let total = senders * perSender
        let states = await within { await take(total + 1, from: machine) } ?? []
        #expect(states.compactMap { ($0 as? Count)?.value } == Array(0...total))
        await machine.finishAndWait()
        let events = transitions.all
        #expect(events.count == total)
        var nextSequence = [Int: Int]()
        var ordered = true
        for event in events {
            if event.sequence != nextSequence[event.sender, default: 0] { ordered = false }
            nextSequence[event.sender] = event.sequence + 1
        }
        #expect(ordered, "a sender's events were processed out of order")
        #expect(nextSequence.count == senders)
    }

    @Test("an event with no route changes nothing and sendAndWait still returns")
    func unroutedEvent() async {
        let machine = AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
        let returned: Void? = await within { await machine.sendAndWait(event: DidSucceedToLoad(data: "x")) }
        #expect(returned != nil)
        #expect(machine.lastKnownState is DataIsIdle)
        machine.send(event: DidTick())
        await machine.finishAndWait()
        let states = await take(10, from: machine)
        #expect(states.names == ["DataIsIdle"])
    }

    @Test("a transition to an equal state is emitted again (no deduplication)")
    func noDeduplication() async {
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidTick.self) { _, _ in Transition(state: DataIsIdle()) }
            }
        }.disableLog()
        machine.send(event: DidTick())
        machine.send(event: DidTick())
        machine.finish()
        let states = await within { await take(10, from: machine) } ?? []
        #expect(states.names == ["DataIsIdle", "DataIsIdle", "DataIsIdle"])
    }

    @Test("sendAndWait(until: .outputFinished) returns after the output ended and its events were processed")
    func sendAndWaitOutputFinished() async {
        let machine = AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "1")) }
        // The output's event has been processed too, not merely queued.
        #expect(machine.lastKnownState is DataIsLoaded)
    }

    @Test("sendAndWait(until: .transitionCommitted) returns while the output is still running")
    func sendAndWaitTransitionCommitted() async {
        let release = Signal()
        let machine = AsyncStateMachine(
            stateMachine: loadingMachine { _ in
                await release.wait()
                return DidSucceedToLoad(data: "late")
            }
        ).disableLog()
        let returned: Void? = await within {
            await machine.sendAndWait(event: DidRequestLoading(id: "1"), until: .transitionCommitted)
        }
        #expect(returned != nil)
        #expect(machine.lastKnownState is DataIsLoading)
        #expect(machine.core.runningOutputCount == 1)
        release.raise()
        await machine.finishAndWait()
    }

    @Test("cancelling a sendAndWait caller ends only its wait: the event is processed and its output runs")
    func cancellingSendAndWait() async {
        let outputStarted = Signal()
        let release = Signal()
        let machine = AsyncStateMachine(
            stateMachine: loadingMachine { _ in
                outputStarted.raise()
                await release.wait()
                return DidSucceedToLoad(data: "after cancel")
            }
        ).disableLog()
        let caller = Task { await machine.sendAndWait(event: DidRequestLoading(id: "1")) }
        await within { await outputStarted.wait() }
        caller.cancel()
        let callerEnded: Void? = await within { await caller.value }
        #expect(callerEnded != nil, "the cancelled caller kept waiting")
        #expect(machine.core.runningOutputCount == 1, "the output was cancelled with its caller")
        release.raise()
        let states = await within { await take(3, from: machine) } ?? []
        #expect(states.last as? DataIsLoaded == DataIsLoaded(data: "after cancel"))
    }

    @Test("a second live iterator finishes at once and the misuse is reported; a later iterator carries on")
    func secondIterator() async {
        let reports = diagnostics
        let machine = countingMachine()
        var first = machine.makeAsyncIterator()
        #expect(await first.next() is Count)
        var second = machine.makeAsyncIterator()
        #expect(await second.next() == nil)
        // Other tests in the process may report their own misuse: keep this machine's reports.
        let mine = { reports.all.filter { $0.contains("\(machine.id)") } }
        #expect(mine().count == 1)
        #expect(mine().first?.contains("already has a live iterator") == true)

        machine.send(event: Increment(sender: 0, sequence: 0))
        _ = consume first
        var third = machine.makeAsyncIterator()
        #expect((await third.next() as? Count)?.value == 1)
        #expect(mine().count == 1)
    }

    @Test("states an iterator took but did not hand out go to the next iterator, in order")
    func unconsumedStatesCarryOver() async {
        let machine = countingMachine()
        for sequence in 0..<5 { machine.send(event: Increment(sender: 0, sequence: sequence)) }
        await machine.sendAndWait(event: Increment(sender: 0, sequence: 5), until: .transitionCommitted)
        do {
            var first = machine.makeAsyncIterator()
            #expect((await first.next() as? Count)?.value == 0)  // takes the whole buffer
            #expect((await first.next() as? Count)?.value == 1)
        }
        var second = machine.makeAsyncIterator()
        var values: [Int] = []
        for _ in 0..<5 { values.append((await second.next() as? Count)?.value ?? -1) }
        #expect(values == [2, 3, 4, 5, 6])

        // Cancellation gives the rest back too.
        machine.send(event: Increment(sender: 0, sequence: 6))
        machine.send(event: Increment(sender: 0, sequence: 7))
        await machine.sendAndWait(event: Increment(sender: 0, sequence: 8), until: .transitionCommitted)
        _ = consume second
        let started = Signal()
        let proceed = Signal()
        let cancelled = Task {
            var iterator = machine.makeAsyncIterator()
            let first = await iterator.next() as? Count
            started.raise()
            await proceed.waitIgnoringCancellation()
            let afterCancellation = await iterator.next()
            return (first?.value, afterCancellation == nil)
        }
        await within { await started.wait() }
        cancelled.cancel()
        proceed.raise()
        let (firstValue, endedOnCancel) = await within { await cancelled.value } ?? (nil, false)
        #expect(firstValue == 7)
        #expect(endedOnCancel)
        var third = machine.makeAsyncIterator()
        #expect((await third.next() as? Count)?.value == 8)
        #expect((await third.next() as? Count)?.value == 9)
    }

    @Test("cancelling the observing task ends observation only; the machine and its outputs go on")
    func cancellingObservation() async {
        let release = Signal()
        let machine = AsyncStateMachine(
            stateMachine: loadingMachine { _ in
                await release.wait()
                return DidSucceedToLoad(data: "done")
            }
        ).disableLog()
        let observed = Signal()
        let observer = Task {
            var count = 0
            for await _ in machine {
                count += 1
                if count == 2 { observed.raise() }
            }
            return count
        }
        machine.send(event: DidRequestLoading(id: "1"))
        await within { await observed.wait() }
        observer.cancel()
        #expect(await within { await observer.value } == 2)
        #expect(machine.core.runningOutputCount == 1)
        release.raise()
        // A new observer carries on where the cancelled one stopped.
        let next = await within { await take(1, from: machine) } ?? []
        #expect(next.first as? DataIsLoaded == DataIsLoaded(data: "done"))
    }

    @Test("after finish the iterator delivers the buffered states, then nil for good")
    func iteratorAfterFinish() async {
        let machine = AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
        await machine.sendAndWait(event: DidRequestLoading(id: "1"))
        await machine.finishAndWait()
        var iterator = machine.makeAsyncIterator()
        var names: [String] = []
        while let state = await iterator.next() { names.append(String(describing: type(of: state))) }
        #expect(names == ["DataIsIdle", "DataIsLoading", "DataIsLoaded"])
        #expect(await iterator.next() == nil)
    }

    /// Observing a machine starts it on the observer's task, holding the command loop's role
    /// for that moment: events sent by other tasks meanwhile must still follow the initial
    /// state, in order, with none lost (and, under the thread sanitizer, without a race on
    /// the loop's state).
    @Test("events sent while an observer starts the machine follow its initial state, in order")
    func eventsSentWhileObservationStarts() async {
        for _ in 0..<200 {
            let machine = countingMachine()
            let sender = Task {
                for sequence in 0..<10 { machine.send(event: Increment(sender: 0, sequence: sequence)) }
            }
            let values = await within { await take(11, from: machine).compactMap { ($0 as? Count)?.value } }
            await sender.value
            #expect(values == Array(0...10))
            await machine.finishAndWait()
        }
    }

    /// A composite's child is such a machine: nothing can iterate it, and it used to keep
    /// every state it committed until its parent left the owning state. It is started the
    /// way a composite starts its children: observation ended first, since `start()` may
    /// publish the initial state at once.
    @Test("a machine whose observation has ended keeps no states, while lastKnownState follows")
    func noBufferAfterObservationEnded() async {
        let machine = countingMachine()
        machine.core.finishObservation()
        machine.core.start()
        for sequence in 0..<1_000 { machine.send(event: Increment(sender: 0, sequence: sequence)) }
        await machine.sendAndWait(event: Increment(sender: 0, sequence: 1_000))
        #expect(machine.core.shared.withLock { $0.states.count } == 0)
        #expect((machine.lastKnownState as? Count)?.value == 1_001)
        await machine.finishAndWait()
    }
}
