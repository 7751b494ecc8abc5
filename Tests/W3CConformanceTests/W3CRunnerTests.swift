import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import StatechartToolKit
import Testing

// The runner, the conversion and the classification on small documents in temporary
// folders, so that they are checked where the W3C files are absent. The conversion runs
// Debian's xsltproc (scripts/setup installs it) with a small stylesheet of the W3C's kind.

private let namespace = #"xmlns="http://www.w3.org/2005/07/scxml" version="1.0""#

/// A runnable SCXML document with `body` inside `<scxml>`.
private func document(_ body: String, initial: String? = nil) throws -> SCXMLDocument {
    try SCXMLDocument(xml: "<scxml \(namespace)\(initial.map { " initial=\"\($0)\"" } ?? "")>\(body)</scxml>")
}

/// A temporary folder, removed by `remove()`.
private struct Folder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("w3c-runner-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A stylesheet doing what confEcma.xsl does for the pass and fail markers (XSLT 1.0), and
/// with `xslt2`, one template in XSLT 2.0 (`xsl:analyze-string`), as confEcma.xsl has.
private func stylesheet(xslt2: Bool = false) -> String {
    let idVal = """
        <xsl:template match="//@conf:idVal">
          <xsl:attribute name="cond">
            <xsl:analyze-string select="." regex="([0-9]+)=(.*)">
              <xsl:matching-substring>Var<xsl:value-of select="regex-group(1)"/></xsl:matching-substring>
            </xsl:analyze-string>
          </xsl:attribute>
        </xsl:template>
        """
    return """
        <?xml version="1.0"?>
        <xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
            xmlns:conf="http://www.w3.org/2005/scxml-conformance" version="\(xslt2 ? "2.0" : "1.0")">
        <xsl:template match="/ | @* | node()"><xsl:copy><xsl:apply-templates select="@* | node()"/></xsl:copy></xsl:template>
        <xsl:template match="//@conf:targetpass"><xsl:attribute name="target">pass</xsl:attribute></xsl:template>
        <xsl:template match="//@conf:targetfail"><xsl:attribute name="target">fail</xsl:attribute></xsl:template>
        <xsl:template match="//@conf:datamodel"><xsl:attribute name="datamodel">ecmascript</xsl:attribute></xsl:template>
        <xsl:template match="conf:pass"><final xmlns="http://www.w3.org/2005/07/scxml" id="pass"/></xsl:template>
        <xsl:template match="conf:fail"><final xmlns="http://www.w3.org/2005/07/scxml" id="fail"/></xsl:template>
        \(xslt2 ? idVal : "")
        </xsl:stylesheet>
        """
}

/// A `.txml` test: `body` inside an `<scxml>` that declares the conformance namespace.
private func txml(_ body: String) -> String {
    """
    <?xml version="1.0"?>
    <scxml initial="s0" conf:datamodel="" \(namespace) xmlns:conf="http://www.w3.org/2005/scxml-conformance">
    \(body)
    <conf:pass/>
    <conf:fail/>
    </scxml>
    """
}

@Suite("W3C runner")
struct W3CRunnerTests {
    @Test("Reaching the top-level final pass passes, fail fails, another final is neither")
    func outcomes() throws {
        #expect(W3CConformance.run(try document(#"<final id="pass"/>"#)) == .pass)
        #expect(W3CConformance.run(try document(#"<final id="fail"/><final id="pass"/>"#)) == .fail)
        #expect(
            W3CConformance.run(try document(#"<final id="other"/>"#))
                == .notFinished("it finished in [\"other\"], neither pass nor fail")
        )
    }

    @Test("The clock jumps to the next timer whenever the machine waits: 30 s of delays take no real time")
    func timeJumps() throws {
        let machine = try document(
            """
            <state id="s0">
              <onentry><send event="late" delay="30s"/><send event="early" delay="10s"/></onentry>
              <transition event="early" target="s1"/>
              <transition event="late" target="fail"/>
            </state>
            <state id="s1"><transition event="late" target="pass"/></state>
            <final id="pass"/><final id="fail"/>
            """
        )
        let started = ContinuousClock.now
        #expect(W3CConformance.run(machine) == .pass)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("A machine that waits with no timer, or for one beyond the bound, has not finished")
    func notFinished() throws {
        let waiting = try document(
            #"<state id="s0"><transition event="never" target="pass"/></state><final id="pass"/>"#
        )
        #expect(
            W3CConformance.run(waiting)
                == .notFinished("waits in [\"s0\"] at 0.0 seconds of simulated time with no timer pending")
        )
        let late = try document(
            #"<state id="s0"><onentry><send event="t" delay="61s"/></onentry><transition event="t" target="pass"/></state><final id="pass"/>"#
        )
        #expect(
            W3CConformance.run(late)
                == .notFinished(
                    "waits in [\"s0\"] at 0.0 seconds of simulated time; its next timer, at 61.0 seconds, is beyond 60.0 seconds"
                )
        )
        #expect(W3CConformance.run(late, limits: W3CConformance.Limits(simulatedTime: .seconds(61))) == .pass)
    }

    @Test("The clock moves a bounded number of times")
    func clockMoves() throws {
        let ticking = try document(
            """
            <state id="s0">
              <onentry><send event="tick" delay="1s"/></onentry>
              <transition event="tick" target="s0"/>
            </state>
            <final id="pass"/>
            """
        )
        let outcome = W3CConformance.run(ticking, limits: W3CConformance.Limits(clockMoves: 5))
        #expect(
            outcome == .notFinished("waits in [\"s0\"] at 5.0 seconds of simulated time after the clock moved 5 times")
        )
    }

    @Test("A machine stopped by an error has not finished, with the error")
    func stopped() throws {
        let looping = try document(
            #"<state id="a"><transition target="b"/></state><state id="b"><transition target="a"/></state>"#
        )
        let outcome = W3CConformance.run(looping)
        guard case .notFinished(let reason) = outcome else {
            Issue.record("expected notFinished, got \(outcome)")
            return
        }
        #expect(reason.hasPrefix("the machine stopped: "))
    }

    @Test("An invoked session's timers run on the same clock")
    func childTimers() throws {
        let parent = try document(
            """
            <state id="s0">
              <invoke>
                <content>
                  <scxml \(namespace)>
                    <state id="c"><onentry><send event="ready" target="#_parent" delay="5s"/></onentry></state>
                  </scxml>
                </content>
              </invoke>
              <transition event="ready" target="pass"/>
            </state>
            <final id="pass"/>
            """
        )
        #expect(W3CConformance.run(parent) == .pass)
    }

    @Test("A document that does not load is a load error; the null data model loads as nil does")
    func loading() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("pass.scxml", "<scxml \(namespace)><final id=\"pass\"/></scxml>")
        #expect(W3CConformance.run(folder.url.appendingPathComponent("pass.scxml"), dataModel: .null) == .pass)
        let missing = W3CConformance.run(folder.url.appendingPathComponent("missing.scxml"))
        guard case .loadError(let error) = missing else {
            Issue.record("expected a load error, got \(missing)")
            return
        }
        #expect(error.hasPrefix("cannot read SCXML file"))
    }

    @Test("The manifest lists each test with its documents, dependencies, conformance and section")
    func manifest() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write(
            "manifest.xml",
            """
            <?xml version="1.0"?>
            <assertions>
              <assert id="1" specnum="3.2" specid="#scxml"><![CDATA[text]]>
                <test id="1" conformance="mandatory" manual="false">
                  <start uri="1/test1a.txml"/><start uri="1/test1b.txml"/><dep uri="1/test1sub1.txml"/>
                </test>
              </assert>
              <assert id="2" specnum="D.2"><test id="2" conformance="optional" manual="true"><start uri="2/test2.txt"/></test></assert>
            </assertions>
            """
        )
        let tests = try W3CTest.manifest(contentsOf: folder.url.appendingPathComponent("manifest.xml"))
        #expect(
            tests == [
                W3CTest(
                    id: "1",
                    conformance: .mandatory,
                    isManual: false,
                    specSection: "3.2",
                    documents: ["test1a.txml", "test1b.txml"],
                    dependencies: ["test1sub1.txml"]
                ),
                W3CTest(id: "2", conformance: .optional, isManual: true, specSection: "D.2", documents: ["test2.txt"]),
            ]
        )
        #expect(tests[0].name == "test1")
        #expect(throws: W3CConformanceError.self) {
            try W3CTest.manifest(contentsOf: folder.url.appendingPathComponent("absent.xml"))
        }
    }

    @Test("A test's documents are converted side by side with what they name, then each is run")
    func convertAndRun() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("style.xsl", stylesheet())
        // The child is named by a relative file: URI, as the W3C tests do.
        try folder.write(
            "test1.txml",
            txml(
                """
                <state id="s0">
                  <invoke src="file:test1sub1.scxml"/>
                  <transition event="done.invoke" conf:targetpass=""/>
                </state>
                """
            )
        )
        try folder.write("test1sub1.txml", txml(#"<state id="s0"><transition conf:targetpass=""/></state>"#))
        try folder.write("test2.txml", txml(#"<state id="s0"><transition conf:targetfail=""/></state>"#))
        try folder.write("data.txt", "123")
        let converter = W3CConverter(stylesheet: folder.url.appendingPathComponent("style.xsl"))
        let one = W3CTest(
            id: "1",
            conformance: .mandatory,
            isManual: false,
            specSection: "6.4",
            documents: ["test1.txml"],
            dependencies: ["test1sub1.txml", "data.txt"]
        )
        #expect(W3CConformance.run(one, from: folder.url, converter: converter) == .pass)
        let both = W3CTest(
            id: "3",
            conformance: .mandatory,
            isManual: false,
            specSection: "3.13",
            documents: ["test1.txml", "test2.txml"],
            dependencies: ["test1sub1.txml"]
        )
        #expect(W3CConformance.run(both, from: folder.url, converter: converter) == .fail)
        let output = try Folder()
        defer { output.remove() }
        try converter.prepare(one, from: folder.url, into: output.url)
        let names = try FileManager.default.contentsOfDirectory(atPath: output.url.path).sorted()
        #expect(names == ["data.txt", "test1.scxml", "test1sub1.scxml"])
        let missing = W3CTest(
            id: "4",
            conformance: .mandatory,
            isManual: false,
            specSection: "",
            documents: ["test4.txml"]
        )
        let outcome = W3CConformance.run(missing, from: folder.url, converter: converter)
        #expect(
            outcome
                == .notConverted(
                    "\(folder.url.appendingPathComponent("test4.txml").path): no such file (named by test4 in the manifest)"
                )
        )
    }

    @Test("A template xsltproc cannot apply (XSLT 2.0) makes the test not converted, naming the instruction")
    func unappliedTemplate() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("confEcma.xsl", stylesheet(xslt2: true))
        try folder.write(
            "test1.txml",
            txml(#"<state id="s0"><transition conf:idVal="1=1" conf:targetpass=""/></state>"#)
        )
        let found = try #require(W3CConverter.stylesheet(near: folder.url))
        #expect(W3CConverter(stylesheet: found).restatesXSLT2)
        let converter = W3CConverter(stylesheet: found, restatesXSLT2: false)
        let conversion = try converter.convert(folder.url.appendingPathComponent("test1.txml"))
        #expect(conversion.unappliedInstructions == ["analyze-string"])
        let test = W3CTest(
            id: "1",
            conformance: .mandatory,
            isManual: false,
            specSection: "",
            documents: ["test1.txml"]
        )
        #expect(
            W3CConformance.run(test, from: folder.url, converter: converter)
                == .notConverted(
                    "test1.scxml: xsltproc (XSLT 1.0) did not apply xsl:analyze-string (XSLT 2.0) of confEcma.xsl"
                )
        )
    }

    @Test(
        "confEcma.xsl's XSLT 2.0 templates are restated in XSLT 1.0, giving what their regular expressions give",
        arguments: [
            (#"conf:idVal="1=0""#, #"cond="Var1==0""#), (#"conf:idVal="2&lt;3""#, #"cond="Var2&lt;3""#),
            (#"conf:varIdVal="1=2""#, #"cond="Var1==Var2""#), (#"conf:namelistIdVal="1=1""#, #"cond="Var1===1""#),
            (#"conf:idQuoteVal="1=foo""#, #"cond="Var1=='foo'""#),
            (#"conf:idSystemVarVal="1=_sessionid""#, #"cond="Var1==_sessionid""#),
            (#"conf:compareIDVal="1&lt;2""#, #"cond="Var1&lt;Var2""#),
            (#"conf:eventvarVal="1=1""#, #"cond="_event.data['Var1']==1""#),
            (#"conf:VarEqVar="1 2""#, #"cond="Var1===Var2""#), (#"conf:VarEqVarStruct="1 2""#, #"cond="Var1==Var2""#),
            (#"conf:eventIdParamHasValue="1 2""#, #"cond="_event.raw.search(/Var1=2/) !== -1""#),
            (#"conf:eventNamedParamHasValue="param1 1""#, #"cond="_event.raw.search('param1=1') !== -1""#),
            (
                #"conf:varPrefix="2 1""#,
                #"cond="(function(str, starts){if (starts === '') return true;if (str == null || starts == null) return false;str = String(str); starts = String(starts);return str.length &gt;= starts.length &amp;&amp; str.slice(0, starts.length) === starts;})(Var1, Var2)""#
            ),
        ]
    )
    func restatedTemplates(attribute: String, converted: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("confEcma.xsl", stylesheet(xslt2: true))
        try folder.write("test1.txml", txml(#"<state id="s0"><transition \#(attribute) conf:targetpass=""/></state>"#))
        let converter = W3CConverter(stylesheet: folder.url.appendingPathComponent("confEcma.xsl"))
        let conversion = try converter.convert(folder.url.appendingPathComponent("test1.txml"))
        #expect(conversion.unappliedInstructions.isEmpty)
        let text = String(decoding: conversion.scxml, as: UTF8.self)
        #expect(text.contains("<transition \(converted) target=\"pass\"/>"), "\(text)")
    }

    @Test("The classification names what needs a data model, and passes what the null data model has")
    func classification() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let converted = try Folder()
        defer { converted.remove() }
        let null = """
            <scxml \(namespace) initial="s0">
              <state id="s0">
                <onentry><send event="t" delayexpr="'1s'"/><log expr="'text'"/></onentry>
                <invoke><content><scxml \(namespace)><final id="f"/></scxml></content></invoke>
                <transition event="t" cond="In('s0') &amp;&amp; !false" target="pass"/>
              </state>
              <final id="pass"/>
            </scxml>
            """
        let ecmaScript = """
            <scxml \(namespace) datamodel="ecmascript">
              <datamodel><data id="Var1" expr="1"/></datamodel>
              <state id="s0">
                <onentry><send event="t" namelist="Var1"><content>x</content></send></onentry>
                <transition event="t" cond="Var1 == 1" target="pass"/>
              </state>
              <final id="pass"/>
            </scxml>
            """
        for (name, text) in [("null", null), ("ecma", ecmaScript)] {
            try folder.write("\(name).txml", text.replacingOccurrences(of: "datamodel=\"ecmascript\"", with: ""))
            try converted.write("\(name).scxml", text)
        }
        try folder.write("xpath.txml", #"<scxml datamodel="xpath"><final id="pass"/></scxml>"#)
        try converted.write("xpath.scxml", "<scxml \(namespace)><final id=\"pass\"/></scxml>")
        func uses(_ documents: [String], dependencies: [String] = []) throws -> [String] {
            let test = W3CTest(
                id: "0",
                conformance: .mandatory,
                isManual: false,
                specSection: "",
                documents: documents,
                dependencies: dependencies
            )
            return try W3CClassification.dataModelUses(of: test, source: folder.url, converted: converted.url)
        }
        #expect(try uses(["null.txml"]).isEmpty)
        #expect(
            try uses(["null.txml"], dependencies: ["ecma.txml"])
                == ["<datamodel>", "<data>", "namelist", "<content> in <send>", "expr=\"1\"", "cond=\"Var1 == 1\""]
        )
        #expect(try uses(["xpath.txml"]) == ["datamodel=\"xpath\" in xpath.txml"])
    }
}
