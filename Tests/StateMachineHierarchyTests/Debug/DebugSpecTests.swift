import StateMachineHierarchy
import Testing

// Port of TBStateMachineDebugSupportTests.m (2), then the debugger's log format.

@Suite("Debug support spec (TBStateMachineDebugSupportTests)")
struct DebugSpecTests {
    static func chart() throws -> Chart {
        try Chart(name: "main") {
            Chart.State("s") {
                Chart.State(parallel: "p") {
                    Chart.Region { Chart.State("b") }
                    Chart.Region { Chart.State("c") }
                }
                Chart.State("a")
            }
        }
    }

    // TBSM throws when a nested machine is debugged. Nested regions are not objects of our
    // API, so only the root can be debugged: its name heads every step.
    @Test("debugs the top-level machine")
    func debugsRoot() throws {
        let chart = try Self.chart()
        chart.start()
        let lines = try debugLines(of: chart) { try chart.handle("x") }
        #expect(lines.first == "[main]: attempt to handle event 'x' data: nil")
    }

    @Test("returns the active state configuration as an indented tree")
    func activeStateConfiguration() throws {
        let chart = try Self.chart()
        #expect(chart.activeStateConfiguration == "")
        chart.start()
        chart.attachDebugger(StatechartDebugSink { _ in })
        #expect(
            chart.activeStateConfiguration
                == "main\n\ts\n\t\tsSubMachine\n\t\t\tp\n\t\t\t\tpSubMachine-0\n\t\t\t\t\tb\n\t\t\t\tpSubMachine-1\n\t\t\t\t\tc\n"
        )
    }
}

@Suite("Debugger output")
struct DebuggerOutputTests {
    @Test("logs each step with TBSM's information and the real step duration")
    func stepLog() throws {
        let fixture = try NestedFixture()
        fixture.debugLines.clear()
        try fixture.chart.handle("a_guard", payload: otherData)
        fixture.debugLines.clear()
        try fixture.chart.handle("a3_b2", payload: ["k": "v"])
        let lines = fixture.debugLines.entries
        let data = "[\"k\": \"v\"]"
        #expect(
            Array(lines.dropLast(3)) == [
                "[main]: attempt to handle event 'a3_b2' data: \(data)",
                "[a3] will handle event 'a3_b2' data: \(data)",
                "[main] performing transition: a3 --> b2 data: \(data)",
                "[aSubMachine] teardown data: \(data)",
                "\tExit 'a3' data: \(data)",
                "\tExit 'a' data: \(data)",
                "\tEnter 'b' data: \(data)",
                "\tEnter 'b2' data: \(data)",
                "\tEnter 'b21' data: \(data)",
            ]
        )
        let duration = lines[lines.count - 3]
        #expect(duration.hasPrefix("[main]: run-to-completion step took "))
        #expect(duration.hasSuffix(" milliseconds"))
        #expect(lines.suffix(2) == ["[main]: remaining events in queue: 0", "[main]: []"])
    }

    @Test("lists the events still queued after a step")
    func pendingEvents() throws {
        let fixture = try NestedFixture()
        try fixture.chart.handle("a_guard", payload: matchingData)
        fixture.debugLines.clear()
        try fixture.chart.handle("a2_a3")  // its action raises a3_a1
        let lines = fixture.debugLines.entries
        #expect(lines.contains("[main]: remaining events in queue: 1"))
        #expect(lines.contains("[main]: [a3_a1]"))
        #expect(lines.filter { $0.hasPrefix("[main]: run-to-completion step took") }.count == 2)
    }

    @Test("a step's duration is really measured (TBSM always logged 0 ms, H6)")
    func realDuration() throws {
        let lines = Recorder()
        let chart = try Chart(name: "main") {
            Chart.State("a").onInternal("slow") { _ in
                let clock = ContinuousClock()
                let end = clock.now + .milliseconds(5)
                while clock.now < end {}
            }
        }
        chart.start()
        chart.attachDebugger(StatechartDebugSink { lines.append($0) })
        try chart.handle("slow")
        let line = try #require(lines.entries.first { $0.contains("run-to-completion step took") })
        let number = line.split(separator: " ").dropLast().last.flatMap { Double($0) }
        #expect((number ?? 0) >= 5)
    }

    @Test("setup and teardown of regions are logged")
    func setupTeardown() throws {
        let lines = Recorder()
        let chart = try DebugSpecTests.chart()
        chart.attachDebugger(StatechartDebugSink { lines.append($0) })
        chart.start()
        chart.stop()
        #expect(
            lines.entries == [
                "[main] setup data: nil",
                "\tEnter 's' data: nil", "\tEnter 'p' data: nil",
                "[pSubMachine-0] setup data: nil", "\tEnter 'b' data: nil",
                "[pSubMachine-1] setup data: nil", "\tEnter 'c' data: nil",
                "[main] teardown data: nil", "[sSubMachine] teardown data: nil",
                "[pSubMachine-0] teardown data: nil", "\tExit 'b' data: nil",
                "[pSubMachine-1] teardown data: nil", "\tExit 'c' data: nil",
                "\tExit 'p' data: nil", "\tExit 's' data: nil",
            ]
        )
    }
}
