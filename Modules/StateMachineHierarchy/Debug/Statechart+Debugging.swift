extension Statechart {
    /// Logs every step from now on, with TBStateMachine's information: each event attempted,
    /// the state that handles it, the transition performed, every exit and enter with the
    /// payload, region set-ups and tear-downs, the real duration of the step and the events
    /// still queued. A step's lines reach `sink` together, after the step.
    ///
    /// ```
    /// [main]: attempt to handle event 'a3_b2' data: nil
    /// [a3] will handle event 'a3_b2' data: nil
    /// [main] performing transition: a3 --> b2 data: nil
    /// [aSubMachine] teardown data: nil
    /// \tExit 'a3' data: nil
    /// ...
    /// [main]: run-to-completion step took 0.012000 milliseconds
    /// [main]: remaining events in queue: 0
    /// [main]: []
    /// ```
    public func attachDebugger(_ sink: StatechartDebugSink = .standardError) {
        engine.setDebugSink(sink)
    }

    /// Stops logging.
    public func detachDebugger() {
        engine.setDebugSink(nil)
    }

    /// The active state configuration as an indented tree, as of the last completed step:
    /// each region's name at `2d` tabs (for region depth `d`, the root being 0), then its
    /// active state at `2d + 1` tabs, recursing into nested regions in index order.
    /// Empty when the chart is not running.
    public var activeStateConfiguration: String {
        let snapshot = engine.publishedConfiguration()
        var text = ""
        describe(region: 0, depth: 0, snapshot: snapshot, into: &text)
        return text
    }

    private func describe(region: Int32, depth: Int, snapshot: [Int32], into text: inout String) {
        let active = snapshot[Int(region)]
        guard active >= 0 else { return }
        let model = topology
        text += String(repeating: "\t", count: 2 * depth) + model.regions[Int(region)].name + "\n"
        text += String(repeating: "\t", count: 2 * depth + 1) + model.states[Int(active)].name + "\n"
        for inner in model.states[Int(active)].regions {
            describe(region: inner, depth: depth + 1, snapshot: snapshot, into: &text)
        }
    }
}
