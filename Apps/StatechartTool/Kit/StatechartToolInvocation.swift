import Terminal

/// What `statechart` was asked to do, parsed from its arguments.
public enum StatechartToolInvocation: Equatable, Sendable {
    /// `statechart --help` (or `statechart help`): print the usage.
    case help
    /// `statechart run FILE [--log] [--delay-scale FACTOR] [--record TRACE] [--allow-sources DIR]...`:
    /// an interactive prompt that sends events to the chart; delayed transitions and sends wait
    /// `FACTOR` times their delay; with `record`, every step is written to that file as a
    /// ``StatechartTrace`` in JSON when the prompt ends. An SCXML chart's `src` files are read
    /// from its own folder and from each folder of `allowSources`, nothing else.
    case run(file: String, log: Bool, delayScale: Double = 1, record: String? = nil, allowSources: [String] = [])
    /// `statechart check PATH [--stylesheet XSL]`: run the conformance tests of the
    /// directory (SCION-format pairs, or the W3C tests of a `manifest.xml`) or the one test
    /// file (a SCION `.scxml`/`.json`, a W3C `.txml`, or a converted W3C `.scxml`); `.txml`
    /// files are converted with `stylesheet` (by default `confEcma.xsl` beside the manifest).
    case check(directory: String, stylesheet: String? = nil, allowSources: [String] = [])
    /// `statechart diagram FILE [--format mermaid|dot|svg|png] [-o PATH] [--allow-sources DIR]...`:
    /// the chart's diagram, printed or (with `output`) written to a file; a PNG needs `output`.
    case diagram(file: String, format: DiagramFormat, output: String? = nil, allowSources: [String] = [])
    /// `statechart view FILE [--trace TRACE] -o PAGE [--allow-sources DIR]...`: the page that
    /// steps through the run recorded in `trace` (without one, the chart's start alone).
    case view(file: String, trace: String?, output: String, allowSources: [String] = [])

    /// The diagram formats `statechart diagram` prints.
    public enum DiagramFormat: String, Equatable, Sendable, CaseIterable {
        /// A Mermaid `stateDiagram-v2`.
        case mermaid
        /// Graphviz's DOT language.
        case dot
        /// An SVG image, rendered by Graphviz.
        case svg
        /// A PNG image, rendered by Graphviz.
        case png
    }

    /// Parses `arguments` (without the program name): a subcommand, its one file or
    /// directory, and the options (`--format`, `-o`, `--record`, `--trace`, the repeatable
    /// `--allow-sources`, and `--log`,
    /// `--delay-scale` and `--help`, read with the terminal layer's ``CommonOptions``). Fails
    /// with a ``UsageError`` naming the unknown subcommand or option, the missing operand or
    /// the misplaced option.
    public static func parse(
        _ arguments: [String],
        environment: [String: String]
    ) -> Result<StatechartToolInvocation, UsageError> {
        var operands: [String] = []
        var values: [String: String] = [:]
        var allowSources: [String] = []
        let valued: [String: String] = [
            "--format": "mermaid, dot, svg or png",
            "-o": "a file to write",
            "--output": "a file to write",
            "--record": "a file to write the trace to (for example trace.json)",
            "--trace": "a trace file written by 'statechart run --record'",
            "--stylesheet": "the XSLT stylesheet that converts W3C .txml tests (for example confEcma.xsl)",
            "--allow-sources": "a folder whose files the chart's src attributes may read",
        ]
        let parsed = CommonOptions.parse(
            arguments,
            environment: environment,
            delayScaleVariable: "STATECHART_DELAY_SCALE"
        ) { argument, remaining in
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            if let what = valued[name] {
                guard let given = value ?? remaining.popFirst() else {
                    return UsageError("\(name) needs a value: \(what)")
                }
                if name == "--allow-sources" {
                    allowSources.append(given)
                } else {
                    values[name == "--output" ? "-o" : name] = given
                }
                return nil
            }
            if argument.hasPrefix("-"), argument != "-" {
                return UsageError("unknown option '\(argument)'")
            }
            operands.append(argument)
            return nil
        }
        let options: CommonOptions
        switch parsed {
        case .failure(let error): return .failure(error)
        case .success(let value): options = value
        }
        if options.help { return .success(.help) }
        let subcommands = ["run", "check", "diagram", "view"]
        guard let subcommand = operands.first else {
            return .failure(UsageError("missing a subcommand: run, check, diagram or view"))
        }
        let rest = operands.dropFirst()
        if subcommand == "help" { return .success(.help) }
        guard subcommands.contains(subcommand) else {
            return .failure(UsageError("unknown subcommand '\(subcommand)' (expected run, check, diagram or view)"))
        }
        let what =
            subcommand == "check"
            ? "conformance tests (PATH: a directory of SCION or W3C tests, or one test file)"
            : "a chart file (FILE: .scxml or .json)"
        guard let operand = rest.first else {
            return .failure(UsageError("'\(subcommand)' needs \(what)"))
        }
        if let extra = rest.dropFirst().first {
            return .failure(UsageError("unexpected argument '\(extra)': '\(subcommand)' takes one operand"))
        }
        let allowed: [String: [String]] = [
            "--format": ["diagram"], "-o": ["diagram", "view"], "--record": ["run"], "--trace": ["view"],
            "--stylesheet": ["check"], "--allow-sources": ["run", "check", "diagram", "view"],
        ]
        if !allowSources.isEmpty { values["--allow-sources"] = allowSources[0] }
        for (option, subcommands) in allowed.sorted(by: { $0.key < $1.key })
        where values[option] != nil && !subcommands.contains(subcommand) {
            let names = subcommands.map { "'statechart \($0)'" }.joined(separator: " and ")
            return .failure(UsageError("\(option) applies only to \(names)"))
        }
        if options.log, subcommand != "run" {
            return .failure(UsageError("--log applies only to 'statechart run'"))
        }
        if options.delayScale != 1, subcommand != "run" {
            return .failure(UsageError("--delay-scale applies only to 'statechart run'"))
        }
        switch subcommand {
        case "run":
            return .success(
                .run(
                    file: operand,
                    log: options.log,
                    delayScale: options.delayScale,
                    record: values["--record"],
                    allowSources: allowSources
                )
            )
        case "check":
            return .success(
                .check(directory: operand, stylesheet: values["--stylesheet"], allowSources: allowSources)
            )
        case "view":
            guard let output = values["-o"] else {
                return .failure(UsageError("'view' needs -o PAGE, the HTML file to write (for example -o run.html)"))
            }
            return .success(
                .view(file: operand, trace: values["--trace"], output: output, allowSources: allowSources)
            )
        default:
            let format = values["--format"] ?? "mermaid"
            guard let chosen = DiagramFormat(rawValue: format) else {
                return .failure(UsageError("unknown format '\(format)' (expected mermaid, dot, svg or png)"))
            }
            if chosen == .png, values["-o"] == nil {
                return .failure(UsageError("--format png needs -o PATH, the file to write (a PNG is not text)"))
            }
            return .success(
                .diagram(file: operand, format: chosen, output: values["-o"], allowSources: allowSources)
            )
        }
    }
}
