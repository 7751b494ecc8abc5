import Foundation
import StateMachineHierarchy

/// Fuzz harness: one chart, one meaning. The bytes decode into a ``SemanticsChart`` and a
/// script; the chart is built twice, as an SCXML document (run by `SCXMLInterpreter`) and
/// as a typed DSL chart with `.scxml` options, each on a `ManualStatechartClock`, and both
/// run the script. After `start` and after every step it checks:
///
/// - (a) each form's configuration is legal: the root and every active compound state have
///   exactly one active child, an active parallel state has all its children active, every
///   active state's parent is active, no pseudo state is active;
/// - (b) the two forms step identically: the same active states, and the same trace of
///   exits, entries and `<log>`s (SCXML's `trace` without its `event:` lines; the typed
///   twin's enter and exit blocks record the same entries);
/// - (c) a snapshot taken after ``SemanticsChart/snapshotAfter`` steps, sent through JSON and
///   restored into a fresh machine on a fresh clock, gives the same future: the same
///   configurations and traces for the rest of the script (for both forms);
/// - (d) determinism: the same input run again gives the same configurations and traces.
///
/// A macrostep that fails (an eventless or raise loop past `maxMicrosteps`) ends the
/// comparison at that step; both forms must fail at the same event. A failure prints the
/// SCXML text, the typed chart as Swift, the script and both forms' steps, then traps,
/// so that libFuzzer keeps the input. Shared by `FuzzChartSemantics` and the regression
/// tests (the same files, linked).
///
/// While the engine fixes of issue 29 are pending, `CHART_SEMANTICS_SKIP` (a comma-separated
/// list of ``KnownDifference`` names, or `all`) skips the inputs whose chart has the shape of
/// a known difference. Unset, as committed and in CI, everything is checked.
enum ChartSemanticsHarness {
    /// The options both forms run with: SCXML's, with a smaller loop guard so that a
    /// looping input fails fast.
    static var options: StatechartOptions {
        var options = StatechartOptions.scxml
        options.maxMicrosteps = 64
        options.maxSelfFedSteps = 64
        return options
    }

    /// What one form did after `start` (step 0) or a script step.
    struct StepRecord: Equatable {
        /// The active states, in document order.
        var configuration: [String]
        /// What the step did (SCXML's trace with its `event:` lines; the typed twin's blocks).
        var trace: [String]
        /// The error of a failed macrostep, which ends the run.
        var failure: String?

        /// The trace without `event:` lines: what both forms record.
        var comparableTrace: [String] { trace.filter { !$0.hasPrefix("event:") } }
    }

    /// A run of one form over the script (or the part after a snapshot).
    struct Run {
        /// Records by step number: `start` is 0, script step `n` is `n`.
        var records: [Int: StepRecord] = [:]
        /// The snapshot taken after step ``SemanticsChart/snapshotAfter``, if the run got there.
        var snapshot: StatechartSnapshot?
        /// The step whose macrostep failed, if any.
        var failedAt: Int?
    }

    static func run(_ data: Data) {
        let chart = SemanticsChart(decoding: data)
        let skipped = KnownDifference.skipped(ProcessInfo.processInfo.environment["CHART_SEMANTICS_SKIP"])
        if !skipped.isEmpty, chart.knownDifferences.contains(where: skipped.contains) { return }
        let checker = Checker(chart: chart)
        checker.check()
    }
}

extension ChartSemanticsHarness {
    /// Runs the checks on one chart and reports the first that fails.
    struct Checker {
        let chart: SemanticsChart
        let xml: String

        init(chart: SemanticsChart) {
            self.chart = chart
            xml = chart.scxml
        }

        func check() {
            let document: SCXMLDocument
            do {
                document = try SCXMLDocument(xml: xml)
            } catch {
                fail("the SCXML reader rejects the generated document: \(error)")
            }
            do {
                _ = try SemanticsTypedChart(chart.typedDefinition(probe: SemanticsProbe()), options: options)
            } catch {
                fail("the typed chart does not compile: \(error)")
            }
            let scxml = runSCXML(document)
            let typed = runTyped()
            for (name, run) in [("SCXML", scxml), ("typed", typed)] {
                checkLegal(run, form: name)
            }
            compare(scxml, typed, check: "(b) the SCXML document and the typed chart step differently")

            // (c) a snapshot through JSON and a restore gives the same future.
            if let snapshot = scxml.snapshot {
                let restored = runSCXML(document, restoring: roundTrip(snapshot, form: "SCXML"))
                checkLegal(restored, form: "SCXML restored")
                compare(scxml, restored, from: chart.snapshotAfter + 1, check: "(c) the restored SCXML machine's future differs", fullTrace: true, labels: ("SCXML", "SCXML restored"))
            }
            if let snapshot = typed.snapshot {
                let restored = runTyped(restoring: roundTrip(snapshot, form: "typed"))
                checkLegal(restored, form: "typed restored")
                compare(typed, restored, from: chart.snapshotAfter + 1, check: "(c) the restored typed chart's future differs", fullTrace: true, labels: ("typed", "typed restored"))
            }

            // (d) the same input runs the same way again.
            compare(scxml, runSCXML(document), check: "(d) the SCXML document runs differently the second time", fullTrace: true, labels: ("SCXML", "SCXML again"))
            compare(typed, runTyped(), check: "(d) the typed chart runs differently the second time", fullTrace: true, labels: ("typed", "typed again"))
        }

        // MARK: Running

        /// The script steps a run takes: all of them, or those after a restored snapshot.
        private func steps(restoring: Bool) -> [(number: Int, step: SemanticsChart.Step)] {
            let all = chart.script.enumerated().map { (number: $0.offset + 1, step: $0.element) }
            return restoring ? Array(all.dropFirst(chart.snapshotAfter)) : all
        }

        func runSCXML(_ document: SCXMLDocument, restoring snapshot: StatechartSnapshot? = nil) -> Run {
            let clock = ManualStatechartClock()
            let macrosteps = SemanticsProbe()
            let options = ChartSemanticsHarness.options
            let onMacrostep: SCXMLInterpreter.MacrostepObserver = { trace in macrosteps.record(contentsOf: trace) }
            var run = Run()
            let machine: SCXMLInterpreter
            if let snapshot {
                do {
                    machine = try SCXMLInterpreter(
                        document: document,
                        restoring: snapshot,
                        options: options,
                        clock: clock,
                        onMacrostep: onMacrostep
                    )
                } catch {
                    fail("an SCXML machine refuses its own snapshot: \(error)\n\(describe(snapshot))")
                }
            } else {
                machine = SCXMLInterpreter(document: document, options: options, clock: clock, onMacrostep: onMacrostep)
                let failure = capture { try machine.start() } ?? machine.failure.map { "\($0)" }
                run.records[0] = StepRecord(
                    configuration: machine.activeStates,
                    trace: macrosteps.takeTrace(),
                    failure: failure
                )
                if failure != nil {
                    run.failedAt = 0
                    return run
                }
                if chart.snapshotAfter == 0 { run.snapshot = machine.snapshot() }
            }
            for (number, step) in steps(restoring: snapshot != nil) {
                var failure: String?
                switch step {
                case .event(let name): failure = capture { try machine.send(name) }
                case .advance(let seconds): clock.advance(by: .seconds(seconds))
                }
                failure = failure ?? machine.failure.map { "\($0)" }
                run.records[number] = StepRecord(
                    configuration: machine.activeStates,
                    trace: macrosteps.takeTrace(),
                    failure: failure
                )
                if failure != nil {
                    run.failedAt = number
                    return run
                }
                if number == chart.snapshotAfter { run.snapshot = machine.snapshot() }
            }
            return run
        }

        func runTyped(restoring snapshot: StatechartSnapshot? = nil) -> Run {
            let clock = ManualStatechartClock()
            let probe = SemanticsProbe()
            let definition = chart.typedDefinition(probe: probe)
            var run = Run()
            let machine: SemanticsTypedChart
            do {
                if let snapshot {
                    machine = try SemanticsTypedChart(definition, options: options, clock: clock, restoring: snapshot)
                    probe.reset(active: machine.activeStates)
                } else {
                    machine = try SemanticsTypedChart(definition, options: options, clock: clock)
                }
            } catch {
                fail("the typed chart does not compile or refuses its own snapshot: \(error)")
            }
            if snapshot == nil {
                machine.start()
                run.records[0] = StepRecord(configuration: machine.activeStates, trace: probe.takeTrace())
                if chart.snapshotAfter == 0 { run.snapshot = machine.snapshot() }
            }
            for (number, step) in steps(restoring: snapshot != nil) {
                var failure: String?
                switch step {
                case .event(let name): failure = capture { _ = try machine.handle(name) }
                case .advance(let seconds): clock.advance(by: .seconds(seconds))
                }
                run.records[number] = StepRecord(
                    configuration: machine.activeStates,
                    trace: probe.takeTrace(),
                    failure: failure
                )
                if failure != nil {
                    run.failedAt = number
                    return run
                }
                if number == chart.snapshotAfter { run.snapshot = machine.snapshot() }
            }
            return run
        }

        private func capture(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch {
                return "\(error)"
            }
        }

        /// `snapshot` encoded to JSON and decoded again, which must give it back.
        private func roundTrip(_ snapshot: StatechartSnapshot, form: String) -> StatechartSnapshot {
            do {
                let data = try JSONEncoder().encode(snapshot)
                let decoded = try JSONDecoder().decode(StatechartSnapshot.self, from: data)
                guard decoded == snapshot else {
                    fail("(c) the \(form) snapshot changed through JSON:\n\(describe(snapshot))\nread back:\n\(describe(decoded))")
                }
                return decoded
            } catch {
                fail("(c) the \(form) snapshot does not survive JSON: \(error)\n\(describe(snapshot))")
            }
        }

        private func describe(_ snapshot: StatechartSnapshot) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return (try? encoder.encode(snapshot)).map { String(decoding: $0, as: UTF8.self) } ?? "\(snapshot)"
        }

        // MARK: Checks

        /// (a) Every recorded configuration (before a failure) is legal.
        private func checkLegal(_ run: Run, form: String) {
            for number in run.records.keys.sorted() where number != run.failedAt {
                let configuration = run.records[number]!.configuration
                if let problem = chart.illegality(of: configuration) {
                    fail("(a) the \(form) configuration after \(stepName(number)) is illegal: \(problem)", runs: [(form, run)])
                }
            }
        }

        /// The two runs agree on every step from `first` on, up to the first failure:
        /// the same active states, the same trace (comparable part, unless `fullTrace`),
        /// and a failure at the same event (a failure in `start` or on a clock advance,
        /// which only the SCXML interpreter reports, ends the comparison).
        private func compare(
            _ left: Run,
            _ right: Run,
            from first: Int = 0,
            check: String,
            fullTrace: Bool = false,
            labels: (String, String) = ("SCXML", "typed")
        ) {
            let last = chart.script.count
            guard first <= last else { return }
            for number in first...last {
                let one = left.records[number]
                let other = right.records[number]
                guard let one, let other else {
                    if one == nil && other == nil { return }
                    fail("\(check): only one of them ran \(stepName(number))", runs: [(labels.0, left), (labels.1, right)])
                }
                // A typed chart reports a failed macrostep only to the caller of `handle`:
                // one in `start` or in a timer's step is visible on the SCXML side alone.
                let reportsFailures = number > 0 && { if case .event = chart.script[number - 1] { true } else { false } }()
                if one.failure != nil || other.failure != nil {
                    if (one.failure == nil) != (other.failure == nil), reportsFailures {
                        fail("\(check): only one of them fails at \(stepName(number))", runs: [(labels.0, left), (labels.1, right)])
                    }
                    return
                }
                let sameConfiguration = Set(one.configuration) == Set(other.configuration)
                let sameTrace = fullTrace ? one.trace == other.trace : one.comparableTrace == other.comparableTrace
                if !sameConfiguration || !sameTrace {
                    fail(
                        "\(check) at \(stepName(number)): "
                            + (sameConfiguration ? "the traces differ" : "the configurations differ"),
                        runs: [(labels.0, left), (labels.1, right)]
                    )
                }
            }
        }

        private func stepName(_ number: Int) -> String {
            guard number > 0 else { return "start (step 0)" }
            switch chart.script[number - 1] {
            case .event(let name): return "step \(number) (event \(name))"
            case .advance(let seconds): return "step \(number) (advance \(seconds)s)"
            }
        }

        // MARK: Reporting

        /// Prints the chart (SCXML and typed), the script and the runs, then traps.
        func fail(_ message: String, runs: [(String, Run)] = []) -> Never {
            var report = ["", "=== chart semantics: \(message)", "", "--- SCXML document", xml, "", "--- typed chart (Swift)", chart.typedOutline, ""]
            report.append("--- script (snapshot after step \(chart.snapshotAfter))")
            report.append("  0: start")
            for (offset, step) in chart.script.enumerated() {
                switch step {
                case .event(let name): report.append("  \(offset + 1): \(name)")
                case .advance(let seconds): report.append("  \(offset + 1): advance \(seconds)s")
                }
            }
            for (label, run) in runs {
                report.append("")
                report.append("--- \(label) run")
                for number in run.records.keys.sorted() {
                    let record = run.records[number]!
                    report.append("  \(number): [\(record.configuration.joined(separator: " "))]  \(record.trace.joined(separator: " "))")
                    if let failure = record.failure { report.append("     failed: \(failure)") }
                }
            }
            report.append("")
            FileHandle.standardError.write(Data(report.joined(separator: "\n").utf8))
            fatalError("chart semantics: \(message)")
        }
    }
}

extension SemanticsChart {
    /// Why `configuration` is not a legal configuration of the chart, or nil when it is.
    func illegality(of configuration: [String]) -> String? {
        let index = Dictionary(states.indices.map { (states[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        var active = Set<Int>()
        for id in configuration {
            guard let state = index[id] else {
                return histories.contains { $0.id == id } ? "the history '\(id)' is active" : "'\(id)' is no state"
            }
            guard active.insert(state).inserted else { return "'\(id)' is listed twice" }
        }
        let rootActive = rootChildren.filter(active.contains)
        guard rootActive.count == 1 else { return "\(rootActive.count) children of the root are active" }
        for state in active {
            if let parent = states[state].parent, !active.contains(parent) {
                return "'\(states[state].id)' is active, its parent '\(states[parent].id)' is not"
            }
            let children = states[state].children.filter(active.contains)
            switch states[state].kind {
            case .compound where children.count != 1:
                return "the compound state '\(states[state].id)' has \(children.count) active children"
            case .parallel where children.count != states[state].children.count:
                return "the parallel state '\(states[state].id)' has \(children.count) of \(states[state].children.count) children active"
            default:
                continue
            }
        }
        return nil
    }
}
