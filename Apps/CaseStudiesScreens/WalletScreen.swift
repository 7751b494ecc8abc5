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
    }

    var title: String { "Wallet" }

    func body(style: TerminalStyle) -> [String] {
        let columns = [
            ["Wallet Full View", "credits: \(currency(full.state.credits))"],
            ["Wallet Add View", "credits: \(currency(adding.state.credits))", "slider: \(currency(slider))"],
            ["Wallet Read Only View", "credits: \(currency(readOnly.state.credits))"],
        ]
        let width = 26
        return (0..<3).map { row in
            "  "
                + columns.map { ($0.count > row ? $0[row] : "").padding(toLength: width, withPad: " ", startingAt: 0) }
                .joined(separator: "| ")
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

    func perform(_ command: ParsedCommand) async -> CommandResult {
        switch command.name {
        case "add", "remove":
            guard command.arguments.count == 1, let amount = Double(command.arguments[0]), amount.isFinite, amount >= 0
            else {
                return .message(
                    "'\(command.arguments.joined(separator: " "))' is not an amount; try \(command.name) 10 or \(command.name) 2.5."
                )
            }
            if command.name == "add" {
                await full.sendAndWait(DidRequestToAddCredits(credits: amount))
                return .done
            }
            let before = full.state.credits
            guard amount <= before else {
                return .message("Refused: the wallet has \(currency(before)), less than \(currency(amount)).")
            }
            await full.sendAndWait(DidRequestToRemoveCredits(credits: amount))
            return .done
        case "slide":
            guard command.arguments.count == 1, let value = Double(command.arguments[0]), (0...100).contains(value)
            else {
                return .message("The slider goes from 0 to 100; try slide 25.")
            }
            slider = value
            return .done
        case "add-slider":
            let amount = slider
            slider = 0
            await adding.sendAndWait(DidRequestToAddCredits(credits: amount))
            return .done
        default:
            return .done
        }
    }
}

/// `$1,234.50`, formatted by hand (the same on every platform and locale).
func currency(_ amount: Double) -> String {
    let cents = Int((amount * 100).rounded())
    let digits = String(abs(cents) / 100)
    var grouped = ""
    for (index, character) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0 { grouped.append(",") }
        grouped.append(character)
    }
    let fraction = abs(cents) % 100
    return "\(cents < 0 ? "-" : "")$\(String(grouped.reversed())).\(fraction < 10 ? "0" : "")\(fraction)"
}
