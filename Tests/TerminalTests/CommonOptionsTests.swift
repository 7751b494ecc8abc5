import Testing

@testable import Terminal

/// The apps' one parser of their common options, `--seed` included.
@Suite("Common options")
struct CommonOptionsTests {
    /// Parses `arguments` as an app that takes `--seed` (or not) and no argument of its own,
    /// collecting what reaches `other`.
    static func parse(
        _ arguments: [String],
        acceptsSeed: Bool = true,
        acceptsState: Bool = true
    ) -> (Result<CommonOptions, UsageError>, [String]) {
        var others: [String] = []
        let result = CommonOptions.parse(
            arguments,
            environment: [:],
            delayScaleVariable: "TEST_DELAY_SCALE",
            acceptsSeed: acceptsSeed,
            acceptsState: acceptsState
        ) { argument, _ in
            others.append(argument)
            return nil
        }
        return (result, others)
    }

    @Test("--seed takes any UInt64, the last one given wins, and it is nil when not given")
    func seed() throws {
        #expect(try Self.parse(["--seed", "7"]).0.get().seed == 7)
        #expect(try Self.parse(["--seed", "0"]).0.get().seed == 0)
        #expect(try Self.parse(["--seed", "18446744073709551615"]).0.get().seed == UInt64.max)
        var lastWins = CommonOptions()
        lastWins.seed = 2
        lastWins.log = true
        #expect(try Self.parse(["--seed", "1", "--log", "--seed", "2"]).0.get() == lastWins)
        #expect(try Self.parse(["--log"]).0.get().seed == nil)
    }

    @Test(
        "a --seed without a whole number in range is refused with a message naming the range",
        arguments: [
            (["--seed"], "--seed needs a whole number from 0 to 18446744073709551615 (for example --seed 7)"),
            (["--seed", "-1"], "--seed must be a whole number from 0 to 18446744073709551615, not '-1'"),
            (["--seed", "seven"], "--seed must be a whole number from 0 to 18446744073709551615, not 'seven'"),
        ]
    )
    func badSeed(arguments: [String], message: String) {
        let (result, _) = Self.parse(arguments)
        #expect(throws: UsageError(message)) { try result.get() }
    }

    @Test("an app that takes no seed gets --seed and its value as arguments of its own")
    func seedNotAccepted() throws {
        let (result, others) = Self.parse(["--seed", "7"], acceptsSeed: false)
        #expect(try result.get().seed == nil)
        #expect(others == ["--seed", "7"])
    }

    @Test("--state takes one file, nil when not given; an app that keeps nothing gets it as its own argument")
    func state() throws {
        #expect(try Self.parse(["--state", "app.sqlite", "--log"]).0.get().stateFile == "app.sqlite")
        #expect(try Self.parse(["--log"]).0.get().stateFile == nil)
        let (result, others) = Self.parse(["--state", "app.sqlite"], acceptsState: false)
        #expect(try result.get().stateFile == nil)
        #expect(others == ["--state", "app.sqlite"])
    }

    @Test(
        "a --state without a file, with an option after it or given twice is refused",
        arguments: [
            (["--state"], "--state needs a file to keep the state in (for example --state app.sqlite)"),
            (["--state", ""], "--state needs a file to keep the state in (for example --state app.sqlite)"),
            (["--state", "--log"], "--state needs a file to keep the state in (for example --state app.sqlite)"),
            (["--state", "a.sqlite", "--state", "b.sqlite"], "one --state at most; 'b.sqlite' is a second file"),
        ]
    )
    func badState(arguments: [String], message: String) {
        let (result, _) = Self.parse(arguments)
        #expect(throws: UsageError(message)) { try result.get() }
    }
}
