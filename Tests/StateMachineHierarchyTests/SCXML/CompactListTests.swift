import Testing

// @testable: `CompactList` and the document's transitions are internal.
@testable import StateMachineHierarchy
@testable import StateMachineSCXML

// A transition's events and targets are `CompactList`s (one element held without an
// allocation); these tests check the list against the arrays it stands for, and that a
// document's transitions keep every event and target in order, in all three forms.

@Suite("CompactList")
struct CompactListTests {
    @Test("holds none, one or many elements as the array it was made from", arguments: [0, 1, 2, 5])
    func matchesArray(count: Int) {
        let elements = (0..<count).map { "e\($0)" }
        let list = CompactList(elements)
        #expect(list.count == count)
        #expect(list.isEmpty == elements.isEmpty)
        #expect(Array(list) == elements)
        #expect(list.first == elements.first)
        #expect(Array(list.dropFirst()) == Array(elements.dropFirst()))
        #expect(list.indices == elements.indices)
        for index in elements.indices { #expect(list[index] == elements[index]) }
        // Made from a slice, whose indices do not start at 0.
        #expect(Array(CompactList(elements.dropFirst())) == Array(elements.dropFirst()))
    }

    @Test("a document's transitions keep their events and targets, in order")
    func documentTransitions() throws {
        let document = try scxmlDocument(
            """
            <parallel id="p">
              <state id="a"><state id="a1"/><state id="a2"/></state>
              <state id="b"><state id="b1"/><state id="b2"/></state>
              <transition event="go" target="a2"/>
              <transition event="both also.this" target="a2 b2"/>
              <transition cond="In('a1')"/>
            </parallel>
            """
        )
        let parallel = try #require(document.indexByID["p"])
        let transitions = document.nodes[parallel].transitions.map { document.transitions[$0] }
        #expect(transitions.map { Array($0.events) } == [["go"], ["both", "also.this"], []])
        #expect(transitions.map { $0.targets.map { document.nodes[$0].id } } == [["a2"], ["a2", "b2"], []])
    }

    // A regression: the default description of `CompactList` named its private storage
    // type with that type's address, so a durable session's fingerprint differed in every
    // process and a reopened session was refused as a changed definition.
    @Test("a document's structure shows events and targets as arrays, as before the lists")
    func structureLines() throws {
        let document = try scxmlDocument(
            """
            <state id="a">
              <transition event="go" target="b"/>
              <transition event="x y" target="a b"/>
              <transition cond="true"/>
            </state>
            <state id="b"/>
            """
        )
        let a = try #require(document.indexByID["a"])
        let b = try #require(document.indexByID["b"])
        let described = document.structureLines.compactMap { line in
            line.firstMatch(of: /events=(.*) cond=.* targets=(.*) internal/).map { "\($0.1) \($0.2)" }
        }
        // The three transitions, then the document's initial transition, to `a`.
        #expect(described == [#"["go"] [\#(b)]"#, #"["x", "y"] [\#(a), \#(b)]"#, "[] []", "[] [\(a)]"])
    }
}
