import StateMachineSupport
import Testing

/// Where DOT draws arrows that Graphviz would otherwise start in empty space or cross with
/// their own labels: from a container to itself or to a state inside it, and loops.
@Suite("Diagram: arrows from containers and loops")
struct DiagramEdgeTests {
    /// The calculator's shape: `on` holds `ready` and `first`; `clear` leaves `on` for
    /// `ready`, `reset` loops on `on`, and `first` has two loops.
    static let diagram = Diagram(
        name: "calculator",
        root: Diagram.Region(
            vertices: [
                Diagram.Vertex(
                    id: "on",
                    kind: .composite,
                    regions: [
                        Diagram.Region(
                            vertices: [
                                Diagram.Vertex(id: "ready", kind: .simple),
                                Diagram.Vertex(id: "first", kind: .simple),
                            ],
                            initial: ["ready"]
                        )
                    ]
                )
            ],
            initial: ["on"]
        ),
        transitions: [
            Diagram.Transition(source: "on", target: "ready", events: ["clear"]),
            Diagram.Transition(source: "on", target: "on", events: ["reset"]),
            Diagram.Transition(source: "ready", target: "first", events: ["digit"]),
            Diagram.Transition(source: "first", target: "first", events: ["digit"], guardLabel: "short"),
            Diagram.Transition(source: "first", target: "first", events: ["point"]),
        ]
    )

    @Test("an arrow from a container to a state inside it, or to itself, starts at the container's border")
    func fromContainerBorder() {
        let dot = Self.diagram.dot()
        // Out through a point beside the cluster (clipped to its border), then back in.
        #expect(dot.contains(#"    "on~0" [shape=point, style=invis, width=0.01, height=0.01];"#), "\(dot)")
        #expect(dot.contains(#"    "on" -> "on~0" [label=" clear ", ltail="cluster_0", arrowhead=none];"#))
        #expect(dot.contains(#"    "on~0" -> "ready";"#))
        #expect(dot.contains(#"    "on" -> "on~1" [label=" reset ", ltail="cluster_0", arrowhead=none];"#))
        #expect(dot.contains(#"    "on~1" -> "on" [lhead="cluster_0"];"#))
        // Never from the invisible anchor inside the cluster.
        #expect(!dot.contains(#""on" -> "ready""#))
        #expect(!dot.contains(#""on" -> "on""#))
    }

    @Test("a state's loops are one arrow with a line of label each")
    func loopsShareOneArrow() {
        let dot = Self.diagram.dot()
        #expect(dot.contains(#"        "first" -> "first" [label=" digit [short] \n point "];"#), "\(dot)")
        #expect(dot.components(separatedBy: #""first" -> "first""#).count == 2)
    }

    @Test(
        "with element ids, a merged loop's id stands for each of its transitions, and both halves of a detour carry theirs"
    )
    func elementIDs() {
        let drawing = Self.diagram.dotWithElementIDs()
        let loops = drawing.transitions.filter { $0.transition.source == "first" && $0.transition.target == "first" }
        #expect(loops.count == 2)
        #expect(Set(loops.map(\.id)).count == 1)
        let clear = drawing.transitions.filter { $0.transition.events == ["clear"] }.map(\.id)
        #expect(clear.count == 2 && clear[1] == clear[0] + "-in")
        #expect(drawing.text.contains(#"id="\#(clear[0])""#) && drawing.text.contains(#"id="\#(clear[0])-in""#))
    }
}
