import Foundation
import StateMachineHierarchy

/// Fuzz harness: a chart in the JSON format from arbitrary bytes. When it builds, it runs
/// (on a manual clock) through its events, and its snapshot must be accepted by a fresh
/// chart of the same definition. Shared by `FuzzJSONChart` and the regression tests.
enum JSONChartHarness {
    typealias Chart = Statechart<String, String, String>

    static func run(_ data: Data) {
        guard let definition = try? Chart.definition(fromJSON: data) else { return }
        let clock = ManualStatechartClock()
        guard let chart = try? Chart(definition, clock: clock) else { return }
        _ = chart.mermaid()
        chart.start()
        for event in chart.events.prefix(8) + ["unknown"] {
            _ = try? chart.handle(event)
            clock.advance(by: .seconds(1))
        }
        let snapshot = chart.snapshot()
        let data = try! JSONEncoder().encode(snapshot)
        let decoded = try! JSONDecoder().decode(StatechartSnapshot.self, from: data)
        precondition(decoded == snapshot, "a snapshot changed through JSON")
        do {
            let restored = try Chart(definition, clock: ManualStatechartClock(), restoring: decoded)
            precondition(restored.snapshot().configuration == snapshot.configuration)
        } catch {
            preconditionFailure("a chart refused its own snapshot: \(error)")
        }
        chart.stop()
    }
}
