import Charts
import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

// Sources/Charts/generated-NN.scxml are charts of the project's semantics fuzzer, made with
// the typed DSL and exported to SCXML (SCXMLDocument.export); GeneratedSteps/generated-NN.json
// holds each one's script and the configurations its typed original reaches (the project's
// GeneratedChartFixtureTests keeps both files current). Here the classes the plugin compiled
// from the documents run the same script through their typed API and must reach the same
// configurations.

/// What the tests need of a class the plugin generates from an SCXML document.
protocol CompiledSCXMLChart {
    associatedtype State: RawRepresentable, CaseIterable, Hashable where State.RawValue == String
    associatedtype Event: RawRepresentable, CaseIterable where Event.RawValue == String
    init(
        dataModel: SCXMLDataModel,
        sources: SCXMLSourcePolicy,
        options: StatechartOptions,
        clock: some StatechartClock
    ) throws
    func start() throws
    func send(_ event: Event, data: SCXMLValue?) throws
    func send(_ event: Event, suffix: String, data: SCXMLValue?) throws
    var configuration: Set<State> { get }
    var interpreter: SCXMLInterpreter { get }
}

extension Generated01: CompiledSCXMLChart {}
extension Generated02: CompiledSCXMLChart {}
extension Generated03: CompiledSCXMLChart {}
extension Generated04: CompiledSCXMLChart {}
extension Generated05: CompiledSCXMLChart {}
extension Generated06: CompiledSCXMLChart {}

/// A fixture of GeneratedSteps/.
struct GeneratedSteps: Decodable {
    struct Step: Decodable {
        var event: String?
        var advance: Int?
    }

    var input: UInt64
    var steps: [Step]
    var configurations: [[String]]
}

@Suite("Fuzzer-generated charts compiled to Swift")
struct GeneratedFuzzChartsTests {
    static var charts: [(String, any CompiledSCXMLChart.Type)] {
        [
            ("generated-01", Generated01.self), ("generated-02", Generated02.self), ("generated-03", Generated03.self),
            ("generated-04", Generated04.self), ("generated-05", Generated05.self), ("generated-06", Generated06.self),
        ]
    }

    @Test("the generated class takes the typed original's steps", arguments: charts.map(\.0))
    func sameSteps(stem: String) throws {
        let type = try #require(Self.charts.first { $0.0 == stem }?.1)
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("GeneratedSteps/\(stem).json")
        let expected = try JSONDecoder().decode(GeneratedSteps.self, from: Data(contentsOf: file))
        #expect(try Self.configurations(of: type, playing: expected.steps) == expected.configurations)
    }

    /// The configurations (sorted) after `start` and after each step of `steps`, sent
    /// through the class's typed API: an event the chart names as `send(.event)`, a longer
    /// name that a descriptor matches by prefix as `send(.descriptor, suffix:)`; a name no
    /// descriptor names or prefixes (matched only by `*`, or by nothing) has no typed case and
    /// goes to the interpreter by its name.
    static func configurations<Chart: CompiledSCXMLChart>(
        of type: Chart.Type,
        playing steps: [GeneratedSteps.Step]
    ) throws -> [[String]] {
        let clock = ManualStatechartClock()
        var options = StatechartOptions.scxml
        options.maxMicrosteps = 64
        options.maxSelfFedSteps = 64
        let chart = try Chart(dataModel: .ecmascript, sources: .none, options: options, clock: clock)
        try chart.start()
        var configurations = [chart.configuration.map(\.rawValue).sorted()]
        for step in steps {
            if let seconds = step.advance {
                clock.advance(by: .seconds(seconds))
            } else if let name = step.event {
                if let event = Chart.Event(rawValue: name) {
                    try chart.send(event, data: nil)
                } else if let event = Chart.Event.allCases.first(where: { name.hasPrefix($0.rawValue + ".") }) {
                    try chart.send(event, suffix: String(name.dropFirst(event.rawValue.count + 1)), data: nil)
                } else {
                    try chart.interpreter.send(name)
                }
            }
            configurations.append(chart.configuration.map(\.rawValue).sorted())
        }
        return configurations
    }
}
