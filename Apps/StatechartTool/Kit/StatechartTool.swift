import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport
import Terminal

/// The `statechart` command-line tool: `run`, `check`, `diagram`, `view` and `export` on
/// SCXML and JSON charts. The executable only calls ``main(arguments:environment:output:makeConsole:)``,
/// so tests drive every subcommand in-process.
///
/// Exit status: 0 on success, 1 when `check` finds failing tests, 2 for a usage error or
/// bad input (a missing file, malformed XML or JSON, an unsupported element); the message
/// goes to standard error and names the file and the line or JSON path at fault.
@MainActor
public enum StatechartTool {
    /// The usage lines of every command.
    static let synopsis = """
        usage: statechart run FILE [--log] [--delay-scale FACTOR] [--record TRACE] [--allow-sources DIR]...
               statechart check PATH [--strict] [--stylesheet XSL] [--allow-sources DIR]...
               statechart diagram FILE [--format mermaid|dot|svg|png] [-o PATH] [--allow-sources DIR]...
               statechart view FILE [--trace TRACE] -o PAGE [--allow-sources DIR]...
               statechart export FILE.json [-o FILE.scxml] [--partial]
               statechart help [COMMAND]
        """

    /// Each command's help: what it does and its options.
    package static let commandHelp: [String: String] = [
        "run": """
        usage: statechart run FILE [--log] [--delay-scale FACTOR] [--record TRACE] [--allow-sources DIR]...

        Sends events to the chart in FILE (.scxml: SCXML semantics, with the ECMAScript data
        model unless the document declares another; .json: the Statechart JSON format) at a
        prompt: type an event, or 'send <event>' for any name. An event is accepted as the chart
        matches it: by SCXML's prefix matching ('coin.dollar' takes a transition on 'coin') and
        '*'. Tab completes the events the active configuration takes. After each step the
        active states, the chart's variables and what was exited, entered and run are shown.
        'help' lists the commands, 'quit' or Ctrl-D leaves. Without a terminal, reads one event
        per line and exits at the end of input.

          --record TRACE  write every step (event, exits, entries, the executable content that
                          ran, the variables and the active states after it) to TRACE as JSON
                          when the run ends, and say where; TRACE ends in .json (or give
                          --format json)
          --delay-scale FACTOR
                          multiply the delays of delayed transitions and sends (0.01: 100
                          times shorter; also STATECHART_DELAY_SCALE); the steps they trigger
                          show as 'timer' steps
          --allow-sources DIR
                          also let the chart's src attributes read the regular files under DIR
                          (repeatable); by default they read only inside the chart's own
                          folder, at most 1 MiB each, never a device, FIFO or socket
          --log           also log every step on standard error (the debugger for a .json
                          chart, the interpreter's trace for a .scxml one)
        """,
        "check": """
        usage: statechart check PATH [--strict] [--stylesheet XSL] [--allow-sources DIR]...

        Runs conformance tests: every SCION-format test in the directory PATH (a .scxml with a
        .json of expected configurations beside it); the W3C SCXML tests of a manifest.xml (PATH
        is the manifest or its folder; each .txml converted with xsltproc and confEcma.xsl, then
        run until it reaches the final state 'pass' or 'fail', the clock jumping to the next
        delayed send); or one test file (.scxml with its .json, .txml, or a converted W3C
        .scxml). Prints each failure with its reason (W3C optional tests marked so), then
        'N passed, M failed' and, for W3C tests, the mandatory and optional counts.
        Exit status 0 when every mandatory test passes (a SCION test is mandatory), 1 otherwise.

          --strict        optional W3C tests count for the exit status too
          --stylesheet XSL
                          the stylesheet that converts .txml tests (default: confEcma.xsl beside
                          the tests or their manifest)
          --allow-sources DIR
                          also let each test's src attributes read the regular files under DIR
                          (repeatable); by default they read only inside the test's own folder
        """,
        "diagram": """
        usage: statechart diagram FILE [--format mermaid|dot|svg|png] [-o PATH] [--allow-sources DIR]...

        Prints the chart as a Mermaid state diagram or in Graphviz's DOT, or writes it to PATH,
        also as an SVG or PNG image that Graphviz's dot program renders.

          -o PATH         write the diagram to PATH; without --format, its extension names the
                          format: \(DiagramFormat.extensionList) (another extension is an error)
          --format        mermaid (the default without -o), dot, svg or png; decides over the
                          extension (png needs -o)
          --allow-sources DIR
                          also let the chart's src attributes read the files under DIR
        """,
        "view": """
        usage: statechart view FILE [--trace TRACE] -o PAGE [--allow-sources DIR]...

        Writes one HTML page that steps through a recorded run: the chart's picture (zoom with
        the buttons or Ctrl and the wheel, drag to pan), the list of steps, buttons and arrow
        keys to step forward and back, the active states and the transitions taken highlighted,
        and each step's executable content and variables (those it changed highlighted).

          -o PAGE         the page to write; PAGE ends in .html (or give --format html)
          --trace TRACE   the recorded run the page steps through ('statechart run --record';
                          without it, the start)
          --allow-sources DIR
                          also let the chart's src attributes read the files under DIR
        """,
        "export": """
        usage: statechart export FILE.json [-o FILE.scxml] [--partial]

        Prints the JSON chart in FILE as an SCXML document, or writes it to -o FILE.scxml:
        states, parallel regions (a region of several states becomes a state of its own),
        finals, history, transitions with their kinds, delayed transitions (a <send delay> on
        entry, a <cancel> on exit), eventless and done transitions, and forks as transitions
        to several targets. The document runs as the chart does with SCXML semantics. What
        SCXML cannot express (joins, deferred events) fails the export (exit status 1),
        listed with where it is.

          -o FILE         write the document to FILE; FILE ends in .scxml (or give --format scxml)
          --partial       write what SCXML can express and list the rest in a comment at the
                          document's top
        """,
    ]

    /// The usage text: every command's usage line and what it does.
    public static let usage = """
        \(synopsis)

          run FILE      send events to the chart in FILE (.scxml or .json) at a prompt, with the
                        chart's own event matching (prefixes, '*'); --record writes the run
          check PATH    run SCION or W3C conformance tests (a folder, a manifest.xml, one test);
                        exit 1 when a mandatory test fails (--strict: any test)
          diagram FILE  print the chart as Mermaid or DOT, or write it to -o PATH in the format
                        its extension names (\(DiagramFormat.extensionList))
          view FILE     write one HTML page that steps through a recorded run (-o PAGE.html)
          export FILE   write the JSON chart in FILE as an SCXML document (-o FILE.scxml)
          help COMMAND  that command's options (also: statechart COMMAND --help)

        exit status: 0 success, 1 failing tests (check), a chart SCXML cannot express
        (export) or a file or Graphviz failure,
        2 usage error or bad input
        """

    /// The help of `command`, or the usage when nil.
    package static func help(_ command: String?) -> String {
        command.flatMap { commandHelp[$0] } ?? usage
    }

    /// Where the tool writes.
    public struct Output: Sendable {
        /// Writes to standard output.
        public let standardOutput: @Sendable (String) -> Void
        /// Writes to standard error.
        public let standardError: @Sendable (String) -> Void

        /// Output through the two closures.
        public init(
            standardOutput: @escaping @Sendable (String) -> Void,
            standardError: @escaping @Sendable (String) -> Void
        ) {
            self.standardOutput = standardOutput
            self.standardError = standardError
        }

        /// The process's standard output and standard error.
        public static let process = Output(
            standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            standardError: { FileHandle.standardError.write(Data($0.utf8)) }
        )
    }

    /// Parses `arguments` (without the program name) and runs the subcommand; returns the
    /// exit status. `makeConsole` is called only by `run`, for the prompt; `style` styles
    /// its frames.
    public static func main(
        arguments: [String],
        environment: [String: String],
        output: Output = .process,
        style: TerminalStyle = TerminalStyle(isEnabled: false),
        makeConsole: () -> any Console
    ) async -> Int32 {
        switch StatechartToolInvocation.parse(arguments, environment: environment) {
        case .failure(let error):
            // The message and where to read more: a usage error is not buried under the help.
            let command = arguments.first { StatechartToolInvocation.subcommands.contains($0) }
            let more =
                command.map { "see 'statechart help \($0)' for its options" }
                ?? "see 'statechart help' for the commands"
            output.standardError("statechart: \(error.message)\n\(more)\n")
            return 2
        case .success(let invocation):
            return await run(invocation, output: output, style: style, makeConsole: makeConsole)
        }
    }

    /// Runs `invocation`; returns the exit status.
    package static func run(
        _ invocation: StatechartToolInvocation,
        output: Output = .process,
        style: TerminalStyle = TerminalStyle(isEnabled: false),
        makeConsole: () -> any Console
    ) async -> Int32 {
        do throws(StatechartToolFailure) {
            switch invocation {
            case .help(let command):
                output.standardOutput(help(command) + "\n")
                return 0
            case .diagram(let file, let format, let path, let allowSources):
                let bytes = try ChartFile.load(file, allowSources: allowSources).diagram(format)
                if let path {
                    try OutputFile.write(bytes, to: path)
                } else {
                    // A PNG always has a path (the parser sees to it): the rest is text.
                    output.standardOutput(String(decoding: bytes, as: UTF8.self))
                }
                return 0
            case .view(let file, let tracePath, let path, let allowSources):
                let chart = try ChartFile.load(file, allowSources: allowSources)
                var trace = RecordedTrace.start(of: chart)
                if let tracePath { trace = try RecordedTrace.read(tracePath, for: chart) }
                try OutputFile.write(Array(try chart.stepThroughPage(trace).utf8), to: path)
                return 0
            case .export(let file, let path, let partial):
                let text = try ChartFile.exportSCXML(file, partial: partial)
                if let path {
                    try OutputFile.write(Array(text.utf8), to: path)
                } else {
                    output.standardOutput(text)
                }
                return 0
            case .check(let directory, let stylesheet, let allowSources, let strict):
                return try check(
                    directory,
                    stylesheet: stylesheet,
                    allowSources: allowSources,
                    strict: strict,
                    output: output
                )
            case .run(let file, let log, let delayScale, let record, let allowSources):
                let clock = ScaledStatechartClock(scale: delayScale)
                let chart = try ChartFile.load(file, clock: clock, allowSources: allowSources)
                var chartSession = session(for: chart, clock: clock, log: log, output: output)
                var recorder: RecordingSession?
                if let record {
                    // Fail before the run, not after it, when the trace cannot be written.
                    try OutputFile.write([], to: record)
                    let recording = RecordingSession(chartSession, chart: chart.name)
                    recorder = recording
                    chartSession = recording
                }
                let title = URL(fileURLWithPath: file).lastPathComponent
                let app = TerminalApp(
                    name: "statechart",
                    console: makeConsole(),
                    style: style,
                    home: ChartScreen(title: title, session: chartSession)
                )
                let status = await app.run()
                if let recorder, let record {
                    try OutputFile.write(try recorder.trace.jsonBytes(), to: record)
                    let steps = recorder.trace.steps.count
                    output.standardOutput("Recorded \(steps) step\(steps == 1 ? "" : "s") to \(record)\n")
                }
                return status
            }
        } catch {
            output.standardError("statechart: \(error.message)\n")
            return error.status
        }
    }

    /// Runs the conformance tests of `directory`: its W3C tests when it holds a
    /// `manifest.xml` (or is one), else its SCION tests; or the one test `directory` names (a
    /// SCION `.scxml` or `.json` file, a W3C `.txml` or converted `.scxml`): one line per
    /// failure, then the summary.
    /// - Returns: 0 when every mandatory test passes (with `strict`, every test), 1 otherwise.
    /// - Throws: ``StatechartToolFailure`` when the path is missing or holds no test.
    static func check(
        _ directory: String,
        stylesheet: String? = nil,
        allowSources: [String] = [],
        strict: Bool = false,
        output: Output
    ) throws(StatechartToolFailure) -> Int32 {
        // Each test's document reads from its own folder, and from the folders given.
        let sources = SCXMLSourcePolicy.documentFolder(and: allowSources.map { URL(fileURLWithPath: $0) })
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw StatechartToolFailure("\(directory): no such file or directory")
        }
        var url = URL(fileURLWithPath: directory)
        // The manifest stands for its folder.
        if !isDirectory.boolValue, url.lastPathComponent.lowercased() == "manifest.xml" {
            url = url.deletingLastPathComponent()
            isDirectory = true
        }
        if isW3C(url, isDirectory: isDirectory.boolValue) {
            return try checkW3C(
                url,
                stylesheet: stylesheet.map { URL(fileURLWithPath: $0) },
                sources: sources,
                strict: strict,
                output: output
            )
        }
        if stylesheet != nil {
            throw StatechartToolFailure("--stylesheet applies only to W3C tests (.txml files, a manifest.xml)")
        }
        if !isDirectory.boolValue {
            return try checkOne(directory, sources: sources, output: output)
        }
        guard !SCIONConformance.testNames(in: url).isEmpty else {
            throw StatechartToolFailure(
                "\(directory): no SCION tests (a .scxml with a .json beside it) nor W3C tests (a manifest.xml)"
            )
        }
        let report = SCIONConformance.runAll(in: url, sources: sources)
        var text = ""
        for skipped in report.skipped {
            text += "SKIP \(skipped.name): \(skipped.reason)\n"
        }
        guard !report.passed.isEmpty || !report.failures.isEmpty else {
            output.standardOutput(text)
            throw StatechartToolFailure(
                "\(directory): no SCION tests (a .scxml with a .json of expectations beside it)"
            )
        }
        for failure in report.failures {
            text += "FAIL \(failure.name): \(failure.reason)\n"
        }
        text += report.summary + "\n"
        output.standardOutput(text)
        return report.allPassed ? 0 : 1
    }

    /// Runs the one SCION test whose `.scxml` or `.json` file is `file`.
    private static func checkOne(
        _ file: String,
        sources: SCXMLSourcePolicy,
        output: Output
    ) throws(StatechartToolFailure) -> Int32 {
        let url = URL(fileURLWithPath: file)
        let base = url.deletingPathExtension()
        let fileManager = FileManager.default
        guard ["scxml", "json"].contains(url.pathExtension.lowercased()),
            fileManager.fileExists(atPath: base.path + ".scxml"), fileManager.fileExists(atPath: base.path + ".json")
        else {
            throw StatechartToolFailure(
                "\(file): not a conformance test (a .scxml with a .json beside it, a W3C .txml or .scxml) nor a directory of them"
            )
        }
        let name = base.lastPathComponent
        if let reason = SCIONConformance.skipReason(name, in: base.deletingLastPathComponent()) {
            throw StatechartToolFailure("\(file): not a SCION test: \(reason)")
        }
        let failure = SCIONConformance.run(name, in: base.deletingLastPathComponent(), sources: sources)
        output.standardOutput(
            (failure.map { "FAIL \(name): \($0)\n" } ?? "")
                + (failure == nil ? "1 passed, 0 failed\n" : "0 passed, 1 failed\n")
        )
        return failure == nil ? 0 : 1
    }

    private static func session(
        for chart: ChartFile,
        clock: any StatechartClock,
        log: Bool,
        output: Output
    ) -> any ChartSession {
        switch chart {
        case .scxml(let document):
            guard log else { return SCXMLSession(document, clock: clock) }
            let write = output.standardError
            return SCXMLSession(document, clock: clock) { trace in write("[trace] \(trace)\n") }
        case .json(let chart):
            let session = StatechartSession(chart)
            if log { session.attachDebugger(StatechartDebugSink { output.standardError($0 + "\n") }) }
            return session
        }
    }
}
