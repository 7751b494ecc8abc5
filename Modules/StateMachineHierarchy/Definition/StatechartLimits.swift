/// The bounds a chart's structure and behaviour must stay within, so that no input can
/// exhaust the stack or keep a caller busy forever. Each is checked with an error that
/// names the limit.
public enum StatechartLimits {
    /// How deeply states may nest (a top-level state is at depth 1). Compiling a deeper
    /// chart throws ``StatechartError/nestingTooDeep(path:limit:)``. Loading, compiling
    /// and stepping recurse through the nesting; this bound keeps them well inside a
    /// thread's stack even in debug builds with the thread sanitizer (measured: about 700
    /// levels fit a test thread there), and far beyond what a readable chart needs.
    public static let maxNestingDepth = 200

    /// How many delayed sends (SCXML's `<send delay>`) may wait at once in one chart. A
    /// send past it is not made and raises `error.execution`, so that a chart that keeps
    /// sending without cancelling holds bounded memory and timers.
    public static let maxPendingSends = 1_000
}
