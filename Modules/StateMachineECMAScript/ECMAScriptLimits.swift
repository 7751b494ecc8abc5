/// The bounds every session of the ECMAScript data model runs within (the article "Bounds
/// and sandbox" of the catalog explains each).
package struct ECMAScriptLimits: Sendable, Hashable {
    /// The wall-clock time one call of a session (an evaluation, an assignment, a script)
    /// may run before it fails with `RangeError: execution timeout`.
    package var timePerCall: Duration
    /// The bytes a session's heap may hold; an allocation beyond them fails
    /// (`Error: alloc failed`). Compiling a document's scripts runs within the same bound.
    package var memoryPerSession: Int

    /// Limits.
    package init(timePerCall: Duration, memoryPerSession: Int) {
        self.timePerCall = timePerCall
        self.memoryPerSession = memoryPerSession
    }

    /// What `SCXMLDataModel.ecmascript` uses: 100 ms per call, 16 MiB per session.
    package static let standard = ECMAScriptLimits(timePerCall: .milliseconds(100), memoryPerSession: 16 << 20)

    /// The milliseconds of `timePerCall`, at least 1.
    var milliseconds: UInt32 {
        let (seconds, attoseconds) = timePerCall.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return UInt32(clamping: max(total, 1))
    }
}
