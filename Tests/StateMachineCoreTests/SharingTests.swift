import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

@Suite("share(replayCount:) and AsyncStateMachineFactory", .timeLimit(.minutes(3)))
struct SharingTests {
    /// A base sequence that counts how many times `next()` is called.
    struct CountingSequence: AsyncSequence, Sendable {
        typealias Element = Int
        let elements: [Int]
        let nextCalls: Counter

        struct AsyncIterator: AsyncIteratorProtocol {
            var remaining: ArraySlice<Int>
            let nextCalls: Counter
            mutating func next() async -> Int? {
                nextCalls.increment()
                return remaining.popFirst()
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: elements[...], nextCalls: nextCalls) }
    }

    /// 0..<count, yielding its thread every 1,000 elements: a long run that leaves the tests
    /// running alongside their share of the cooperative threads.
    struct YieldingSequence: AsyncSequence, Sendable {
        typealias Element = Int
        let count: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            var next = 0
            let count: Int
            mutating func next() async -> Int? {
                guard next < count else { return nil }
                defer { next += 1 }
                if next % 1_000 == 999 { await Task.yield() }
                return next
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count) }
    }

    final class Counter: Sendable {
        let value = Atomic(0)
        func increment() { value.add(1, ordering: .relaxed) }
    }

    @Test("every client sees every element; the base is iterated once (elements + 1 calls)")
    func multicast() async {
        let calls = Counter()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let shared = stream.share(replayCount: .max(count: 0))
        // `share` returns an opaque `some AsyncSequence<Int, Never>`: its iterator's
        // non-throwing `next` is `next(isolation:)` (`for await` uses it too).
        var first = shared.makeAsyncIterator()
        var second = shared.makeAsyncIterator()
        let producer = Task {
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        var a: [Int] = []
        var b: [Int] = []
        while let value = await first.next(isolation: #isolation) { a.append(value) }
        while let value = await second.next(isolation: #isolation) { b.append(value) }
        await producer.value
        #expect(a == [1, 2, 3])
        #expect(b == [1, 2, 3])

        let counted = CountingSequence(elements: [1, 2, 3, 4], nextCalls: calls).share(replayCount: .unbounded)
        var c1 = counted.makeAsyncIterator()
        var c2 = counted.makeAsyncIterator()
        var c3 = counted.makeAsyncIterator()
        var all: [[Int]] = [[], [], []]
        while let value = await c1.next(isolation: #isolation) { all[0].append(value) }
        while let value = await c2.next(isolation: #isolation) { all[1].append(value) }
        while let value = await c3.next(isolation: #isolation) { all[2].append(value) }
        #expect(all == [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]])
        #expect(calls.value.load(ordering: .relaxed) == 5)
    }

    @Test(
        "a late client gets the replay, then the end",
        arguments: [
            (ReplayCount.unbounded, [1, 2, 3]),
            (ReplayCount.max(count: 1), [3]),
            (ReplayCount.max(count: 2), [2, 3]),
            (ReplayCount.max(count: UInt.max), [1, 2, 3]),
            (ReplayCount.max(count: 0), []),
        ]
    )
    func replay(count: ReplayCount, expected: [Int]) async {
        let shared = CountingSequence(elements: [1, 2, 3], nextCalls: Counter()).share(replayCount: count)
        var early = shared.makeAsyncIterator()
        while await early.next(isolation: #isolation) != nil {}
        var late = shared.makeAsyncIterator()
        var received: [Int] = []
        while let value = await late.next(isolation: #isolation) { received.append(value) }
        #expect(received == expected)
    }

    /// Regression test (issue 28's search for costs that grow with history): handing an
    /// element out copied the dictionary of clients (its keys were being iterated), so the
    /// buffer of a client that stays behind was copied whole for every element, and the
    /// elements it had read were never dropped. Measured on a 2-core machine, debug build,
    /// this test alone: 1.7 s now; on the commit before, not done when stopped at 60 s. The
    /// bound leaves room for the thread sanitizer on a loaded host (45 s was passed once in
    /// a full run); the quadratic cost it catches takes far longer.
    @Test("a client that stays behind costs the same per element however far behind it is (300,000 elements)")
    func laggingClientStaysLinear() async {
        let count = 300_000
        let shared = YieldingSequence(count: count).share(replayCount: .max(count: 4))
        let received = await within(seconds: 150, "\(count) elements to a client that stays behind") {
            var ahead = shared.makeAsyncIterator()
            var behind = shared.makeAsyncIterator()
            // The first client drives the base to its end while the second buffers everything...
            var aheadCount = 0
            while await ahead.next(isolation: #isolation) != nil { aheadCount += 1 }
            // ...then the second reads it all, its reading interleaved with fresh demand.
            var values: [Int] = []
            values.reserveCapacity(count)
            while let value = await behind.next(isolation: #isolation) {
                values.append(value)
                if value % 1_000 == 999 { await Task.yield() }
            }
            return (aheadCount, values)
        }
        #expect(received?.0 == count)
        // Compared without printing 300,000 values when it fails: the first one out of place.
        let misplaced = received?.1.enumerated().first { $0.offset != $0.element }
        #expect(received?.1.count == count)
        #expect(misplaced == nil, "value \(misplaced?.element ?? 0) at position \(misplaced?.offset ?? 0)")
    }

    @Test("cancelling one client ends that client only")
    func cancellingOneClient() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let shared = stream.share(replayCount: .max(count: 0))
        let firstReceived = Signal()
        let cancelled = Task {
            var received = 0
            for await _ in shared {
                received += 1
                firstReceived.raise()
            }
            return received
        }
        var survivor = shared.makeAsyncIterator()
        continuation.yield(1)
        #expect(await survivor.next(isolation: #isolation) == 1)
        await within { await firstReceived.wait() }
        cancelled.cancel()
        #expect(await within { await cancelled.value } == 1)
        continuation.yield(2)
        continuation.finish()
        #expect(await survivor.next(isolation: #isolation) == 2)
        #expect(await survivor.next(isolation: #isolation) == nil)
    }

    @Test("a singleton factory builds once under 32 concurrent builds")
    func singletonBuiltOnce() async {
        let builds = Counter()
        let factory = AsyncStateMachineFactory<FeatureState, FeatureEvent>(lifecycle: .singleton) {
            builds.increment()
            return AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
        }
        let ids = await withTaskGroup(of: String.self) { group in
            for _ in 0..<32 { group.addTask { "\(factory.build().asyncStateMachine.id)" } }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(builds.value.load(ordering: .relaxed) == 1)
        #expect(ids.count == 1)
    }

    @Test("an instance factory builds a new machine each time")
    func instanceFactory() {
        let factory = AsyncStateMachineFactory<FeatureState, FeatureEvent> {
            AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
        }
        #expect(factory.makeAsyncStateMachine().id != factory.makeAsyncStateMachine().id)
        #expect(
            AsyncStateMachineFactory<FeatureState, FeatureEvent>.default(initial: DataIsIdle()).makeAsyncStateMachine()
                .lastKnownState is DataIsIdle
        )
    }

    @Test("singleton views share the machine and a late view starts from the last state")
    func singletonViews() async {
        let factory = AsyncStateMachineFactory<FeatureState, FeatureEvent>(lifecycle: .singleton) {
            AsyncStateMachine(stateMachine: loadingMachine { _ in nil }).disableLog()
        }
        let first = factory.build()
        first.asyncStateMachine.send(event: DidRequestLoading(id: "1"))
        first.asyncStateMachine.finish()
        var early: [String] = []
        for await state in first.erasedAsyncStateMachine { early.append(String(describing: type(of: state))) }
        var late: [String] = []
        for await state in factory.build().erasedAsyncStateMachine { late.append(String(describing: type(of: state))) }
        #expect(early == ["DataIsIdle", "DataIsLoading"])
        #expect(late == ["DataIsLoading"])
    }
}
