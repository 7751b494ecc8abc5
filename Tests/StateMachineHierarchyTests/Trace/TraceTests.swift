import CaseStudiesFeatures
import Foundation
import StateMachineHierarchy
import Testing

/// `recordTrace()`: each step of a typed chart, and the page that steps through them.
@Suite("Traces")
struct TraceTests {
    @Test("the player's run, step by step: the event, exits, entries and the configuration after each")
    func playerSteps() throws {
        let player = try makePlayer()
        let recorder = player.recordTrace()
        recorder.start()
        try recorder.handle("play")
        try recorder.handle("shuffle")
        #expect(try recorder.handle("rewind") == .unhandled)
        try recorder.handle("stop")
        let trace = recorder.trace
        #expect(trace.chart == "player")
        #expect(trace.steps.map(\.event) == [nil, "play", "shuffle", "rewind", "stop"])
        #expect(trace.steps[0] == .init(event: nil, entered: ["stopped"], configuration: ["stopped"]))
        #expect(trace.steps[1].exited == ["stopped"])
        #expect(trace.steps[1].entered == ["active", "playing", "normal"])
        #expect(
            trace.steps[2]
                == .init(
                    event: "shuffle",
                    exited: ["normal"],
                    entered: ["shuffled"],
                    configuration: ["active", "playing", "shuffled"]
                )
        )
        #expect(trace.steps[3] == .init(event: "rewind", configuration: ["active", "playing", "shuffled"]))
        #expect(Set(trace.steps[4].exited) == ["active", "playing", "shuffled"])
        #expect(trace.steps[4].exited.last == "active")
        #expect(trace.steps[4].entered == ["stopped"])
        // Each step's configuration is the chart's own, as it was after the step.
        #expect(trace.steps.last?.configuration == player.activeStates)
    }

    @Test(
        "what the chart does between two recorded calls is a step of its own, without an event; stop() ends recording"
    )
    func stepsOutsideTheRecorder() throws {
        let player = try makePlayer()
        let recorder = player.recordTrace()
        recorder.start()
        try player.handle("play")
        try recorder.handle("pause")
        recorder.stop()
        try player.handle("play")
        let steps = recorder.trace.steps
        #expect(steps.map(\.event) == [nil, nil, "pause"])
        #expect(steps[1].entered == ["active", "playing", "normal"])
        #expect(steps[2].configuration == ["active", "paused", "normal"])
        #expect(recorder.trace.steps.count == 3)
    }

    @Test("internal transitions are the step's actions; a failing handle is recorded, then thrown")
    func internalAndFailure() throws {
        typealias Chart = Statechart<String, String, Int>
        let chart = try Chart(name: "c") {
            Chart.State("a").onInternal("tick")
        }
        let recorder = chart.recordTrace()
        recorder.start()
        try recorder.handle("tick")
        #expect(throws: StatechartError.self) { try recorder.handle("") }
        #expect(recorder.trace.steps[1].actions == ["internal a on tick"])
        #expect(recorder.trace.steps.map(\.event) == [nil, "tick", ""])
    }

    @Test("JSON: the trace round-trips, in the documented shape")
    func json() throws {
        let trace = StatechartTrace(
            chart: "p",
            steps: [.init(event: nil, entered: ["a"], configuration: ["a"]), .init(event: "go", configuration: ["a"])]
        )
        let data = try JSONEncoder().encode(trace)
        #expect(try JSONDecoder().decode(StatechartTrace.self, from: data) == trace)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["chart", "steps"])
        let step = try #require((object["steps"] as? [[String: Any]])?.first)
        #expect(Set(step.keys) == ["exited", "entered", "actions", "configuration"])
    }

    @Test("the page: one self-contained HTML file with the chart's SVG, the steps and the script, loading nothing")
    func page() throws {
        let player = try makePlayer()
        let recorder = player.recordTrace()
        recorder.start()
        try recorder.handle("play")
        let page = try player.stepThroughPage(recorder.trace)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<svg"))
        #expect(!page.contains("<?xml"))
        for state in player.states {
            #expect(page.contains(#""\#(state)":"s"#), "the page maps \(state) to its element")
        }
        #expect(page.contains(#"{"event":"play","exited":["stopped"],"entered":["active","playing","normal"]"#))
        // Nothing is fetched: no external script, style sheet, image or frame.
        for pattern in ["<script src", "<link", "<img", "<iframe", "@import", "url("] {
            #expect(!page.contains(pattern), "\(pattern)")
        }
        #expect(page.contains("default-src 'none'"))
    }

    @Test("a name that would close the page's script is escaped in its data")
    func escaping() throws {
        typealias Chart = Statechart<String, String, Int>
        let chart = try Chart(name: "</script><b>") {
            Chart.State("x<y>&").on("go", to: "b")
            Chart.State("b")
        }
        let recorder = chart.recordTrace()
        recorder.start()
        let page = try chart.stepThroughPage(recorder.trace)
        #expect(page.components(separatedBy: "</script>").count == 3)  // the two script elements' ends
        #expect(page.contains(#"\u003c/script\u003e"#))
        #expect(page.contains(#""x\u003cy\u003e\u0026":"s0""#))
        #expect(page.contains("<title>&lt;/script&gt;&lt;b&gt;</title>"))
    }
}
