import Foundation
import Observation
import StateMachineCore
import StateMachineDump
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Terminal

/// Parking meter: an SCXML chart compiled into Swift at build time. `parking-meter.scxml`, in
/// this target's folder, becomes the class `ParkingMeter` (the ChartCompilerPlugin), which
/// this screen drives through its typed events (`send(.coin, suffix: "dollar")`,
/// `send(.print)`); the chart's ECMAScript data model keeps the minutes, the tickets and the
/// notice the screen shows.
@MainActor
@Observable
final class ParkingMeterScreen: Screen {
    @ObservationIgnored private let meter: ParkingMeter?
    /// The chart's id in the dump.
    @ObservationIgnored private let dumpId = UUID()
    /// Where the chart reports its states for the dump.
    @ObservationIgnored private let dumpMediator: Mediator<DumpEvent>
    /// The coins `coin` takes: the suffixes of `coin.quarter` and `coin.dollar`.
    static let coins = ["quarter", "dollar"]
    /// The active state.
    private(set) var state: ParkingMeter.State?
    /// The events the active state has transitions for.
    private(set) var accepted: Set<ParkingMeter.Event> = []
    /// The chart's variables.
    private(set) var variables: [String: SCXMLValue] = [:]
    /// Why the chart does not run (it does not load or start, or a step failed).
    private var failure: String?

    init(dumpMediator: Mediator<DumpEvent>) {
        self.dumpMediator = dumpMediator
        do {
            let meter = try ParkingMeter(dataModel: .ecmascript)
            try meter.start()
            self.meter = meter
        } catch {
            self.meter = nil
            failure = "\(error)"
        }
        update()
    }

    var title: String { "Parking meter (SCXML compiled to Swift)" }

    func body(style: TerminalStyle) -> [String] {
        guard meter != nil, let state else { return ["  The chart does not run: \(failure ?? "")"] }
        let stateText =
            switch state {
            case .idle: style.cyan(state.rawValue)
            case .paying: style.green(state.rawValue)
            case .printed: style.red(state.rawValue)
            }
        var lines = [
            "  Chart: parking-meter.scxml, compiled into the class ParkingMeter at build time",
            "  State: \(stateText)   minutes paid: \(variable("minutes"))   tickets printed: \(variable("tickets"))",
            "  \(variable("notice"))",
        ]
        if let failure { lines.append("  The chart failed: \(failure)") }
        return lines
    }

    /// The events of the chart, enabled where the active state has a transition for them.
    var commands: [CommandSpec] {
        [
            CommandSpec(
                "coin",
                arguments: "<quarter|dollar>",
                "Insert a coin (coin.quarter buys 15 minutes, coin.dollar an hour)",
                isEnabled: accepted.contains(.coin),
                availableWhen: "in idle or paying ('take' the ticket first)",
                completions: Self.coins
            ),
            CommandSpec(
                "print",
                "Print the ticket (30 minutes at least)",
                isEnabled: accepted.contains(.print),
                availableWhen: "in paying ('coin' first)"
            ),
            CommandSpec(
                "cancel",
                "Refund the minutes paid",
                isEnabled: accepted.contains(.cancel),
                availableWhen: "in paying ('coin' first)"
            ),
            CommandSpec(
                "take",
                "Take the printed ticket",
                isEnabled: accepted.contains(.take),
                availableWhen: "in printed ('print' first)"
            ),
        ]
    }

    var stateName: String? { state?.rawValue }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        guard let meter else { return .message("The chart does not run.") }
        do {
            switch command.name {
            case "coin":
                guard command.arguments.count == 1,
                    let coin = Self.coins.first(where: { $0 == command.arguments[0].lowercased() })
                else {
                    return .message("A coin is a quarter or a dollar; try coin quarter or coin dollar.")
                }
                try meter.send(.coin, suffix: coin)
            case "print": try meter.send(.print)
            case "cancel": try meter.send(.cancel)
            default: try meter.send(.take)
            }
        } catch {
            failure = "\(error)"
        }
        update()
        return .done
    }

    /// Reads the chart's state, accepted events and variables, and records the state in the dump.
    private func update() {
        guard let meter else { return }
        state = ParkingMeter.State.allCases.first(where: meter.isActive)
        accepted = Set(meter.interpreter.acceptedEvents.compactMap(ParkingMeter.Event.init(rawValue:)))
        do {
            variables = try meter.interpreter.variables()
        } catch {
            failure = "\(error)"
        }
        if let state {
            recordState(
                CaseStudyState(machine: "ParkingMeter", configuration: state.rawValue),
                of: dumpId,
                dumpMediator: dumpMediator
            )
        }
    }

    /// A variable of the chart as text (`75`; a string as itself).
    private func variable(_ name: String) -> String { variables[name]?.description ?? "-" }
}

extension ParkingMeterScreen: DiagramScreen {
    /// The chart, drawn by the SCXML document's own diagram.
    func drawing() async -> MachineDrawing {
        guard let meter else { return .unavailable("The chart does not run: \(failure ?? "")\n") }
        return .machine(meter.interpreter.document)
    }
}
