import Foundation
import StateMachineHierarchy
import StateMachineSCXML

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
///   twin's enter and exit blocks record the same entries, including the exit blocks of
///   the final configuration that both run when a top-level final finishes the chart:
///   W3C's `exitInterpreter`);
/// - (c) a snapshot taken after ``SemanticsChart/snapshotAfter`` steps, sent through JSON and
///   restored into a fresh machine on a fresh clock, gives the same future: the same
///   configurations and traces for the rest of the script (for both forms);
/// - (d) determinism: the same input run again gives the same configurations and traces;
/// - (e) behaviour does not depend on being watched: the SCXML session run unobserved
///   (no trace, no `onMacrostep`, its `<log>`s through a log sink) and with a debug sink
///   has the same steps, logs and variables as the observed one, and the typed chart run
///   with observers subscribed and with a debug sink has the same steps and trace as the
///   unobserved one.
///
/// A macrostep that fails (an eventless or raise loop past `maxMicrosteps`) ends the
/// comparison at that step; both forms must fail at the same event. A failure prints the
/// SCXML text, the typed chart as Swift, the script and both forms' steps, then traps,
/// so that libFuzzer keeps the input. Shared by `FuzzChartSemantics` and the regression
/// tests (the same files, linked). Every input is checked: the differences it found (issue
/// 29's, and `onDone` hiding descriptors) are fixed, and their inputs are kept in
/// `Fuzz/Regressions/semantics`.
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
        /// The session's variables after the step (`name=value`, sorted); empty for the
        /// typed twin, which has none.
        var variables: [String] = []

        /// The trace without `event:` lines: what both forms record.
        var comparableTrace: [String] { trace.filter { !$0.hasPrefix("event:") } }
        /// The `<log>` lines of the trace: what an unobserved session reports too.
        var logs: [String] { trace.filter { $0.hasPrefix("log:") } }
    }

    /// How a run is watched (check (e)).
    enum Watching: CustomStringConvertible {
        /// SCXML: `recordsTrace` and an `onMacrostep` observer. Typed: observers of the
        /// root's states subscribed.
        case observed
        /// SCXML: no trace, no `onMacrostep`; the `<log>`s reach a log sink. Typed: nothing.
        case unobserved
        /// As `unobserved`, with a debug sink attached.
        case debugSink

        var description: String {
            switch self {
            case .observed: "observed"
            case .unobserved: "unobserved"
            case .debugSink: "with a debug sink"
            }
        }
    }

    /// Which part of the traces two runs must share.
    enum TraceComparison {
        /// Without `event:` lines.
        case comparable
        /// Every line.
        case full
        /// The `<log>` lines, and the variables.
        case logs
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

    /// Decodes `data` into a chart and a script and checks them (see the type's
    /// documentation); traps, after printing both forms and their runs, when a check fails.
    static func run(_ data: Data) {
        let chart = SemanticsChart(decoding: data)
        let environment = ProcessInfo.processInfo.environment
        guard let finding = findings(in: chart) else { return }
        var report = finding
        if environment["CHART_SEMANTICS_REDUCE"] != nil {
            // A developer's aid when replaying a crash: the smallest chart and script (by
            // deleting parts) that still fail the same check, printed after the original.
            report.report +=
                "\n\n=== reduced to\n"
                + (findings(in: chart.reduced(failing: finding.check)) ?? finding).report
        }
        FileHandle.standardError.write(Data(report.report.utf8))
        fatalError("chart semantics: \(finding.message)")
    }

    /// The first check `chart` fails, or nil.
    static func findings(in chart: SemanticsChart) -> Finding? {
        do {
            try Checker(chart: chart).check()
            return nil
        } catch {
            return error
        }
    }

    /// A failed check: what failed, and the report that shows it.
    struct Finding: Error {
        /// Which check failed, without step numbers (what a reduction must keep failing).
        var check: String
        /// The check and where it failed.
        var message: String
        /// The chart in both forms, the script and the runs.
        var report: String
    }
}

extension ChartSemanticsHarness {
    /// Runs the checks on one chart and reports the first that fails.
    struct Checker {
        let chart: SemanticsChart
        let xml: String
        /// The typed twin's blocks are named (the export round trip, `ExportHarness`).
        let named: Bool

        /// A checker of `chart`, whose SCXML text it renders once.
        init(chart: SemanticsChart) {
            self.chart = chart
            xml = chart.scxml
            named = false
        }

        /// A checker of the export round trip: `xml` is what the export wrote for the
        /// typed twin with named blocks, which runs beside it.
        init(chart: SemanticsChart, exportedXML xml: String) {
            self.chart = chart
            self.xml = xml
            named = true
        }

        /// The export round trip: (a) both configurations are legal, and (b) the exported
        /// document and the named typed twin step identically (the same configurations,
        /// entries, exits and placeholder logs, and a failure at the same event).
        func checkRoundTrip(_ document: SCXMLDocument) throws(Finding) {
            let scxml = try runSCXML(document)
            let typed = try runTyped()
            for (name, run) in [("exported SCXML", scxml), ("typed", typed)] {
                try checkLegal(run, form: name)
            }
            try compare(
                scxml,
                typed,
                check: "(b) the exported document and the typed chart step differently",
                labels: ("exported SCXML", "typed")
            )
        }

        /// Loads and compiles both forms, runs each (twice, and once more from a snapshot),
        /// and checks (a) to (d).
        func check() throws(Finding) {
            let document: SCXMLDocument
            do {
                document = try SCXMLDocument(xml: xml)
            } catch {
                throw fail("the SCXML reader rejects the generated document", detail: "\(error)")
            }
            do {
                _ = try SemanticsTypedChart(chart.typedDefinition(probe: SemanticsProbe()), options: options)
            } catch {
                throw fail("the typed chart does not compile", detail: "\(error)")
            }
            let scxml = try runSCXML(document)
            let typed = try runTyped()
            for (name, run) in [("SCXML", scxml), ("typed", typed)] {
                try checkLegal(run, form: name)
            }
            try compare(scxml, typed, check: "(b) the SCXML document and the typed chart step differently")

            // (c) a snapshot through JSON and a restore gives the same future.
            if let snapshot = scxml.snapshot {
                let restored = try runSCXML(document, restoring: roundTrip(snapshot, form: "SCXML"))
                try checkLegal(restored, form: "SCXML restored")
                try compare(
                    scxml,
                    restored,
                    from: chart.snapshotAfter + 1,
                    check: "(c) the restored SCXML machine's future differs",
                    traces: .full,
                    labels: ("SCXML", "SCXML restored")
                )
            }
            if let snapshot = typed.snapshot {
                let restored = try runTyped(restoring: roundTrip(snapshot, form: "typed"))
                try checkLegal(restored, form: "typed restored")
                try compare(
                    typed,
                    restored,
                    from: chart.snapshotAfter + 1,
                    check: "(c) the restored typed chart's future differs",
                    traces: .full,
                    labels: ("typed", "typed restored")
                )
            }

            // (d) the same input runs the same way again.
            try compare(
                scxml,
                runSCXML(document),
                check: "(d) the SCXML document runs differently the second time",
                traces: .full,
                labels: ("SCXML", "SCXML again")
            )
            try compare(
                typed,
                runTyped(),
                check: "(d) the typed chart runs differently the second time",
                traces: .full,
                labels: ("typed", "typed again")
            )

            // (e) being watched changes nothing.
            for watching in [Watching.unobserved, .debugSink] {
                try compare(
                    scxml,
                    runSCXML(document, watching: watching),
                    check: "(e) the SCXML session runs differently \(watching) than observed",
                    traces: .logs,
                    labels: ("SCXML observed", "SCXML \(watching)")
                )
            }
            for watching in [Watching.observed, .debugSink] {
                try compare(
                    typed,
                    runTyped(watching: watching),
                    check: "(e) the typed chart runs differently \(watching) than unobserved",
                    traces: .full,
                    labels: ("typed unobserved", "typed \(watching)")
                )
            }
        }

        // MARK: Running

        /// The script steps a run takes: all of them, or those after a restored snapshot.
        private func steps(restoring: Bool) -> [(number: Int, step: SemanticsChart.Step)] {
            let all = chart.script.enumerated().map { (number: $0.offset + 1, step: $0.element) }
            return restoring ? Array(all.dropFirst(chart.snapshotAfter)) : all
        }

        /// Runs the document through the script on a fresh manual clock (from `snapshot`'s
        /// step on, when given), recording every macrostep's trace, or, unobserved, only
        /// its `<log>`s (through a log sink).
        func runSCXML(
            _ document: SCXMLDocument,
            restoring snapshot: StatechartSnapshot? = nil,
            watching: Watching = .observed
        ) throws(Finding) -> Run {
            let clock = ManualStatechartClock()
            let macrosteps = SemanticsProbe()
            let options = ChartSemanticsHarness.options
            let observed = watching == .observed
            let record: SCXMLInterpreter.MacrostepObserver = { trace in macrosteps.record(contentsOf: trace) }
            let log: SCXMLInterpreter.LogSink = { text in macrosteps.record("log:\(text)") }
            let onMacrostep = observed ? record : nil
            let onLog = observed ? nil : log
            var run = Run()
            let machine: SCXMLInterpreter
            if let snapshot {
                do {
                    machine = try SCXMLInterpreter(
                        document: document,
                        restoring: snapshot,
                        options: options,
                        clock: clock,
                        recordsTrace: observed,
                        onMacrostep: onMacrostep,
                        onLog: onLog
                    )
                } catch {
                    throw fail(
                        "(c) an SCXML machine refuses its own snapshot",
                        detail: "\(error)\n\(describe(snapshot))"
                    )
                }
            } else {
                machine = SCXMLInterpreter(
                    document: document,
                    options: options,
                    clock: clock,
                    recordsTrace: observed,
                    onMacrostep: onMacrostep,
                    onLog: onLog
                )
                if watching == .debugSink { machine.attachDebugger(DebugLines.sink) }
                let failure = capture { try machine.start() } ?? machine.failure.map { "\($0)" }
                run.records[0] = StepRecord(
                    configuration: machine.activeStates,
                    trace: macrosteps.takeTrace(),
                    failure: failure,
                    variables: Self.variables(of: machine)
                )
                if failure != nil {
                    run.failedAt = 0
                    return run
                }
                if chart.snapshotAfter == 0 { run.snapshot = try? machine.snapshot() }
            }
            play(
                into: &run,
                restoring: snapshot != nil,
                clock: clock,
                send: { name in capture { try machine.send(name) } },
                failure: { machine.failure.map { "\($0)" } },
                record: { (machine.activeStates, macrosteps.takeTrace(), Self.variables(of: machine)) },
                snapshot: {
                    // The null data model's snapshots cannot fail; one that did shows as a
                    // snapshot of another chart, which the comparison reports.
                    (try? machine.snapshot())
                        ?? StatechartSnapshot(chart: "(failed)", isRunning: false, configuration: [])
                }
            )
            return run
        }

        /// `machine`'s variables as `name=value` lines, sorted (or the error reading them).
        private static func variables(of machine: SCXMLInterpreter) -> [String] {
            do {
                return try machine.variables().map { "\($0.key)=\($0.value)" }.sorted()
            } catch {
                return ["(\(error))"]
            }
        }

        /// Runs the typed twin through the script on a fresh manual clock (from `snapshot`'s
        /// step on, when given), its blocks recording into a fresh probe; observed, every
        /// state of the root has observers of its entries and exits.
        func runTyped(
            restoring snapshot: StatechartSnapshot? = nil,
            watching: Watching = .unobserved
        ) throws(Finding) -> Run {
            let clock = ManualStatechartClock()
            let probe = SemanticsProbe()
            let definition = chart.typedDefinition(probe: probe, named: named)
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
                throw fail("(c) the typed chart does not compile or refuses its own snapshot", detail: "\(error)")
            }
            var subscriptions: [StatechartSubscription] = []
            if watching == .observed {
                for child in chart.rootChildren {
                    for kind in [SemanticsTypedChart.Notification.Kind.entered, .exited] {
                        if let subscription = try? machine.observe(kind, at: chart.states[child].id, { _ in }) {
                            subscriptions.append(subscription)
                        }
                    }
                }
            }
            defer { for subscription in subscriptions { subscription.cancel() } }
            if watching == .debugSink { machine.attachDebugger(DebugLines.sink) }
            let trace = { probe.takeTrace() }
            if snapshot == nil {
                machine.start()
                run.records[0] = StepRecord(configuration: machine.activeStates, trace: trace())
                if chart.snapshotAfter == 0 { run.snapshot = machine.snapshot() }
            }
            play(
                into: &run,
                restoring: snapshot != nil,
                clock: clock,
                send: { name in capture { _ = try machine.handle(name) } },
                failure: { nil },
                record: { (machine.activeStates, trace(), []) },
                snapshot: { machine.snapshot() }
            )
            return run
        }

        /// Plays the script (from the snapshot's step on, when `restoring`) into `run`, the
        /// same way for both forms: `send` handles an event and returns its error, `failure`
        /// reads a failure the machine kept after any step (SCXML's halted session), `record`
        /// reads the configuration and the step's trace, `snapshot` takes the snapshot after
        /// `chart.snapshotAfter`. Stops at the first failed step.
        private func play(
            into run: inout Run,
            restoring: Bool,
            clock: ManualStatechartClock,
            send: (String) -> String?,
            failure failed: () -> String?,
            record: () -> (configuration: [String], trace: [String], variables: [String]),
            snapshot: () -> StatechartSnapshot
        ) {
            for (number, step) in steps(restoring: restoring) {
                var failure: String?
                switch step {
                case .event(let name): failure = send(name)
                case .advance(let seconds): clock.advance(by: .seconds(seconds))
                }
                failure = failure ?? failed()
                let (configuration, trace, variables) = record()
                run.records[number] = StepRecord(
                    configuration: configuration,
                    trace: trace,
                    failure: failure,
                    variables: variables
                )
                if failure != nil {
                    run.failedAt = number
                    return
                }
                if number == chart.snapshotAfter { run.snapshot = snapshot() }
            }
        }

        /// The description of the error `body` throws, or nil.
        private func capture(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch {
                return "\(error)"
            }
        }

        /// `snapshot` encoded to JSON and decoded again, which must give it back.
        private func roundTrip(_ snapshot: StatechartSnapshot, form: String) throws(Finding) -> StatechartSnapshot {
            let decoded: StatechartSnapshot
            do {
                let data = try JSONEncoder().encode(snapshot)
                decoded = try JSONDecoder().decode(StatechartSnapshot.self, from: data)
            } catch {
                throw fail("(c) the \(form) snapshot does not survive JSON", detail: "\(error)\n\(describe(snapshot))")
            }
            guard decoded == snapshot else {
                throw fail(
                    "(c) the \(form) snapshot changed through JSON",
                    detail: "\(describe(snapshot))\nread back:\n\(describe(decoded))"
                )
            }
            return decoded
        }

        /// `snapshot` as sorted JSON, for a report.
        private func describe(_ snapshot: StatechartSnapshot) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return (try? encoder.encode(snapshot)).map { String(decoding: $0, as: UTF8.self) } ?? "\(snapshot)"
        }

        // MARK: Checks

        /// (a) Every recorded configuration (before a failure) is legal.
        private func checkLegal(_ run: Run, form: String) throws(Finding) {
            for number in run.records.keys.sorted() where number != run.failedAt {
                let configuration = run.records[number]!.configuration
                if let problem = chart.illegality(of: configuration) {
                    throw fail(
                        "(a) the \(form) configuration is illegal",
                        at: number,
                        detail: problem,
                        runs: [(form, run)]
                    )
                }
            }
        }

        /// The two runs agree on every step from `first` on, up to the first failure:
        /// the same active states, the same trace (the part `traces` says; with `.logs`,
        /// the same variables too), and a failure at the same event (a failure in `start` or on a clock advance,
        /// which only the SCXML interpreter reports, ends the comparison).
        private func compare(
            _ left: Run,
            _ right: Run,
            from first: Int = 0,
            check: String,
            traces: TraceComparison = .comparable,
            labels: (String, String) = ("SCXML", "typed")
        ) throws(Finding) {
            let last = chart.script.count
            guard first <= last else { return }
            for number in first...last {
                let one = left.records[number]
                let other = right.records[number]
                guard let one, let other else {
                    if one == nil && other == nil { return }
                    throw fail(
                        "\(check): only one of them ran the step",
                        at: number,
                        runs: [(labels.0, left), (labels.1, right)]
                    )
                }
                // A typed chart reports a failed macrostep only to the caller of `handle`:
                // one in `start` or in a timer's step is visible on the SCXML side alone.
                let reportsFailures =
                    number > 0 && { if case .event = chart.script[number - 1] { true } else { false } }()
                if one.failure != nil || other.failure != nil {
                    if (one.failure == nil) != (other.failure == nil), reportsFailures {
                        throw fail(
                            "\(check): only one of them fails",
                            at: number,
                            runs: [(labels.0, left), (labels.1, right)]
                        )
                    }
                    return
                }
                let sameConfiguration = Set(one.configuration) == Set(other.configuration)
                let sameTrace =
                    switch traces {
                    case .comparable: one.comparableTrace == other.comparableTrace
                    case .full: one.trace == other.trace
                    case .logs: one.logs == other.logs && one.variables == other.variables
                    }
                if !sameConfiguration || !sameTrace {
                    throw fail(
                        "\(check): " + (sameConfiguration ? "the traces differ" : "the configurations differ"),
                        at: number,
                        runs: [(labels.0, left), (labels.1, right)]
                    )
                }
            }
        }

        /// "step 3 (event a)": how a report names step `number`.
        private func stepName(_ number: Int) -> String {
            guard number > 0 else { return "start (step 0)" }
            switch chart.script[number - 1] {
            case .event(let name): return "step \(number) (event \(name))"
            case .advance(let seconds): return "step \(number) (advance \(seconds)s)"
            }
        }

        // MARK: Reporting

        /// The finding for `check`, failed at step `number` (nil when not at a step): its
        /// report holds the chart in both forms, the script up to that step and the runs.
        func fail(_ check: String, at number: Int? = nil, detail: String? = nil, runs: [(String, Run)] = []) -> Finding
        {
            let message = check + (number.map { " at \(stepName($0))" } ?? "") + (detail.map { ": \($0)" } ?? "")
            var report = [
                "", "=== chart semantics: \(message)", "", "--- SCXML document", xml, "", "--- typed chart (Swift)",
                chart.typedOutline, "",
            ]
            let shown = number ?? chart.script.count
            report.append("--- script (snapshot after step \(chart.snapshotAfter))")
            report.append("  0: start")
            for (offset, step) in chart.script.enumerated().prefix(shown) {
                switch step {
                case .event(let name): report.append("  \(offset + 1): \(name)")
                case .advance(let seconds): report.append("  \(offset + 1): advance \(seconds)s")
                }
            }
            if shown < chart.script.count {
                report.append("  (\(chart.script.count - shown) more steps, not run for this finding)")
            }
            for (label, run) in runs {
                report.append("")
                report.append("--- \(label) run")
                for number in run.records.keys.sorted() where number <= shown {
                    let record = run.records[number]!
                    report.append(
                        "  \(number): [\(record.configuration.joined(separator: " "))]  \(record.trace.joined(separator: " "))"
                    )
                    if !record.variables.isEmpty { report.append("     variables: \(record.variables)") }
                    if let failure = record.failure { report.append("     failed: \(failure)") }
                }
            }
            report.append("")
            return Finding(check: check, message: message, report: report.joined(separator: "\n"))
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
                return
                    "the parallel state '\(states[state].id)' has \(children.count) of \(states[state].children.count) children active"
            default:
                continue
            }
        }
        return nil
    }
}

/// The debug sink of check (e)'s watched runs: the check compares what the machine does,
/// not its log, so the lines are dropped once written.
enum DebugLines {
    /// The sink the watched runs attach.
    static let sink = StatechartDebugSink { _ in }
}
