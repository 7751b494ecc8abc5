import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML

#if canImport(FoundationXML)
import FoundationXML
#endif

/// SCXML with the ECMAScript data model (`Benchmarks hierarchy --filter scxml-data`):
/// - a ring whose every transition evaluates one `cond` and one `<assign>`, against the
///   same ring built in Swift whose guards and actions do the same arithmetic on a Swift
///   variable (target: within 10x, and under 2 µs per event);
/// - loading the calculator sample (`Samples/Statecharts/calculator.scxml`, the size of Qt
///   SCXML's calculator example) against reading the same text with Foundation's
///   `XMLParser` alone (target: under 5 ms);
/// - memory per started session (every arena, 1,000 sessions of one document).
enum ECMAScriptBenchmarks {
    static let ringSize = 8
    static let events = 50_000

    static func run(_ report: SuiteReport) throws {
        if report.wants("scxml-data.ring") { try ring(report) }
        if report.wants("scxml-data.load") { try load(report) }
        if report.wants("scxml-data.memory") {
            try report.addMemory(
                "scxml-data.memory.session",
                probe: "ecmascript-session",
                target: nil,
                note: "a started ECMAScript session (its own JavaScript heap), 1,000 of one document"
            )
        }
    }

    /// The ring: each state's transition on `next` checks `count >= 0` and adds one.
    static let ringSCXML: String = {
        var xml = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s0">"#
        xml += #"<datamodel><data id="count" expr="0"/></datamodel>"#
        for index in 0..<ringSize {
            xml +=
                #"<state id="s\#(index)"><transition event="next" cond="count &gt;= 0" target="s\#((index + 1) % ringSize)">"#
            xml += #"<assign location="count" expr="count + 1"/></transition></state>"#
        }
        return xml + "</scxml>"
    }()

    static func ring(_ report: SuiteReport) throws {
        let document = try SCXMLDocument(xml: ringSCXML, dataModel: .ecmascript)
        let session = SCXMLInterpreter(document: document, recordsTrace: false)
        try session.start()
        let counter = HierarchyBenchmarks.BlockCounter()
        let chart = try HierarchyBenchmarks.ringWithBlocks(counter, options: .scxml)
        chart.start()
        let samples = try Harness.interleaved(
            repetitions: report.repetitions,
            operations: events,
            [
                { for _ in 0..<events { try chart.handle("next") } },
                { for _ in 0..<events { try session.send("next") } },
            ]
        )
        guard case .number(let count)? = try session.variables()["count"], Int(count) == counter.value else {
            throw BenchmarkError("the ECMAScript ring did not count as the Swift ring did")
        }
        report.add(
            "scxml-data.ring.send",
            unit: "ns/event",
            samples[1],
            baseline: ("the same ring in Swift: a guard and an action on a Swift variable", samples[0]),
            target: .ratioAtMost(1.3),
            note: "one cond and one <assign> per event, SCXMLInterpreter(recordsTrace: false)"
        )
    }

    /// The calculator sample's text.
    static func calculatorText() throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/Statecharts/calculator.scxml")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Only reads the elements, as any loader must: the baseline of a load.
    final class ElementCounter: NSObject, XMLParserDelegate {
        var elements = 0
        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            elements += 1
        }
    }

    static func load(_ report: SuiteReport) throws {
        let text = try calculatorText()
        let data = Data(text.utf8)
        let loads = 20
        var states = 0
        let samples = try Harness.interleaved(
            repetitions: report.repetitions,
            operations: loads,
            [
                {
                    for _ in 0..<loads {
                        let parser = XMLParser(data: data)
                        let counter = ElementCounter()
                        parser.delegate = counter
                        parser.shouldProcessNamespaces = true
                        guard parser.parse() else { throw BenchmarkError("XMLParser refused the calculator") }
                    }
                },
                {
                    for _ in 0..<loads {
                        states = try SCXMLDocument(data: data, dataModel: .ecmascript).stateIDs.count
                    }
                },
            ]
        )
        guard states == 5 else { throw BenchmarkError("the calculator has \(states) states, not 5") }
        report.add(
            "scxml-data.load.calculator",
            unit: "ns/load",
            samples[1],
            baseline: ("Foundation's XMLParser reading the same text", samples[0]),
            target: .atMost(5_000_000),
            note: "SCXMLDocument(data:dataModel: .ecmascript): parse, check, compile every script and the chart"
        )
    }

    /// 1,000 started sessions of the ring document.
    static var memoryProbes: [MemoryProbe] {
        [
            MemoryProbe(name: "hierarchy.ecmascript-session", count: 1_000) { count in
                let document = try SCXMLDocument(xml: ringSCXML, dataModel: .ecmascript)
                return try (0..<count).map { _ in
                    let session = SCXMLInterpreter(document: document, recordsTrace: false)
                    try session.start()
                    return session
                }
            }
        ]
    }
}
