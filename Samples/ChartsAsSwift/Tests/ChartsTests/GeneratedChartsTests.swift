import Charts
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

@Suite("Charts compiled to Swift")
struct GeneratedChartsTests {
    @Test("the generated enums name every state and event, valid in Swift, collisions numbered")
    func names() {
        #expect(Vending.State.allCases.map(\.rawValue) == ["idle", "paying"])
        #expect(Vending.Event.serviceBreak.rawValue == "service.break")
        #expect(TurnstileFleet.State.allCases.map(\.rawValue) == ["gates", "gate-1", "locked-1", "open-1", "gate_1", "default", "open"])
        #expect(TurnstileFleet.State.gate1.rawValue == "gate-1")
        #expect(TurnstileFleet.State.gate1_2.rawValue == "gate_1")
        #expect(TurnstileFleet.State.default.rawValue == "default")
        #expect(TurnstileFleet.Event.allCases.map(\.rawValue) == ["coin", "alarm.off", "push", "timeout"])
        #expect(Player.Event.allCases.map(\.rawValue) == ["ready", "power", "play", "pause", "stop", "mute"])
    }

    @Test("a generated SCXML class takes the same steps as the document loaded at run time")
    func sameSteps() throws {
        let clock = ManualStatechartClock()
        let generated = try TurnstileFleet(clock: clock)
        let loaded = SCXMLInterpreter(document: try SCXMLDocument(xml: ChartFiles.scxml["turnstile-fleet.scxml"]!), clock: clock)
        try generated.start()
        try loaded.start()
        #expect(Set(generated.configuration.map { $0.rawValue }) == Set(loaded.activeStates))
        for event in [TurnstileFleet.Event.coin, .push, .coin, .timeout] {
            try generated.send(event)
            try loaded.send(event.rawValue)
            #expect(Set(generated.configuration.map { $0.rawValue }) == Set(loaded.activeStates))
        }
        clock.advance(by: .seconds(5))
        #expect(generated.isActive(TurnstileFleet.State.default))
        #expect(Set(generated.configuration.map { $0.rawValue }) == Set(loaded.activeStates))
    }

    @Test("events matched by prefix are sent with a suffix; the configurations come in order")
    func prefixAndConfigurations() async throws {
        let vending = try Vending(dataModel: .ecmascript)
        try vending.start()
        try vending.send(.coin, suffix: "dollar")
        try vending.send(.coin, suffix: "quarter")
        try vending.send(.coin, suffix: "quarter")
        try vending.send(.select, suffix: "cola")
        #expect(vending.configuration == [.idle])
        #expect(try vending.interpreter.variables()["dispensed"] == .array([.string("cola")]))
        var seen: [Set<Vending.State>] = []
        for await configuration in vending.configurations {
            seen.append(configuration)
            if seen.count == 5 { break }
        }
        #expect(seen == [[.idle], [.paying], [.paying], [.paying], [.idle]])
    }

    @Test("a generated JSON class runs the chart with the statechart engine")
    func json() throws {
        let player = try Player()
        player.start()
        let states = player.configuration
        #expect(!states.isEmpty)
        for event in Player.Event.allCases { _ = try player.send(event) }
        #expect(player.configuration.allSatisfy { player.isActive($0) })
    }
}
