/// A definition's fingerprint: 64-bit FNV-1a over the lines that describe its structure,
/// each followed by a newline. Not a cryptographic hash: it tells definitions apart, it
/// does not authenticate them.
package struct Fingerprint {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of no lines.
    package init() {}

    /// Adds one line.
    package mutating func add(_ line: String) {
        for byte in line.utf8 { mix(byte) }
        mix(0x0A)
    }

    private mutating func mix(_ byte: UInt8) {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }

    /// The hash in 16 hexadecimal digits.
    package var hex: String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
