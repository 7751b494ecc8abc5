import Foundation
import StatechartToolKit
import Testing

/// `statechart check` on W3C tests: a folder with the W3C's layout (manifest.xml, txml/,
/// confEcma.xsl) made here with a small stylesheet of the W3C's kind, one `.txml`, one
/// converted `.scxml`; and the real W3C folder when it is there.
@Suite("statechart check: W3C tests", .timeLimit(.minutes(2)))
@MainActor
struct W3CCheckTests {
    /// What confEcma.xsl does for the pass and fail markers, in XSLT 1.0.
    static let stylesheet = """
        <?xml version="1.0"?>
        <xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
            xmlns:conf="http://www.w3.org/2005/scxml-conformance" version="1.0">
        <xsl:template match="/ | @* | node()"><xsl:copy><xsl:apply-templates select="@* | node()"/></xsl:copy></xsl:template>
        <xsl:template match="//@conf:targetpass"><xsl:attribute name="target">pass</xsl:attribute></xsl:template>
        <xsl:template match="//@conf:targetfail"><xsl:attribute name="target">fail</xsl:attribute></xsl:template>
        <xsl:template match="conf:pass"><final xmlns="http://www.w3.org/2005/07/scxml" id="pass"/></xsl:template>
        <xsl:template match="conf:fail"><final xmlns="http://www.w3.org/2005/07/scxml" id="fail"/></xsl:template>
        </xsl:stylesheet>
        """

    /// A `.txml` test whose `s0` holds `body`.
    static func test(_ body: String) -> String {
        """
        <?xml version="1.0"?>
        <scxml initial="s0" version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
            xmlns:conf="http://www.w3.org/2005/scxml-conformance">
          <state id="s0">\(body)</state>
          <conf:pass/>
          <conf:fail/>
        </scxml>
        """
    }

    /// A folder in the W3C's layout: test1 passes (through a child it invokes by a
    /// `file:` URI), test2 fails, test3 is manual.
    static func suite(stylesheet: Bool = true) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write(
            "manifest.xml",
            """
            <?xml version="1.0"?>
            <assertions>
              <assert id="1" specnum="6.4"><test id="1" conformance="mandatory" manual="false">
                <start uri="1/test1.txml"/><dep uri="1/test1sub1.txml"/></test></assert>
              <assert id="2" specnum="3.13"><test id="2" conformance="mandatory" manual="false">
                <start uri="2/test2.txml"/></test></assert>
              <assert id="3" specnum="3.13"><test id="3" conformance="mandatory" manual="true">
                <start uri="3/test3.txml"/></test></assert>
            </assertions>
            """
        )
        if stylesheet { try directory.write("confEcma.xsl", Self.stylesheet) }
        try directory.write(
            "txml/test1.txml",
            test(#"<invoke src="file:test1sub1.scxml"/><transition event="done.invoke" conf:targetpass=""/>"#)
        )
        try directory.write("txml/test1sub1.txml", test(#"<transition conf:targetpass=""/>"#))
        try directory.write("txml/test2.txml", test(#"<transition conf:targetfail=""/>"#))
        try directory.write("txml/test3.txml", test(#"<transition conf:targetpass=""/>"#))
        return directory
    }

    @Test("check DIR with a manifest.xml runs its W3C tests: SKIP for manual ones, FAIL with the outcome, the summary")
    func suite() async throws {
        let directory = try Self.suite()
        defer { directory.remove() }
        let run = await runTool(["check", directory.path])
        #expect(run.status == 1)
        #expect(
            run.standardOutput
                == "SKIP test3: a manual test (a person judges its outcome)\nFAIL test2: fail\n1 passed, 1 failed, 1 skipped\n"
                + "mandatory automatic tests: 1/2 passed\n"
        )
        #expect(run.standardError.isEmpty)
    }

    @Test("check FILE.txml converts and runs one test, with the dependencies the manifest names")
    func oneTXML() async throws {
        let directory = try Self.suite()
        defer { directory.remove() }
        let passing = await runTool(["check", directory.path + "/txml/test1.txml"])
        #expect(passing.status == 0)
        #expect(passing.standardOutput == "1 passed, 0 failed\n")
        let failing = await runTool(["check", directory.path + "/txml/test2.txml"])
        #expect(failing.status == 1)
        #expect(failing.standardOutput == "FAIL test2: fail\n0 passed, 1 failed\n")
    }

    @Test("Without a manifest, a .txml runs with the files beside it that it names; --stylesheet gives the stylesheet")
    func stylesheetOption() async throws {
        let directory = try Self.suite(stylesheet: false)
        defer { directory.remove() }
        try FileManager.default.removeItem(atPath: directory.path + "/manifest.xml")
        let file = directory.path + "/txml/test1.txml"
        let missing = await runTool(["check", file])
        #expect(missing.status == 2)
        #expect(
            missing.standardError
                == "statechart: \(directory.path)/txml: no confEcma.xsl here or in the folder above (give one with --stylesheet)\n"
        )
        let style = try directory.write("elsewhere/style.xsl", Self.stylesheet)
        let run = await runTool(["check", file, "--stylesheet", style])
        #expect(run.status == 0)
        #expect(run.standardOutput == "1 passed, 0 failed\n")
        let absent = await runTool(["check", file, "--stylesheet", directory.path + "/none.xsl"])
        #expect(absent.status == 2)
        #expect(absent.standardError == "statechart: \(directory.path)/none.xsl: no such stylesheet\n")
        let scion = try scionDirectory(wrong: false)
        defer { scion.remove() }
        let wrongKind = await runTool(["check", scion.path, "--stylesheet", style])
        #expect(wrongKind.status == 2)
        #expect(
            wrongKind.standardError
                == "statechart: --stylesheet applies only to W3C tests (.txml files, a manifest.xml)\n"
        )
    }

    @Test("check FILE.scxml without a .json runs a converted W3C test; one that does not load fails with the error")
    func convertedSCXML() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pass = try directory.write(
            "test9.scxml",
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><final id="pass"/></scxml>"#
        )
        let passing = await runTool(["check", pass])
        #expect(passing.status == 0)
        #expect(passing.standardOutput == "1 passed, 0 failed\n")
        let bad = try directory.write("bad.scxml", "<scxml/>")
        let failing = await runTool(["check", bad])
        #expect(failing.status == 1)
        #expect(
            failing.standardOutput
                == "FAIL bad: load error: line 1: <scxml> has no <state>, <parallel> or <final> child\n0 passed, 1 failed\n"
        )
    }

    @Test(
        "check on the real W3C tests: every mandatory test passes (ECMAScript), the manual ones are skipped",
        .enabled(if: Paths.w3c != nil, Comment(rawValue: Paths.w3cSkipReason))
    )
    func realSuite() async throws {
        let run = await runTool(["check", try #require(Paths.w3c)])
        // The XPath, Basic HTTP and XML DOM tests fail (optional features this processor does
        // not have): the exit status says so.
        // Every mandatory test passes: exit 0, though optional ones fail.
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("SKIP ") }.count == 9)
        #expect(lines.filter { $0.hasPrefix("FAIL ") }.allSatisfy { $0.contains(" (optional): ") })
        // test239 (file: URIs), test236 (the child's final exit), test187 (a delayed send to
        // #_parent) and test577 (Basic HTTP without a target) among them.
        for id in ["144", "187", "236", "239", "242", "577"] {
            #expect(
                !lines.contains { $0.hasPrefix("FAIL test\(id):") || $0.hasPrefix("FAIL test\(id) (") },
                "test\(id) fails"
            )
        }
        #expect(
            lines.suffix(4) == [
                "180 passed, 42 failed, 9 skipped", "mandatory automatic tests: 159/159 passed",
                "optional automatic tests: 21/63 passed",
                "exit status 0: every mandatory test passed; optional failures count only with --strict",
            ]
        )
        // One run only: the suite runs on the main actor, which the other tests share. The
        // manifest as PATH and --strict are checked on a small suite (optionalAndManifest).
    }

    @Test(
        "check MANIFEST runs the manifest's tests; an optional failure exits 0 unless --strict, and the summary says which is which"
    )
    func optionalAndManifest() async throws {
        let directory = try Self.suite()
        defer { directory.remove() }
        // Without test2 (a mandatory failure), only the optional test4 fails.
        try directory.write(
            "manifest.xml",
            """
            <?xml version="1.0"?>
            <assertions>
              <assert id="1" specnum="6.4"><test id="1" conformance="mandatory" manual="false">
                <start uri="1/test1.txml"/><dep uri="1/test1sub1.txml"/></test></assert>
              <assert id="4" specnum="3.13"><test id="4" conformance="optional" manual="false">
                <start uri="4/test4.txml"/></test></assert>
            </assertions>
            """
        )
        try directory.write("txml/test4.txml", Self.test(#"<transition conf:targetfail=""/>"#))
        let run = await runTool(["check", directory.path + "/manifest.xml"])
        #expect(run.status == 0)
        #expect(
            run.standardOutput
                == "FAIL test4 (optional): fail\n1 passed, 1 failed\nmandatory automatic tests: 1/1 passed\n"
                + "optional automatic tests: 0/1 passed\n"
                + "exit status 0: every mandatory test passed; optional failures count only with --strict\n"
        )
        let strict = await runTool(["check", directory.path, "--strict"])
        #expect(strict.status == 1)
        #expect(!strict.standardOutput.contains("exit status 0"))
        let one = await runTool(["check", directory.path + "/txml/test4.txml"])
        #expect(one.status == 0)
        #expect(
            one.standardOutput
                == "FAIL test4 (optional): fail\n0 passed, 1 failed\nexit status 0: an optional test; its failure counts only with --strict\n"
        )
        #expect(await runTool(["check", directory.path + "/txml/test4.txml", "--strict"]).status == 1)
    }
}
