/// SplitMix64 (Steele, Lea and Flood; Vigna's reference `splitmix64.c`): a seeded generator
/// that gives the same numbers for the same seed on every platform and in every release, which
/// the standard library's `SystemRandomNumberGenerator` does not promise.
///
/// The package's one seeded generator: the apps' `--seed` runs, the Navigation sample's fake
/// backend, the generated tables of the property tests and the benchmarks' sequences. It is
/// not cryptographically secure. Each `next()` costs an addition, three shifts and two
/// multiplications; a copy of the generator continues the same sequence independently.
///
/// The fuzz package compiles this file into its `FuzzDeepLink` target (through a symbolic
/// link, beside the sample's files that use it), so it imports nothing.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The state: advanced by the golden-ratio increment before each output.
    private var state: UInt64

    /// A generator whose first output is that of `splitmix64.c` started at `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
