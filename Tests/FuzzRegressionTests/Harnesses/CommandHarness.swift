import Foundation

#if canImport(Terminal)
import Terminal
#endif

/// Fuzz harness: lines typed at the apps' prompts and given as their options, through the
/// terminal layer's one command parser and its one number parser (`NumberArgument`,
/// which every amount, percentage, delay scale, position, id and seed goes through). A
/// number it accepts must lie in the range asked for. Shared by `FuzzCommands` (which
/// compiles the parsers' files into itself) and the regression tests (which import them).
enum CommandHarness {
    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(64) {
            let line = String(line)
            if let command = ParsedCommand(line) {
                precondition(command.name == command.name.lowercased(), "a command name is not lowercased")
                for argument in command.arguments { check(argument) }
            }
            _ = CommonOptions.parse(
                line.split(separator: " ").map(String.init),
                environment: ["FUZZ_DELAY_SCALE": line],
                delayScaleVariable: "FUZZ_DELAY_SCALE",
                acceptsSeed: true
            ) { _, _ in nil }
        }
    }

    private static func check(_ argument: String) {
        if case .success(let amount) = NumberArgument.decimal(argument, in: 0...1_000_000, what: "amount") {
            precondition((0...1_000_000).contains(amount), "an amount outside its range")
        }
        if case .success(let position) = NumberArgument.integer(argument, in: 1...8, what: "case study") {
            precondition((1...8).contains(position), "a position outside its range")
        }
        _ = NumberArgument.integer(argument, in: UInt64.min...UInt64.max, what: "--seed")
        _ = NumberArgument.integer(argument, in: Int.min...Int.max, what: "id")
        if NumberArgument.looksLikeInteger(argument), argument.count < 18 {
            precondition(Int(argument) != nil, "'\(argument)' looks like a whole number but is not one")
        }
    }
}
