import Terminal

/// What `statechart` was asked to do, parsed from its arguments.
public enum StatechartToolInvocation: Equatable, Sendable {
    /// `statechart --help` (or `statechart help`): print the usage.
    case help
    /// `statechart run FILE [--log] [--delay-scale FACTOR]`: an interactive prompt that
    /// sends events to the chart; delayed transitions and sends wait `FACTOR` times their delay.
    case run(file: String, log: Bool, delayScale: Double = 1)
    /// `statechart check DIR`: run every SCION-format test of the directory.
    case check(directory: String)
    /// `statechart diagram FILE [--format mermaid|dot]`: print the chart's diagram.
    case diagram(file: String, format: DiagramFormat)

    /// The diagram formats `statechart diagram` prints.
    public enum DiagramFormat: String, Equatable, Sendable, CaseIterable {
        /// A Mermaid `stateDiagram-v2`.
        case mermaid
        /// Graphviz's DOT language.
        case dot
    }

    /// Parses `arguments` (without the program name): a subcommand, its one file or
    /// directory, and the options (`--format`, `--log`, `--help`, read with the terminal
    /// layer's ``CommonOptions``). Fails with a ``UsageError`` naming the unknown
    /// subcommand or option, the missing operand or the misplaced option.
    public static func parse(
        _ arguments: [String],
        environment: [String: String]
    ) -> Result<StatechartToolInvocation, UsageError> {
        var operands: [String] = []
        var format: String?
        let parsed = CommonOptions.parse(
            arguments,
            environment: environment,
            delayScaleVariable: "STATECHART_DELAY_SCALE"
        ) { argument, remaining in
            if argument == "--format" {
                guard let value = remaining.popFirst() else {
                    return UsageError("--format needs a value: mermaid or dot")
                }
                format = value
                return nil
            }
            if argument.hasPrefix("--format=") {
                format = String(argument.dropFirst("--format=".count))
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
        guard let subcommand = operands.first else {
            return .failure(UsageError("missing a subcommand: run, check or diagram"))
        }
        let rest = operands.dropFirst()
        if subcommand == "help" { return .success(.help) }
        guard ["run", "check", "diagram"].contains(subcommand) else {
            return .failure(UsageError("unknown subcommand '\(subcommand)' (expected run, check or diagram)"))
        }
        let what = subcommand == "check" ? "a directory of SCION tests (DIR)" : "a chart file (FILE: .scxml or .json)"
        guard let operand = rest.first else {
            return .failure(UsageError("'\(subcommand)' needs \(what)"))
        }
        if let extra = rest.dropFirst().first {
            return .failure(UsageError("unexpected argument '\(extra)': '\(subcommand)' takes one operand"))
        }
        if format != nil, subcommand != "diagram" {
            return .failure(UsageError("--format applies only to 'statechart diagram'"))
        }
        if options.log, subcommand != "run" {
            return .failure(UsageError("--log applies only to 'statechart run'"))
        }
        if options.delayScale != 1, subcommand != "run" {
            return .failure(UsageError("--delay-scale applies only to 'statechart run'"))
        }
        switch subcommand {
        case "run":
            return .success(.run(file: operand, log: options.log, delayScale: options.delayScale))
        case "check":
            return .success(.check(directory: operand))
        default:
            guard let chosen = DiagramFormat(rawValue: format ?? "mermaid") else {
                return .failure(UsageError("unknown format '\(format ?? "")' (expected mermaid or dot)"))
            }
            return .success(.diagram(file: operand, format: chosen))
        }
    }
}
