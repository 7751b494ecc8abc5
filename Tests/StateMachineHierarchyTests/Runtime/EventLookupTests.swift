import Testing

// @testable: the name table and the SCXML event fields are package API.
@testable import StateMachineHierarchy

// Events by name: a chart whose events are `String`s finds a name by its bytes first
// (`EventNameIndex`), then by its dictionary, so every name the dictionary finds is still
// found, a canonically equivalent spelling included. And SCXML's `_event` fields keep
// their rare parts in one box that must read back, compare and copy as seven fields do.

@Suite("Events looked up by name")
struct EventLookupTests {
    typealias Chart = Statechart<String, String, Never>

    /// Every name of a large table is found at its index, whatever the collisions; names
    /// the table does not hold, the empty one included, are not.
    @Test func tableFindsEveryNameAndNothingElse() {
        let names = (0..<1000).map { "event\($0)" } + ["", "é", "done.state.a", String(repeating: "x", count: 40)]
        let table = EventNameIndex(names)
        for (index, name) in names.enumerated() {
            #expect(table.index(of: name) == Int32(index), "\(name)")
        }
        for missing in ["event1000", "Event1", "event", "x", "done.state", "é "] {
            #expect(table.index(of: missing) == nil, "\(missing)")
        }
        #expect(EventNameIndex([]).index(of: "") == nil)
        #expect(EventNameIndex([]).index(of: "go") == nil)
    }

    /// A name spelled with other code points than the chart's ("e" and a combining accent
    /// for "é") is missed by the table and found by the dictionary, as `String` equality
    /// says, through `handle`, `resolve` and `send` alike.
    @Test func canonicallyEquivalentNamesAreHandled() async throws {
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)
        let chart = try Chart(name: "names", initial: "a") {
            Chart.State("a").on(precomposed, to: "b")
            Chart.State("b").on(precomposed, to: "a")
        }
        let table = try #require(chart.eventNameIndex)
        #expect(table.index(of: precomposed) != nil)
        #expect(table.index(of: decomposed) == nil)
        chart.start()
        #expect(try chart.handle(decomposed) == .handled)
        #expect(chart.activeStates == ["b"])
        #expect(try chart.handle(chart.resolve(decomposed)) == .handled)
        #expect(chart.activeStates == ["a"])
        #expect(try await chart.send(decomposed) == .handled)
        #expect(chart.activeStates == ["b"])
        #expect(try chart.handle("unknown") == .unhandled)
        #expect(throws: StatechartError.self) { try chart.handle("") }
    }

    /// Charts whose events are not `String`s have no table and look names up as before.
    @Test func otherEventTypesHaveNoTable() throws {
        enum Event: Hashable, Sendable { case go }
        let chart = try Statechart<String, Event, Never>(name: "typed", initial: "a") {
            Statechart<String, Event, Never>.State("a").on(.go, to: "b")
            Statechart<String, Event, Never>.State("b")
        }
        #expect(chart.eventNameIndex == nil)
        chart.start()
        #expect(try chart.handle(.go) == .handled)
        #expect(chart.activeStates == ["b"])
    }

    /// The five rare fields read back as given, each kept when another changes, and copies
    /// stay apart; clearing them all compares equal to an event that never had them.
    @Test func eventFieldsKeepTheirRareParts() {
        var fields = SCXMLEventFields(name: "e", type: "external")
        #expect(fields.sendID == nil && fields.origin == nil && fields.originType == nil)
        #expect(fields.invokeID == nil && fields.data == nil)
        let plain = fields
        fields.sendID = "s"
        fields.data = .number(1)
        let copy = fields
        fields.origin = "#_parent"
        fields.originType = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
        fields.invokeID = "i"
        #expect(fields.sendID == "s" && fields.data == .number(1) && fields.origin == "#_parent")
        #expect(fields.originType == "http://www.w3.org/TR/scxml/#SCXMLEventProcessor" && fields.invokeID == "i")
        #expect(copy.origin == nil && copy.invokeID == nil && copy.sendID == "s")
        #expect(plain.sendID == nil && plain != copy)
        let full = SCXMLEventFields(
            name: "e",
            type: "external",
            sendID: "s",
            origin: "#_parent",
            originType: "http://www.w3.org/TR/scxml/#SCXMLEventProcessor",
            invokeID: "i",
            data: .number(1)
        )
        #expect(fields == full)
        fields.data = .number(2)
        #expect(fields != full)
        for clear in [\SCXMLEventFields.sendID, \.origin, \.originType, \.invokeID] { fields[keyPath: clear] = nil }
        fields.data = nil
        #expect(fields == plain)
        fields.name = "f"
        #expect(fields != plain)
    }
}
