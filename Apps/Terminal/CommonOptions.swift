/// A command-line usage error: what was wrong, printed before the usage (exit status 2).
public struct UsageError: Error, Equatable, Sendable {
    /// The message.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }
}

/// The options every terminal app accepts: `--delay-scale FACTOR` (or an environment
/// variable), `--log` and `--help`; `--seed N` for the apps that draw random numbers, and
/// `--state FILE` for the apps that keep where the user is between runs.
public struct CommonOptions: Equatable, Sendable {
    /// Multiplies the app's delays (1 = the originals' timings).
    public var delayScale: Double = 1
    /// Seeds the app's random choices (`--seed N`, any `UInt64`), for repeatable runs; nil
    /// when not given.
    public var seed: UInt64?
    /// Turns the transition logger on.
    public var log = false
    /// Prints the usage and exits.
    public var help = false
    /// The file that keeps the app's state between runs (`--state FILE`); nil when not given.
    public var stateFile: String?

    /// The defaults.
    public init() {}

    /// Parses `arguments` (without the program name): the common options are read here and
    /// every other argument goes to `other`, which may consume the ones after it from
    /// `remaining` and returns an error when the argument is not one of the app's.
    /// `delayScaleVariable` names the environment variable that sets the delay scale.
    /// `acceptsSeed` makes `--seed N` one of the options (CaseStudies and Navigation draw random
    /// numbers; without it `--seed` goes to `other` like any argument of the app's own), and
    /// `acceptsState` makes `--state FILE` one (given once, a file name that is not empty and
    /// does not start with `-`).
    public static func parse(
        _ arguments: [String],
        environment: [String: String],
        delayScaleVariable: String,
        acceptsSeed: Bool = false,
        acceptsState: Bool = false,
        other: (_ argument: String, _ remaining: inout ArraySlice<String>) -> UsageError?
    ) -> Result<CommonOptions, UsageError> {
        var options = CommonOptions()
        if let text = environment[delayScaleVariable] {
            switch NumberArgument.decimal(text, in: delayScaleRange, what: delayScaleVariable) {
            case .success(let scale): options.delayScale = scale
            case .failure(let error): return .failure(error)
            }
        }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--log": options.log = true
            case "--help", "-h": options.help = true
            case "--delay-scale":
                guard let text = remaining.popFirst() else {
                    return .failure(
                        UsageError("--delay-scale needs a number from 0 to 1000 (for example --delay-scale 0.01)")
                    )
                }
                switch NumberArgument.decimal(text, in: delayScaleRange, what: "--delay-scale") {
                case .success(let scale): options.delayScale = scale
                case .failure(let error): return .failure(error)
                }
            case "--seed" where acceptsSeed:
                guard let text = remaining.popFirst() else {
                    return .failure(
                        UsageError("--seed needs a whole number from 0 to \(UInt64.max) (for example --seed 7)")
                    )
                }
                switch NumberArgument.integer(text, in: 0...UInt64.max, what: "--seed") {
                case .success(let value): options.seed = value
                case .failure(let error): return .failure(error)
                }
            case "--state" where acceptsState:
                guard let path = remaining.popFirst(), !path.isEmpty, !path.hasPrefix("-") else {
                    return .failure(
                        UsageError("--state needs a file to keep the state in (for example --state app.sqlite)")
                    )
                }
                guard options.stateFile == nil else {
                    return .failure(UsageError("one --state at most; '\(path)' is a second file"))
                }
                options.stateFile = path
            default:
                if let error = other(argument, &remaining) { return .failure(error) }
            }
        }
        return .success(options)
    }

    /// The delay scales accepted: 0 (no delays) to 1000 (a 5 s load lasts 83 minutes).
    /// Bounded so that every scaled delay is a `Duration` and prints as a number.
    public static let delayScaleRange: ClosedRange<Double> = 0...1000
}
