import CaseStudiesFeatures
import Foundation
import Observation
import StateMachineUI
import Terminal

/// Wallet: one machine (a singleton factory) shown by three views at once, which stay in
/// step because they observe the same shared machine.
@MainActor
@Observable
final class WalletScreen: Screen {
    @ObservationIgnored private let full: UIStateMachine<WalletState, WalletEvent>
    @ObservationIgnored private let adding: UIStateMachine<WalletState, WalletEvent>
    @ObservationIgnored private let readOnly: UIStateMachine<WalletState, WalletEvent>
    /// The add view's slider, 0...100.
    private(set) var slider: Double = 0

    init(environment: CaseStudiesEnvironment) {
        full = UIStateMachine(asyncStateMachineFactory: environment.wallet)
        adding = UIStateMachine(asyncStateMachineFactory: environment.wallet)
        readOnly = UIStateMachine(asyncStateMachineFactory: environment.wallet)
        environment.keeper?.wallet = self
    }

    /// The credits, in cents, each of the three views shows (the state file keeps them).
    var shownCents: [Int] { [full.state.cents, adding.state.cents, readOnly.state.cents] }

    var title: String { "Wallet" }

    func body(style: TerminalStyle) -> [String] {
        let columns = [
            ["Wallet Full View", "credits: \(currency(full.state.credits))"],
            ["Wallet Add View", "credits: \(currency(adding.state.credits))", "slider: \(currency(slider))"],
            ["Wallet Read Only View", "credits: \(currency(readOnly.state.credits))"],
        ]
        // Each column as wide as its widest line, so that no amount is ever cut off.
        let widths = columns.map { column in max(26, (column.map(\.count).max() ?? 0) + 1) }
        let sideBySide = (0..<3).map { row in
            let cells = columns.indices.map { index in
                let text = columns[index].count > row ? columns[index][row] : ""
                return text.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            let line = "  " + cells.joined(separator: "| ")
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
        // A terminal too narrow for three columns gets the views one under the other
        // rather than wrapped lines.
        guard let available = style.columns, sideBySide.contains(where: { $0.count > available }) else {
            return sideBySide
        }
        return columns.enumerated().flatMap { index, column in
            (index > 0 ? [""] : []) + column.map { "  " + $0 }
        }
    }

    var commands: [CommandSpec] {
        [
            CommandSpec("add", arguments: "<amount>", "Full view: add credits"),
            CommandSpec("remove", arguments: "<amount>", "Full view: remove credits (not more than there are)"),
            CommandSpec("slide", arguments: "<0-100>", "Add view: move the slider"),
            CommandSpec("add-slider", "Add view: add the slider's amount (the slider goes back to 0)"),
        ]
    }

    func didAppear() {
        full.start()
        adding.start()
        readOnly.start()
    }

    /// The three views caught up with the shared machine.
    func settle() async {
        for view in [full, adding, readOnly] { await view.waitUntilCaughtUp() }
    }

    /// The amounts `add` and `remove` accept.
    static let amountRange: ClosedRange<Double> = 0...1_000_000
    /// The most the wallet holds: every balance then prints exactly, to the cent.
    static let maximumCredits: Double = 1_000_000_000

    /// Reads `text` as an amount of dollars within `range` that is a whole number of cents
    /// (the wallet keeps cents): an amount below a cent (`0.001`) or with a fraction of a cent
    /// (`2.505`) is refused, and named.
    static func wholeCents(_ text: String, in range: ClosedRange<Double>, what: String) -> Result<Double, UsageError> {
        let value: Double
        switch NumberArgument.decimal(text, in: range, what: what) {
        case .success(let read): value = read
        case .failure(let error): return .failure(error)
        }
        let cents = value * 100
        guard abs(cents - cents.rounded()) > 1e-6 else { return .success(cents.rounded() / 100) }
        let shown = ParsedCommand.shortened(text)
        if value > 0, value < 0.01 {
            return .failure(
                UsageError("\(what) \(shown) is less than a cent: the wallet counts whole cents, 0.01 at least")
            )
        }
        return .failure(UsageError("\(what) \(shown) has a fraction of a cent: the wallet counts whole cents"))
    }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        switch command.name {
        case "add", "remove":
            guard command.arguments.count == 1 else {
                return .message(
                    "'\(command.name)' needs one amount from 0 to 1000000; try \(command.name) 10 or \(command.name) 2.5."
                )
            }
            let amount: Double
            switch Self.wholeCents(command.arguments[0], in: Self.amountRange, what: "The amount") {
            case .success(let value): amount = value
            case .failure(let error):
                return .message("\(error.message); try \(command.name) 10 or \(command.name) 2.5.")
            }
            let before = full.state.credits
            if command.name == "add" {
                guard before + amount <= Self.maximumCredits else {
                    return .message(
                        "Refused: the wallet holds at most \(currency(Self.maximumCredits)); it has \(currency(before))."
                    )
                }
                await full.sendAndWait(DidRequestToAddCredits(credits: amount))
                return .done
            }
            guard amount <= before else {
                return .message("Refused: the wallet has \(currency(before)), less than \(currency(amount)).")
            }
            await full.sendAndWait(DidRequestToRemoveCredits(credits: amount))
            return .done
        case "slide":
            guard command.arguments.count == 1 else { return .message("The slider goes from 0 to 100; try slide 25.") }
            switch Self.wholeCents(command.arguments[0], in: 0...100, what: "The slider") {
            case .success(let value): slider = value
            case .failure(let error): return .message("\(error.message); try slide 25.")
            }
            return .done
        case "add-slider":
            let amount = slider
            guard full.state.credits + amount <= Self.maximumCredits else {
                return .message(
                    "Refused: the wallet holds at most \(currency(Self.maximumCredits)); it has \(currency(full.state.credits))."
                )
            }
            slider = 0
            await adding.sendAndWait(DidRequestToAddCredits(credits: amount))
            return .done
        default:
            return .done
        }
    }
}

/// `$1,234.50`, formatted by hand (the same on every platform and locale). Total: an
/// amount whose cents do not fit an `Int` (never a wallet balance, which is bounded)
/// prints as a plain decimal rather than trapping.
func currency(_ amount: Double) -> String {
    guard let cents = Int(exactly: (amount * 100).rounded()), cents != Int.min else { return "$\(amount)" }
    let digits = String(abs(cents) / 100)
    var grouped = ""
    for (index, character) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0 { grouped.append(",") }
        grouped.append(character)
    }
    let fraction = abs(cents) % 100
    return "\(cents < 0 ? "-" : "")$\(String(grouped.reversed())).\(fraction < 10 ? "0" : "")\(fraction)"
}

extension WalletScreen: DiagramScreen {
    /// The wallet explored with 10 credits added or removed, 3 events deep.
    func drawing() async -> MachineDrawing {
        await exploredDrawing(
            of: makeWalletStateMachine(),
            events: [DidRequestToAddCredits(credits: 10), DidRequestToRemoveCredits(credits: 10)],
            maxDepth: 3
        )
    }
}
