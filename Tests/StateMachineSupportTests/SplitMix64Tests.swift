import StateMachineSupport
import Testing

/// The package's one seeded generator gives the reference implementation's numbers, so a
/// seed means the same run everywhere.
@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("the first outputs for seed 1234567 are those of Vigna's splitmix64.c")
    func referenceSequence() {
        var generator = SplitMix64(seed: 1_234_567)
        let outputs = (0..<5).map { _ in generator.next() }
        #expect(
            outputs == [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
            ]
        )
    }

    @Test("seed 0 starts with 0xE220A8397B1DCDAF")
    func seedZero() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("a copy continues the same sequence on its own; another seed gives another")
    func copiesAndSeeds() {
        var first = SplitMix64(seed: 42)
        _ = first.next()
        var copy = first
        let fromFirst = (0..<8).map { _ in first.next() }
        let fromCopy = (0..<8).map { _ in copy.next() }
        #expect(fromFirst == fromCopy)
        var other = SplitMix64(seed: 43)
        #expect((0..<8).map { _ in other.next() } != fromFirst)
    }

    @Test("as a RandomNumberGenerator, the same seed draws the same numbers in a range")
    func randomInRange() {
        var one = SplitMix64(seed: 7)
        var two = SplitMix64(seed: 7)
        let draws = (0..<100).map { _ in Int.random(in: 1...1000, using: &one) }
        #expect(draws == (0..<100).map { _ in Int.random(in: 1...1000, using: &two) })
        #expect(draws.allSatisfy { (1...1000).contains($0) })
        #expect(Set(draws).count > 50)
    }
}
