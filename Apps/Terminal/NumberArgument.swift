/// The one checked path from typed text to a number, for every numeric option and command
/// argument of the apps (amounts, percentages, delay scales, list positions, ids, seeds).
///
/// Each value has a range that makes sense for it; text that is not a number, is not
/// finite, does not fit the type or falls outside the range is refused with a message that
/// names the value and the accepted range (`amount must be a number from 0 to 1000000, not
/// '1e17'`). Nothing here traps: integers are read with the type's own overflow-checked
/// parser and decimals are checked before any conversion.
public enum NumberArgument {
    /// Reads `text` as a decimal number (`10`, `2.5`, `1e3`) within `range`; `what` names
    /// the value in the error (`"amount"`, `"--delay-scale"`).
    public static func decimal(
        _ text: String,
        in range: ClosedRange<Double>,
        what: String
    ) -> Result<Double, UsageError> {
        let refusal = UsageError(
            "\(what) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound)), not '\(ParsedCommand.shortened(text))'"
        )
        // `Double("nan")`, `Double("inf")` and hexadecimal floats parse; none is an amount
        // anyone types on purpose, and the range check below refuses the first two anyway.
        guard let value = Double(text), value.isFinite, range.contains(value) else { return .failure(refusal) }
        return .success(value)
    }

    /// Reads `text` as a whole number (`3`, `-1`) of type `Value` within `range`; `what`
    /// names the value in the error (`"place number"`, `"--seed"`).
    public static func integer<Value: FixedWidthInteger>(
        _ text: String,
        in range: ClosedRange<Value>,
        what: String
    ) -> Result<Value, UsageError> {
        // `Value(text)` is nil for text that is not a whole number or does not fit `Value`.
        guard let value = Value(text), range.contains(value) else {
            return .failure(
                UsageError(
                    "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(ParsedCommand.shortened(text))'"
                )
            )
        }
        return .success(value)
    }

    /// Whether `text` looks like a whole number (an optional sign, then digits), so that a
    /// command taking a number or a name can tell which one was meant.
    public static func looksLikeInteger(_ text: String) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `1000000`, `0.01`: bounds as a person would type them.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), let whole = Int(exactly: value) { return "\(whole)" }
        return "\(value)"
    }
}
