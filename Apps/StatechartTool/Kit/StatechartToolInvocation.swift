import StateMachineSupport
import Terminal

/// What `statechart` was asked to do, parsed from its arguments.
package enum StatechartToolInvocation: Equatable, Sendable {
    /// `statechart --help`, `statechart help`: the usage of every command; `statechart help
    /// COMMAND` or `statechart COMMAND --help`: that command's.
    case help(command: String? = nil)
    /// `statechart run FILE [--log] [--delay-scale FACTOR] [--record TRACE] [--allow-sources DIR]...`:
    /// an interactive prompt that sends events to the chart; delayed transitions and sends wait
    /// `FACTOR` times their delay; with `record`, every step is written to that file as a
    /// ``StatechartTrace`` in JSON when the prompt ends. An SCXML chart's `src` files are read
    /// from its own folder and from each folder of `allowSources`, nothing else.
    case run(file: String, log: Bool, delayScale: Double = 1, record: String? = nil, allowSources: [String] = [])
    /// `statechart check PATH [--strict] [--stylesheet XSL]`: run the conformance tests of the
    /// directory (SCION-format pairs, or the W3C tests of a `manifest.xml`), of the manifest
    /// itself, or the one test file (a SCION `.scxml`/`.json`, a W3C `.txml`, or a converted
    /// W3C `.scxml`); `.txml` files are converted with `stylesheet` (by default `confEcma.xsl`
    /// beside the manifest). Optional W3C tests count for the exit status only when `strict`.
    case check(directory: String, stylesheet: String? = nil, allowSources: [String] = [], strict: Bool = false)
    /// `statechart diagram FILE [--format mermaid|dot|svg|png] [-o PATH] [--allow-sources DIR]...`:
    /// the chart's diagram, printed or (with `output`) written to a file; a PNG needs `output`.
    case diagram(file: String, format: DiagramFormat, output: String? = nil, allowSources: [String] = [])
    /// `statechart view FILE [--trace TRACE] -o PAGE [--allow-sources DIR]...`: the page that
    /// steps through the run recorded in `trace` (without one, the chart's start alone).
    case view(file: String, trace: String?, output: String, allowSources: [String] = [])
    /// `statechart export FILE.json [-o FILE.scxml] [--partial]`: the JSON chart as an SCXML
    /// document, printed or (with `output`) written to a file; with `partial`, what SCXML
    /// cannot express is listed in a comment at the document's top instead of failing.
    case export(file: String, output: String? = nil, partial: Bool = false)

    /// The subcommands, in the order the usage lists them.
    package static let subcommands = ["run", "check", "diagram", "view", "export"]

    /// What each file a command writes may be: the formats `--format` names, and the
    /// extensions that name them when it is not given (the diagram's come from
    /// ``DiagramFormat``, shared with CaseStudies).
    enum WrittenFile {
        /// `view -o PAGE`: an HTML page.
        static let page = (formats: ["html"], extensions: ["html", "htm"])
        /// `run --record TRACE`: a trace in JSON.
        static let trace = (formats: ["json"], extensions: ["json"])
        /// `export -o FILE`: an SCXML document.
        static let document = (formats: ["scxml"], extensions: ["scxml"])
    }

    /// Parses `arguments` (without the program name): a subcommand, its one file or
    /// directory, and the options (`--format`, `-o`, `--record`, `--trace`, `--strict`, the
    /// repeatable `--allow-sources`, and `--log`, `--delay-scale` and `--help`, read with the
    /// terminal layer's ``CommonOptions``). Each file written takes its format from `--format`
    /// when given, else from its extension. Fails with a ``UsageError`` naming the unknown
    /// subcommand or option, the missing operand, the misplaced option or the extension that
    /// names no format.
    package static func parse(
        _ arguments: [String],
        environment: [String: String]
    ) -> Result<StatechartToolInvocation, UsageError> {
        var operands: [String] = []
        var values: [String: String] = [:]
        var allowSources: [String] = []
        var strict = false
        var partial = false
        let valued: [String: String] = [
            "--format": "mermaid, dot, svg or png (diagram), html (view), json (run --record), scxml (export)",
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
            if argument == "--strict" {
                strict = true
                return nil
            }
            if argument == "--partial" {
                partial = true
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
        let subcommand = operands.first
        if options.help { return .success(.help(command: subcommand.flatMap { subcommands.contains($0) ? $0 : nil })) }
        guard let subcommand else {
            return .failure(UsageError("missing a subcommand: run, check, diagram, view or export"))
        }
        let rest = operands.dropFirst()
        if subcommand == "help" {
            guard let topic = rest.first else { return .success(.help()) }
            guard subcommands.contains(topic), rest.count == 1 else {
                return .failure(
                    UsageError(
                        "'help' takes one of run, check, diagram, view or export, not '\(rest.joined(separator: " "))'"
                    )
                )
            }
            return .success(.help(command: topic))
        }
        guard subcommands.contains(subcommand) else {
            return .failure(
                UsageError("unknown subcommand '\(subcommand)' (expected run, check, diagram, view or export)")
            )
        }
        let what =
            subcommand == "check"
            ? "conformance tests (PATH: a directory of SCION or W3C tests, a manifest.xml, or one test file)"
            : subcommand == "export" ? "a JSON chart (FILE: .json)" : "a chart file (FILE: .scxml or .json)"
        guard let operand = rest.first else {
            return .failure(UsageError("'\(subcommand)' needs \(what)"))
        }
        if let extra = rest.dropFirst().first {
            return .failure(UsageError("unexpected argument '\(extra)': '\(subcommand)' takes one operand"))
        }
        let allowed: [String: [String]] = [
            "--format": ["diagram", "view", "run", "export"], "-o": ["diagram", "view", "export"], "--record": ["run"],
            "--trace": ["view"], "--stylesheet": ["check"], "--allow-sources": ["run", "check", "diagram", "view"],
        ]
        if !allowSources.isEmpty { values["--allow-sources"] = allowSources[0] }
        for (option, subcommands) in allowed.sorted(by: { $0.key < $1.key })
        where values[option] != nil && !subcommands.contains(subcommand) {
            let names = subcommands.map { "'statechart \($0)'" }.joined(separator: ", ")
            return .failure(UsageError("\(option) applies only to \(names)"))
        }
        if strict, subcommand != "check" {
            return .failure(UsageError("--strict applies only to 'statechart check'"))
        }
        if partial, subcommand != "export" {
            return .failure(UsageError("--partial applies only to 'statechart export'"))
        }
        if options.log, subcommand != "run" {
            return .failure(UsageError("--log applies only to 'statechart run'"))
        }
        if options.delayScale != 1, subcommand != "run" {
            return .failure(UsageError("--delay-scale applies only to 'statechart run'"))
        }
        switch subcommand {
        case "run":
            if let record = values["--record"] {
                if let error = check(record, named: "--record", format: values["--format"], WrittenFile.trace) {
                    return .failure(error)
                }
            } else if values["--format"] != nil {
                return .failure(UsageError("--format applies to 'statechart run' only with --record TRACE"))
            }
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
                .check(
                    directory: operand,
                    stylesheet: values["--stylesheet"],
                    allowSources: allowSources,
                    strict: strict
                )
            )
        case "view":
            guard let output = values["-o"] else {
                return .failure(UsageError("'view' needs -o PAGE, the HTML file to write (for example -o run.html)"))
            }
            if let error = check(output, named: "-o", format: values["--format"], WrittenFile.page) {
                return .failure(error)
            }
            return .success(
                .view(file: operand, trace: values["--trace"], output: output, allowSources: allowSources)
            )
        case "export":
            if let output = values["-o"] {
                if let error = check(output, named: "-o", format: values["--format"], WrittenFile.document) {
                    return .failure(error)
                }
            } else if let format = values["--format"], format.lowercased() != "scxml" {
                return .failure(UsageError("unknown format '\(format)' for 'export' (expected scxml)"))
            }
            return .success(.export(file: operand, output: values["-o"], partial: partial))
        default:
            return diagram(operand, format: values["--format"], output: values["-o"], allowSources: allowSources)
        }
    }

    /// `diagram`: `--format` when given, else the extension of `-o PATH`, else Mermaid.
    private static func diagram(
        _ file: String,
        format: String?,
        output: String?,
        allowSources: [String]
    ) -> Result<StatechartToolInvocation, UsageError> {
        let formats = DiagramFormat.allCases.map(\.rawValue)
        let chosen: DiagramFormat
        if let format {
            guard let named = DiagramFormat(rawValue: format.lowercased()) else {
                return .failure(
                    UsageError("unknown format '\(format)' for 'diagram' (expected \(list(formats)))")
                )
            }
            chosen = named
        } else if let output {
            guard let named = DiagramFormat.named(byExtensionOf: output) else {
                return .failure(
                    UsageError(
                        "cannot tell the format of '\(output)' from its extension (\(DiagramFormat.extensionList)); give --format \(formats.joined(separator: "|"))"
                    )
                )
            }
            chosen = named
        } else {
            chosen = .mermaid
        }
        // An SVG is text, which may go to standard output; a PNG never does.
        if chosen == .png, output == nil {
            return .failure(
                UsageError(
                    "--format png needs -o PATH, the file to write (a PNG is not text; for example -o chart.png)"
                )
            )
        }
        return .success(.diagram(file: file, format: chosen, output: output, allowSources: allowSources))
    }

    /// Nil when the file `path` (given with `option`) may be written in the one format
    /// `kind` allows: `format` names it, or (without `format`) the extension does.
    private static func check(
        _ path: String,
        named option: String,
        format: String?,
        _ kind: (formats: [String], extensions: [String])
    ) -> UsageError? {
        if let format {
            guard kind.formats.contains(format.lowercased()) else {
                return UsageError("unknown format '\(format)' for \(option) (expected \(list(kind.formats)))")
            }
            return nil
        }
        guard let name = DiagramFormat.fileExtension(of: path), kind.extensions.contains(name) else {
            let extensions = list(kind.extensions.map { "." + $0 })
            return UsageError(
                "cannot tell the format of '\(path)' from its extension (\(extensions)); give --format \(kind.formats[0])"
            )
        }
        return nil
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}
