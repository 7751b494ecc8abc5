import StateMachineHierarchy
import Synchronization

// The current chart, read without the session's lock.
//
// `Session.chart` owns the chart being run, and `Session.retired` the charts `restore`
// replaced while a reader may still be using one; both change only under the session's
// lock. `currentChart` mirrors `Session.chart` as an unretained pointer, also written only
// under that lock. A reader (`withCurrentChart`) counts itself in `chartReaders` before it
// loads the pointer, and out after its last use of the chart. The replaced charts are
// released (`reclaimCharts()`) only when, under the lock, and so after their replacement,
// no reader is counted.
//
// Why that is enough: every operation on the three atomics is sequentially consistent, so
// they happen in one order. A reader that loaded a replaced chart did so before the
// replacement was stored, and counted itself before that. It is therefore still counted
// when `reclaimCharts()` looks, unless it has finished with the chart. A reader that
// counts itself later loads a later chart. And a retirement is never left behind: when
// the last reader leaves as a chart is retired, either it sees `hasRetiredCharts` set, or
// `restore`'s own `reclaimCharts()` sees it gone. (Two of the orderings are the same as
// Dekker's: a store to one atomic, then a load of the other, on both sides.)
extension SCXMLInterpreter {
    /// Runs `body` with the current chart: two atomic operations, no lock and no retain,
    /// so that ``send(_:)`` costs about what the chart's own step does.
    @inline(__always)
    func withCurrentChart<Result>(_ body: (SCXMLChart) throws -> Result) rethrows -> Result {
        chartReaders.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer {
            if chartReaders.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue == 0,
                hasRetiredCharts.load(ordering: .sequentiallyConsistent)
            {
                reclaimCharts()
            }
        }
        // Set by the initialiser, before `self` is shared: never 0 here.
        let pointer = UnsafeRawPointer(bitPattern: currentChart.load(ordering: .sequentiallyConsistent))!
        return try Unmanaged<SCXMLChart>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    /// Makes `chart` the one run, under the session's lock (`session` is its value); the
    /// chart it replaces is cut off from the session (the steps it still runs reach none of
    /// it: see `Statechart.Hooks.detachStepObserver()`) and kept in `session.retired` until
    /// no reader can hold it.
    func makeCurrent(_ chart: SCXMLChart, in session: inout Session) {
        if let previous = session.chart {
            previous.hooks.detachStepObserver()
            session.retired.append(previous)
            hasRetiredCharts.store(true, ordering: .sequentiallyConsistent)
        }
        session.chart = chart
        let address = UInt(bitPattern: Unmanaged.passUnretained(chart).toOpaque())
        currentChart.store(address, ordering: .sequentiallyConsistent)
    }

    /// Releases the replaced charts if no reader is counted. Out of line: it runs once per
    /// restore, or when the last reader of a replaced chart leaves.
    @inline(never)
    func reclaimCharts() {
        let released = state.withLock { session -> [SCXMLChart] in
            guard chartReaders.load(ordering: .sequentiallyConsistent) == 0 else { return [] }
            hasRetiredCharts.store(false, ordering: .sequentiallyConsistent)
            defer { session.retired = [] }
            return session.retired
        }
        // Released here, outside the lock: a chart's engine cancels its timers as it goes.
        withExtendedLifetime(released) {}
    }
}
