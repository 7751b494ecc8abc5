import StateMachineSupport
import Testing

@Suite("Lock")
struct LockTests {
    struct WithClosureField { var run: () -> Void }
    final class Box {}
    struct Unique: ~Copyable {}

    /// A closure kept directly in a `Lock` is wrapped once more by every `withLock` round trip
    /// (issue 28); `init` asserts against such values in debug builds, by this check.
    @Test("a function, an optional one and a tuple holding one are recognised as closures")
    func recognisesClosures() {
        #expect(Lock<() -> Void>.holdsClosure)
        #expect(Lock<@Sendable (String) async -> Void>.holdsClosure)
        #expect(Lock<(@Sendable (Int) -> Bool)?>.holdsClosure)
        #expect(Lock<(() -> Void)??>.holdsClosure)
        #expect(Lock<(count: Int, run: (() -> Void)?)>.holdsClosure)
    }

    @Test("other values, closures kept inside a struct, a class or a collection among them, are not")
    func acceptsOtherValues() {
        #expect(!Lock<Int>.holdsClosure)
        #expect(!Lock<Int?>.holdsClosure)
        #expect(!Lock<String??>.holdsClosure)
        #expect(!Lock<(Int, String)>.holdsClosure)
        #expect(!Lock<()>.holdsClosure)
        #expect(!Lock<WithClosureField>.holdsClosure)
        #expect(!Lock<Box?>.holdsClosure)
        #expect(!Lock<[() -> Void]>.holdsClosure)
        #expect(!Lock<[Int: () -> Void]>.holdsClosure)
        #expect(!Lock<Unique>.holdsClosure)
        #expect(!Lock<any Sendable>.holdsClosure)
    }

    @Test("withLock reads and writes the value")
    func readsAndWrites() {
        let lock = Lock([1, 2])
        lock.withLock { $0.append(3) }
        #expect(lock.withLock { $0 } == [1, 2, 3])
    }
}
