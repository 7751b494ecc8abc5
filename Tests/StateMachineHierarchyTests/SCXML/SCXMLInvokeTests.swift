import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

// <invoke> of child SCXML documents: children start after the macrostep that entered the
// invoking state, talk to their parent through #_parent and #_<invokeid>, report
// done.invoke.<id>, run <finalize>, receive autoforwarded events and are cancelled when
// the invoking state exits.

private func parent(_ body: String, clock: ManualStatechartClock = ManualStatechartClock()) throws -> SCXMLInterpreter {
    SCXMLInterpreter(document: try scxmlDocument(body), clock: clock)
}

private let namespace = #"xmlns="http://www.w3.org/2005/07/scxml" version="1.0""#

@Suite("SCXML <invoke>")
struct SCXMLInvokeTests {
    @Test("An invoked child runs and sends to its parent with #_parent")
    func childSendsToParent() throws {
        let machine = try parent(
            """
            <state id="waiting">
              <invoke id="worker">
                <content>
                  <scxml \(namespace)>
                    <state id="work"><onentry><send event="hello" target="#_parent"/></onentry></state>
                  </scxml>
                </content>
              </invoke>
              <transition event="hello" target="greeted"/>
            </state>
            <state id="greeted"/>
            """
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["greeted"])
    }

    @Test("The parent sends to the child with #_<invokeid>; the child answers")
    func parentSendsToChild() throws {
        let machine = try parent(
            """
            <state id="talking">
              <invoke id="echo">
                <content>
                  <scxml \(namespace)>
                    <state id="listen"><transition event="ping"><send event="pong" target="#_parent"/></transition></state>
                  </scxml>
                </content>
              </invoke>
              <transition event="go"><send event="ping" target="#_echo"/></transition>
              <transition event="pong" target="answered"/>
            </state>
            <state id="answered"/>
            """
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["talking"])
        try machine.send("go")
        #expect(machine.activeAtomicStates == ["answered"])
    }

    @Test("A child that reaches a top-level final sends done.invoke.<id>; <finalize> runs first")
    func doneInvokeAndFinalize() throws {
        let machine = try parent(
            """
            <state id="running">
              <invoke id="job">
                <content>
                  <scxml \(namespace) initial="busy">
                    <state id="busy"><transition event="finish" target="end"/></state>
                    <final id="end"/>
                  </scxml>
                </content>
                <finalize><log label="finalize" expr="'job'"/></finalize>
              </invoke>
              <transition event="finish"><send event="finish" target="#_job"/></transition>
              <transition event="done.invoke.job" target="finished"/>
            </state>
            <state id="finished"/>
            """
        )
        try machine.start()
        try machine.send("finish")
        #expect(machine.activeAtomicStates == ["finished"])
        #expect(machine.trace == ["event:done.invoke.job", "log:finalize: job", "exit:running", "enter:finished"])
    }

    @Test(
        "An event the child sends from its final state's <onexit> arrives before done.invoke, and none after (W3C test236)"
    )
    func childExitsItsFinalBeforeDone() throws {
        let clock = ManualStatechartClock()
        let machine = try parent(
            """
            <state id="s0">
              <onentry><send event="timeout" delay="2s"/></onentry>
              <invoke>
                <content>
                  <scxml \(namespace) initial="subFinal">
                    <final id="subFinal"><onexit><send target="#_parent" event="childToParent"/></onexit></final>
                  </scxml>
                </content>
              </invoke>
              <transition event="childToParent" target="s1"/>
              <transition event="done.invoke" target="fail"/>
            </state>
            <state id="s1">
              <transition event="done.invoke" target="s2"/>
              <transition event="*" target="fail"/>
            </state>
            <state id="s2">
              <transition event="timeout" target="pass"/>
              <transition event="*" target="fail"/>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """,
            clock: clock
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["s2"])
        clock.advance(by: .seconds(2))
        #expect(machine.activeAtomicStates == ["pass"])
    }

    @Test("Reaching a top-level <final> runs its <onexit> once, in the last macrostep; the configuration stays")
    func topLevelFinalExits() throws {
        let machine = try parent(
            """
            <state id="a"><transition event="go" target="end"/></state>
            <final id="end"><onexit><log label="exit" expr="'end'"/></onexit></final>
            """
        )
        try machine.start()
        try machine.send("go")
        #expect(machine.isDone)
        #expect(machine.trace == ["event:go", "exit:a", "enter:end", "exit:end", "log:exit: end"])
        #expect(machine.activeAtomicStates == ["end"])
        try machine.send("go")
        #expect(machine.trace == ["event:go", "exit:a", "enter:end", "exit:end", "log:exit: end"])
    }

    @Test("A delayed send to #_parent arrives after its delay, as the parent's external event")
    func delayedSendToParent() throws {
        let clock = ManualStatechartClock()
        let machine = try parent(
            """
            <state id="waiting">
              <invoke id="worker">
                <content>
                  <scxml \(namespace)>
                    <state id="work"><onentry><send event="late" target="#_parent" delay="2s"/></onentry></state>
                  </scxml>
                </content>
              </invoke>
              <transition event="late" target="done"/>
            </state>
            <state id="done"/>
            """,
            clock: clock
        )
        try machine.start()
        clock.advance(by: .milliseconds(1999))
        #expect(machine.activeAtomicStates == ["waiting"])
        clock.advance(by: .milliseconds(1))
        #expect(machine.activeAtomicStates == ["done"])
        #expect(clock.pendingTimerCount == 0)
    }

    @Test(
        "A delayed send to #_parent is dropped when its session ends first: finished, cancelled or <cancel>ed (W3C test187)",
        arguments: [
            // The child finishes at once (test187).
            ##"<state id="sub0"><onentry><send event="late" target="#_parent" delay=".5s"/></onentry><transition target="end"/></state><final id="end"/>"##,
            // The child cancels its own send.
            ##"<state id="sub0"><onentry><send id="s" event="late" target="#_parent" delay=".5s"/><cancel sendid="s"/></onentry></state>"##,
            // The parent leaves the invoking state, cancelling the child, before the delay.
            ##"<state id="sub0"><onentry><send event="late" target="#_parent" delay="1.5s"/></onentry></state>"##,
        ]
    )
    func delayedSendToParentDropped(child: String) throws {
        let clock = ManualStatechartClock()
        let machine = try parent(
            """
            <state id="s0">
              <onentry><send event="timeout" delay="1s"/></onentry>
              <invoke><content><scxml \(namespace) initial="sub0">\(child)</scxml></content></invoke>
              <transition event="late" target="fail"/>
              <transition event="timeout" target="s1"/>
            </state>
            <state id="s1">
              <onentry><send event="timeout" delay="2s"/></onentry>
              <transition event="late" target="fail"/>
              <transition event="timeout" target="pass"/>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """,
            clock: clock
        )
        try machine.start()
        clock.advance(by: .seconds(3))
        #expect(machine.activeAtomicStates == ["pass"])
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("Leaving the invoking state cancels the child: its delayed send never arrives, its timers go")
    func cancelledOnExit() throws {
        let clock = ManualStatechartClock()
        let machine = try parent(
            """
            <state id="a">
              <invoke id="slow">
                <content>
                  <scxml \(namespace) initial="wait">
                    <state id="wait">
                      <onentry><send event="tick" delay="1s"/></onentry>
                      <transition event="tick" target="end"><send event="late" target="#_parent"/></transition>
                    </state>
                    <final id="end"/>
                  </scxml>
                </content>
              </invoke>
              <transition event="leave" target="b"/>
            </state>
            <state id="b">
              <transition event="late" target="wrong"/>
              <transition event="done.invoke.slow" target="wrong"/>
            </state>
            <state id="wrong"/>
            """,
            clock: clock
        )
        try machine.start()
        #expect(clock.pendingTimerCount == 1)  // the child's tick
        try machine.send("leave")
        #expect(clock.pendingTimerCount == 0)
        clock.advance(by: .seconds(5))
        #expect(machine.activeAtomicStates == ["b"])
    }

    @Test("A state entered and left within one macrostep invokes nothing")
    func transientStateDoesNotInvoke() throws {
        let machine = try parent(
            """
            <state id="pass">
              <invoke id="never">
                <content><scxml \(namespace)><state id="x"><onentry><send event="oops" target="#_parent"/></onentry></state></scxml></content>
              </invoke>
              <transition target="stay"/>
            </state>
            <state id="stay"><transition event="oops" target="wrong"/></state>
            <state id="wrong"/>
            """
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["stay"])
    }

    @Test("autoforward passes the parent's external events to the child")
    func autoforward() throws {
        let machine = try parent(
            """
            <state id="a">
              <invoke id="mirror" autoforward="true">
                <content>
                  <scxml \(namespace)>
                    <state id="m"><transition event="poke"><send event="poked" target="#_parent"/></transition></state>
                  </scxml>
                </content>
              </invoke>
              <transition event="poked" target="b"/>
            </state>
            <state id="b"/>
            """
        )
        try machine.start()
        try machine.send("poke")
        #expect(machine.activeAtomicStates == ["b"])
    }

    @Test("src is read relative to the parent's file; idlocation receives the generated id")
    func sourceFileAndIDLocation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("invoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("children"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(
            """
            <scxml \(namespace) initial="f"><final id="f"/></scxml>
            """.utf8
        ).write(to: directory.appendingPathComponent("children/quick.scxml"))
        try Data(
            """
            <scxml \(namespace) initial="s">
              <state id="s">
                <invoke src="children/quick.scxml" idlocation="slot"/>
                <transition event="done.invoke" target="t"/>
              </state>
              <state id="t"/>
            </scxml>
            """.utf8
        ).write(to: directory.appendingPathComponent("main.scxml"))
        let document = try SCXMLDocument.load(contentsOf: directory.appendingPathComponent("main.scxml"))
        let machine = SCXMLInterpreter(document: document, clock: ManualStatechartClock())
        try machine.start()
        #expect(machine.activeAtomicStates == ["t"])
        #expect(try machine.snapshot().scxml?.sendIDSlots == ["slot": "s.1"])
    }

    @Test(
        "src may be a file: URI, relative to the parent's folder or absolute (W3C test239/test242)",
        arguments: [
            "file:children/quick.scxml", "file:./children/quick.scxml", "FILE:children/quick.scxml",
            "file:children/my%20quick.scxml", "file:///DIR/children/quick.scxml", "file:/DIR/children/quick.scxml",
            "file://localhost/DIR/children/quick.scxml", "children/quick.scxml",
        ]
    )
    func sourceFileURI(_ src: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("invoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("children"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = Data(#"<scxml \#(namespace) initial="f"><final id="f"/></scxml>"#.utf8)
        try child.write(to: directory.appendingPathComponent("children/quick.scxml"))
        try child.write(to: directory.appendingPathComponent("children/my quick.scxml"))
        let main = directory.appendingPathComponent("main.scxml")
        try Data(
            """
            <scxml \(namespace) initial="s">
              <state id="s">
                <invoke src="\(src.replacingOccurrences(of: "/DIR", with: directory.path))"/>
                <transition event="done.invoke" target="t"/>
              </state>
              <state id="t"/>
            </scxml>
            """.utf8
        ).write(to: main)
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument.load(contentsOf: main),
            clock: ManualStatechartClock()
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["t"])
    }

    @Test("A file: URI of another host, or naming no file, is a load error quoting src")
    func sourceFileURIErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("invoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = [
            ("file://elsewhere/tmp/quick.scxml", "a file: URI naming another host ('elsewhere') is never read"),
            ("file:does-not-exist.scxml", "cannot read '\(directory.path)/does-not-exist.scxml': No such file"),
        ]
        for (src, rule) in cases {
            let main = directory.appendingPathComponent("main.scxml")
            try Data("<scxml \(namespace)><state id=\"a\">\n<invoke src=\"\(src)\"/></state></scxml>".utf8).write(
                to: main
            )
            do {
                _ = try SCXMLDocument.load(contentsOf: main)
                Issue.record("\(src) loaded")
            } catch {
                guard case .sourceRefused("invoke", "src", src, 2, let reason) = error else {
                    Issue.record("expected sourceRefused, got \(error)")
                    continue
                }
                #expect(reason.hasPrefix(rule))
            }
        }
    }

    @Test("Bad invocations are load errors naming the line")
    func badInvocations() throws {
        #expect(
            scxmlLoadError(#"<scxml><state id="a"><invoke type="http"><content/></invoke></state></scxml>"#)
                == .unsupportedValue(element: "invoke", attribute: "type", value: "http", line: 1)
        )
        #expect(
            scxmlLoadError("<scxml><state id=\"a\">\n<invoke><content>text</content></invoke></state></scxml>")
                == .invalidStructure(reason: "<content> of an <invoke> must hold one <scxml> element", line: 2)
        )
        #expect(
            scxmlLoadError(#"<scxml><state id="a"><invoke><param name="x" expr="1"/></invoke></state></scxml>"#)
                == .needsDataModel(element: "param", attribute: nil, line: 1)
        )
        // Text has no folder: it reads no source unless the program gives a policy.
        let missing = scxmlLoadError("<scxml><state id=\"a\">\n<invoke src=\"does-not-exist.scxml\"/></state></scxml>")
        guard case .sourceRefused("invoke", "src", "does-not-exist.scxml", 2, let rule)? = missing else {
            Issue.record("expected sourceRefused, got \(String(describing: missing))")
            return
        }
        #expect(rule.hasPrefix("the source policy allows no sources"))
    }

    @Test("A document that invokes itself stops at the documented depth with an error")
    func selfInvocation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("invoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("loop.scxml")
        try Data(#"<scxml \#(namespace)><state id="a"><invoke src="loop.scxml"/></state></scxml>"#.utf8).write(to: file)
        #expect(throws: SCXMLError.self) { _ = try SCXMLDocument.load(contentsOf: file) }
        do {
            _ = try SCXMLDocument.load(contentsOf: file)
        } catch {
            #expect(error.description.contains("more than \(SCXMLDocument.maxInvokeDepth) documents deep"))
        }
    }
}
