import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport

/// A chart read from a file: an SCXML document or a chart in the JSON format of
/// ``Statechart`` (with `String` states, events and payloads).
public enum ChartFile: Sendable {
    /// The chart type a JSON file is read as.
    public typealias JSONChart = Statechart<String, String, String>

    /// A `.scxml` file, run with ``SCXMLInterpreter`` (with the ECMAScript data model when it
    /// declares `datamodel="ecmascript"`).
    case scxml(SCXMLDocument)
    /// A `.json` file, compiled into a ``Statechart``.
    case json(JSONChart)

    /// Reads the chart at `path`, choosing the format by its extension; a JSON chart's
    /// delayed transitions run on `clock`. An SCXML document reads its `src` files from its
    /// own folder and from the folders in `allowSources`, nothing else (see
    /// `SCXMLSourcePolicy`).
    /// - Throws: ``StatechartToolFailure`` (exit status 2) when the file is missing, has
    ///   another extension, or is not a valid chart; the message names the file and the
    ///   line (SCXML) or JSON path of the problem.
    public static func load(
        _ path: String,
        clock: any StatechartClock = .continuous,
        allowSources: [String] = []
    ) throws(StatechartToolFailure) -> ChartFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StatechartToolFailure("\(path): no such file")
        }
        guard !isDirectory.boolValue else {
            throw StatechartToolFailure("\(path): is a directory, not a chart file")
        }
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "scxml":
            let url = URL(fileURLWithPath: path)
            let sources = SCXMLSourcePolicy.documentFolder(and: allowSources.map { URL(fileURLWithPath: $0) })
            do {
                return .scxml(try SCXMLDocument.load(contentsOf: url, dataModel: .ecmascript, sources: sources))
            } catch {
                guard case .sourceRefused = error else { throw StatechartToolFailure("\(path): \(error)") }
                throw StatechartToolFailure(
                    "\(path): \(error) (statechart reads sources only inside the chart's folder and the folders given with --allow-sources DIR)"
                )
            }
        case "json":
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                return .json(try JSONChart(JSONChart.definition(fromJSON: data), clock: clock))
            } catch {
                throw StatechartToolFailure("\(path): \(error)")
            }
        default:
            throw StatechartToolFailure("\(path): unknown kind of file (expected a .scxml or a .json chart)")
        }
    }

    /// The chart's diagram in `format`: Mermaid or DOT text, or an SVG or PNG image that
    /// Graphviz renders.
    /// - Throws: ``StatechartToolFailure`` (exit status 1) saying why Graphviz failed, or
    ///   how to install it.
    package func diagram(_ format: DiagramFormat) throws(StatechartToolFailure) -> [UInt8] {
        switch (self, format) {
        case (.scxml(let document), .mermaid): return Array(document.mermaid().utf8)
        case (.scxml(let document), .dot): return Array(document.dot().utf8)
        case (.json(let chart), .mermaid): return Array(chart.mermaid().utf8)
        case (.json(let chart), .dot): return Array(chart.dot().utf8)
        case (_, .svg), (_, .png): return try image(format)
        }
    }
}

/// Why `statechart` stops before doing its work: bad input (exit status 2 unless said
/// otherwise). The message goes to standard error after `statechart: `.
public struct StatechartToolFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file and where in it.
    public let message: String
    /// The exit status.
    public let status: Int32

    /// A failure saying `message`, with exit status `status`.
    public init(_ message: String, status: Int32 = 2) {
        self.message = message
        self.status = status
    }

    /// The message.
    public var description: String { message }
}

extension ChartFile {
    /// The JSON chart at `path` as an SCXML document's text (`SCXMLDocument.export`); with
    /// `partial`, what SCXML cannot express is listed in a comment instead of failing.
    /// - Throws: ``StatechartToolFailure``: exit status 2 when the file is missing, is no
    ///   `.json` or is no valid chart (naming the JSON path at fault); 1 when the chart holds
    ///   what SCXML cannot express, each part listed with where it is.
    package static func exportSCXML(_ path: String, partial: Bool) throws(StatechartToolFailure) -> String {
        guard URL(fileURLWithPath: path).pathExtension.lowercased() == "json" else {
            throw StatechartToolFailure("\(path): export reads a JSON chart (.json); an .scxml file is SCXML already")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StatechartToolFailure("\(path): no such file")
        }
        let definition: JSONChart.Definition
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            definition = try JSONChart.definition(fromJSON: data)
        } catch {
            throw StatechartToolFailure("\(path): \(error)")
        }
        do {
            return try SCXMLDocument.export(
                definition,
                options: SCXMLExportOptions(unexpressible: partial ? .comment : .fail)
            )
        } catch {
            throw StatechartToolFailure("\(path): \(error) (--partial writes the rest)", status: 1)
        }
    }
}
