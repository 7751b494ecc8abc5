import Foundation
import StateMachineHierarchy
import StateMachineSupport

extension ChartFile {
    /// The chart's name: the document's or the chart's `name`, else `chart`.
    var name: String {
        switch self {
        case .scxml(let document): document.name ?? "scxml"
        case .json(let chart): chart.definition.name
        }
    }

    /// Every state of the chart, by name.
    var stateNames: Set<String> {
        switch self {
        case .scxml(let document): Set(document.stateIDs)
        case .json(let chart): Set(chart.states)
        }
    }

    /// The chart's diagram rendered by Graphviz as `format` (`png`, else `svg`).
    /// - Throws: ``StatechartToolFailure`` (exit status 1) saying why Graphviz failed, or
    ///   how to install it.
    func image(_ format: DiagramFormat) throws(StatechartToolFailure) -> [UInt8] {
        do {
            switch (self, format) {
            case (.scxml(let document), .png): return try document.png()
            case (.scxml(let document), _): return try document.svg()
            case (.json(let chart), .png): return try chart.png()
            case (.json(let chart), _): return try chart.svg()
            }
        } catch {
            throw StatechartToolFailure("\(error)", status: 1)
        }
    }

    /// The page that steps through `trace`.
    /// - Throws: ``StatechartToolFailure`` (exit status 1) when Graphviz fails.
    func stepThroughPage(_ trace: StatechartTrace) throws(StatechartToolFailure) -> String {
        do {
            switch self {
            case .scxml(let document): return try document.stepThroughPage(trace)
            case .json(let chart): return try chart.stepThroughPage(trace)
            }
        } catch {
            throw StatechartToolFailure("\(error)", status: 1)
        }
    }
}

/// Reading a trace that `statechart run --record` wrote, and the trace of a start alone.
enum RecordedTrace {
    /// The trace in the file at `path`, checked against `chart`.
    /// - Throws: ``StatechartToolFailure`` (exit status 2) when the file is missing, is not
    ///   a trace, or names a state `chart` does not have (a trace of another chart).
    static func read(_ path: String, for chart: ChartFile) throws(StatechartToolFailure) -> StatechartTrace {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StatechartToolFailure("\(path): cannot read the trace: \(error.localizedDescription)")
        }
        let trace: StatechartTrace
        do {
            trace = try JSONDecoder().decode(StatechartTrace.self, from: data)
        } catch let error as DecodingError {
            throw StatechartToolFailure("\(path): not a trace written by 'statechart run --record': \(describe(error))")
        } catch {
            throw StatechartToolFailure("\(path): not a trace written by 'statechart run --record': \(error)")
        }
        let known = chart.stateNames
        for (index, step) in trace.steps.enumerated() {
            if let unknown = (step.configuration + step.entered + step.exited).first(where: { !known.contains($0) }) {
                throw StatechartToolFailure(
                    "\(path): step \(index) names the state '\(unknown)', which the chart '\(chart.name)' does not have (a trace of another chart?)"
                )
            }
        }
        return trace
    }

    /// The trace of starting `chart`: one step.
    @MainActor
    static func start(of chart: ChartFile) -> StatechartTrace {
        let session: any ChartSession =
            switch chart {
            case .scxml(let document): SCXMLSession(document)
            case .json(let chart): StatechartSession(chart)
            }
        let recorder = RecordingSession(session, chart: chart.name)
        _ = recorder.start()
        return recorder.trace
    }

    /// Where in the JSON a decoding error is, and what is wrong there.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing '\(key.stringValue)'\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}

extension StatechartTrace {
    /// The trace as pretty-printed JSON, keys sorted.
    func jsonBytes() throws(StatechartToolFailure) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return Array(try encoder.encode(self)) + [0x0A]
        } catch {
            throw StatechartToolFailure("cannot encode the trace: \(error)", status: 1)
        }
    }
}

/// Writing the tool's files.
enum OutputFile {
    /// Writes `bytes` to `path`, replacing the file.
    /// - Throws: ``StatechartToolFailure`` (exit status 1) naming the path and the reason.
    static func write(_ bytes: [UInt8], to path: String) throws(StatechartToolFailure) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw StatechartToolFailure("\(path): cannot write: \(error.localizedDescription)", status: 1)
        }
    }
}
