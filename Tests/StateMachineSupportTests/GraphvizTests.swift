import Foundation
import StateMachineSupport
import TestSupport
import Testing

/// Rendering through Graphviz's `dot` program, and running a program with a bound.
@Suite("Graphviz")
struct GraphvizTests {
    static let diagram = Diagram(
        name: "door",
        root: Diagram.Region(
            vertices: [
                Diagram.Vertex(id: "closed", kind: .simple),
                Diagram.Vertex(
                    id: "open",
                    kind: .composite,
                    regions: [
                        Diagram.Region(
                            vertices: [
                                Diagram.Vertex(id: "H", kind: .history(deep: false)),
                                Diagram.Vertex(id: "ajar", kind: .simple),
                                Diagram.Vertex(id: "wide", kind: .final),
                            ],
                            initial: ["ajar"]
                        )
                    ]
                ),
            ],
            initial: ["closed"]
        ),
        transitions: [
            Diagram.Transition(source: "closed", target: "open", events: ["push"], guardLabel: "unlocked"),
            Diagram.Transition(source: "ajar", target: "wide", events: ["push"], actions: ["creak"]),
            Diagram.Transition(source: "open", target: "closed", events: ["pull"]),
        ]
    )

    @Test("SVG: an <svg> image that names every state and shows the labels, guards and actions")
    func svg() throws {
        let bytes = try Graphviz.render(Self.diagram.dot(), as: .svg)
        #expect(ImageChecks.statesMissing(from: bytes, ["closed", "open", "ajar", "wide"]) == [])
        let texts = try #require(ImageChecks.svgTexts(bytes))
        #expect(texts.contains("push [unlocked]"))
        #expect(texts.contains("push / creak"))
        #expect(texts.contains("H"))
    }

    @Test("PNG: the PNG signature, an IHDR header and a picture of a plausible size")
    func png() throws {
        let bytes = try Graphviz.render(Self.diagram.dot(), as: .png)
        let size = try #require(ImageChecks.pngSize(bytes))
        #expect(size.width > 100 && size.width < 2000)
        #expect(size.height > 100 && size.height < 2000)
    }

    @Test("DOT that dot rejects is an error carrying dot's own message")
    func rejected() {
        #expect {
            try Graphviz.render("digraph { a -> }", as: .svg)
        } throws: { error in
            guard case .renderingFailed(let status, let message) = error as? GraphvizError else { return false }
            return status != 0 && message.contains("syntax error")
        }
    }

    @Test("a program that is not installed is .graphvizMissing, whose message says how to install Graphviz")
    func missingProgram() {
        #expect(throws: GraphvizError.graphvizMissing(program: "no-such-program-swiftstatemachine")) {
            try Graphviz.run(["no-such-program-swiftstatemachine"], input: [], timeoutSeconds: 5)
        }
        #expect(
            GraphvizError.graphvizMissing(program: "dot").description
                == "Graphviz's 'dot' program is not installed (or not on PATH); install Debian's graphviz package (apt-get install graphviz, or scripts/setup)"
        )
    }

    @Test("a program that runs past its bound is killed, and the call returns soon after the bound")
    func timeout() {
        let start = ContinuousClock.now
        #expect(throws: GraphvizError.timedOut(seconds: 1)) {
            try Graphviz.run(["sleep", "30"], input: [], timeoutSeconds: 1)
        }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("input larger than a pipe's buffer goes in while the output comes out: no deadlock, nothing lost")
    func largeInput() throws {
        let input = Array(String(repeating: "0123456789abcdef\n", count: 64 * 1024).utf8)  // 1 MiB
        let outcome = try Graphviz.run(["cat"], input: input, timeoutSeconds: 30)
        #expect(outcome.status == 0)
        #expect(outcome.output == input)
    }

    @Test("a child that stops reading early fails the call with its status; this process is not killed by SIGPIPE")
    func childStopsReading() throws {
        let input = Array(repeating: UInt8(ascii: "x"), count: 4 * 1024 * 1024)
        let outcome = try Graphviz.run(["sh", "-c", "head -c 10 >/dev/null; exit 3"], input: input, timeoutSeconds: 30)
        #expect(outcome.status == 3)
    }

    @Test("the program holds its three sockets and none of this process's other descriptors")
    func childDescriptors() throws {
        let leaked = try ChildProcessTests.InheritablePipe()
        let outcome = try Graphviz.run(["sh", "-c", "ls -l /proc/$$/fd"], input: [], timeoutSeconds: 30)
        let text = String(decoding: outcome.output, as: UTF8.self)
        #expect(outcome.status == 0)
        #expect(text.contains(" 1 -> socket:["), "\(text)")
        #expect(!text.contains(leaked.target), "\(text)")
    }
}
