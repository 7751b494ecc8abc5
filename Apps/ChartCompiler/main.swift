// `ChartCompiler CHART OUTPUT`: compiles an `.scxml` document or a JSON chart into a Swift
// file with a typed class (see `Generator`). The ChartCompilerPlugin runs it at build time for
// each chart of a target. A chart that does not load is reported as `CHART:LINE:COLUMN: error:
// MESSAGE` (the loader's own message), which build systems and editors show at that line, and
// the exit status is 1; a usage error exits 2.
import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: ChartCompiler CHART.scxml|CHART.json OUTPUT.swift\n".utf8))
    exit(2)
}
let (input, output) = (arguments[0], arguments[1])

/// Reports `message` at `line` and `column` of the chart and exits 1.
func fail(_ message: String, line: Int = 1, column: Int = 1) -> Never {
    FileHandle.standardError.write(Data("\(input):\(line):\(column): error: \(message)\n".utf8))
    exit(1)
}

/// The line and column a loader's message starts with (`line 12, column 3: ...` or
/// `line 12: ...`), and the rest of it.
func located(_ message: String) -> (line: Int, column: Int, message: String) {
    guard let match = message.firstMatch(of: /^line (\d+)(?:, column (\d+))?: (.*)$/.dotMatchesNewlines()),
        let line = Int(match.1)
    else { return (1, 1, message) }
    return (line, match.2.flatMap { Int($0) } ?? 1, String(match.3))
}

guard let data = FileManager.default.contents(atPath: input) else { fail("cannot read the chart") }
guard let text = String(data: data, encoding: .utf8) else { fail("the chart is not UTF-8 text") }
let file = URL(fileURLWithPath: input).lastPathComponent
let generator: Generator
if input.hasSuffix(".scxml") {
    do {
        // A document that loads without a data model needs none (its generated class takes an
        // optional one); any other is loaded with ECMAScript, so that its expressions are
        // checked at build time too, and its class takes the data model to run it with.
        // `src` reads nothing.
        if let document = try? SCXMLDocument(xml: text) {
            generator = .scxml(document: document, text: text, file: file, needsDataModel: false)
        } else {
            let document = try SCXMLDocument(xml: text, dataModel: .ecmascript)
            generator = .scxml(document: document, text: text, file: file, needsDataModel: true)
        }
    } catch {
        let (line, column, message) = located("\(error)")
        fail(message, line: line, column: column)
    }
} else if input.hasSuffix(".json") {
    do {
        let definition = try Statechart<String, String, String>.definition(fromJSON: data)
        let chart = try Statechart<String, String, String>(definition)
        generator = .json(chart: chart, text: text, file: file)
    } catch {
        let (line, column, message) = located("\(error)")
        fail(message, line: line, column: column)
    }
} else {
    FileHandle.standardError.write(Data("ChartCompiler: '\(input)' is neither .scxml nor .json\n".utf8))
    exit(2)
}
do {
    try Data(generator.source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("ChartCompiler: cannot write '\(output)': \(error.localizedDescription)\n".utf8))
    exit(1)
}
