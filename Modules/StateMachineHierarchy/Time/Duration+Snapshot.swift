// How snapshots write a duration: a whole number of nanoseconds (`remainingNanoseconds`),
// exact and readable, for pending timers and pending sends of `StatechartSnapshot`.

extension Duration {
    /// The duration as whole nanoseconds (sub-nanosecond parts dropped).
    var snapshotNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
