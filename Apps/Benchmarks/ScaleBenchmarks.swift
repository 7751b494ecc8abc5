import Foundation
import StateMachineHierarchy
import StateMachineSCXML

/// How loading a statechart grows with its size (`swift run -c release Benchmarks hierarchy
/// --filter scale`): flat charts loaded as `statechart run` loads them (parse, validate,
/// compile, start, one event), from SCXML and from JSON, each state with one shared event
/// and, in the `own` charts, an event of its own besides.
///
/// - Time: the median load against a baseline that does the least any loader does with the
///   same rows by hand: numbers the state and event names in dictionaries and lists each
///   state's (event, target) pairs.
/// - Peak memory: each large chart is loaded once more in a fresh process
///   (`Benchmarks scale-load scxml|json own|shared STATES`), which reports its peak resident
///   memory (`VmHWM`: everything the process touched, the runtime, the text, the document
///   and the chart).
/// - Growth: load time per state at the largest size over that at 1,000 states; 1.00 is
///   linear.
enum ScaleBenchmarks {
    /// The kinds of generated chart.
    enum Shape: String, CaseIterable {
        /// Every state has `next`, to the next state in a ring.
        case shared
        /// Every state also has an event of its own (`e<i>`), to the state after the next.
        case own
    }

    /// What the chart is read from.
    enum Format: String, CaseIterable {
        case scxml
        case json
    }

    /// A flat ring of `states` states as a document in `format`.
    static func document(_ format: Format, _ shape: Shape, states: Int) -> String {
        var text = ""
        text.reserveCapacity(states * 150)
        switch format {
        case .scxml:
            text += #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s0">"#
            for index in 0..<states {
                text += #"<state id="s\#(index)"><transition event="next" target="s\#((index + 1) % states)"/>"#
                if shape == .own {
                    text += #"<transition event="e\#(index)" target="s\#((index + 2) % states)"/>"#
                }
                text += "</state>"
            }
            text += "</scxml>"
        case .json:
            text += #"{"name": "flat", "states": ["#
            text += (0..<states).map { #"{"name": "s\#($0)", "type": "state"}"# }.joined(separator: ",")
            text += #"], "transitions": ["#
            var transitions: [String] = []
            for index in 0..<states {
                transitions.append(
                    #"{"type": "simple", "kind": "external", "name": "next", "source": "s\#(index)", "target": "s\#((index + 1) % states)"}"#
                )
                if shape == .own {
                    transitions.append(
                        #"{"type": "simple", "kind": "external", "name": "e\#(index)", "source": "s\#(index)", "target": "s\#((index + 2) % states)"}"#
                    )
                }
            }
            text += transitions.joined(separator: ",") + "]}"
        }
        return text
    }

    /// Loads `text` as `statechart run` does, starts it and sends it `next`: the active
    /// states after that.
    static func load(_ format: Format, _ text: String) throws -> [String] {
        switch format {
        case .scxml:
            let interpreter = SCXMLInterpreter(document: try SCXMLDocument(xml: text))
            try interpreter.start()
            try interpreter.send("next")
            return interpreter.activeStates
        case .json:
            let chart = try Statechart<String, String, Never>(Statechart.definition(fromJSON: text))
            chart.start()
            try chart.handle("next")
            return chart.activeStates
        }
    }

    /// The baseline: the same rows indexed by hand (names numbered, pairs listed per state).
    static func indexByHand(_ shape: Shape, states: Int) -> Int {
        var stateIndex: [String: Int32] = [:]
        var eventIndex: [String: Int32] = [:]
        var rows = [[(event: Int32, target: Int32)]](repeating: [], count: states)
        func number(_ name: String, in table: inout [String: Int32]) -> Int32 {
            if let index = table[name] { return index }
            let index = Int32(table.count)
            table[name] = index
            return index
        }
        for index in 0..<states { _ = number("s\(index)", in: &stateIndex) }
        for index in 0..<states {
            rows[index].append((number("next", in: &eventIndex), stateIndex["s\((index + 1) % states)"]!))
            if shape == .own {
                rows[index].append((number("e\(index)", in: &eventIndex), stateIndex["s\((index + 2) % states)"]!))
            }
        }
        return rows.count + eventIndex.count
    }

    /// The loads measured, with their targets in seconds (the issue's, for the largest).
    static let loads: [(format: Format, shape: Shape, states: Int, target: Double?)] = Format.allCases.flatMap {
        [
            ($0, .own, 1_000, nil), ($0, .own, 10_000, 1.0),
            ($0, .shared, 1_000, nil), ($0, .shared, 10_000, nil), ($0, .shared, 100_000, 3.0),
        ]
    }

    static func run(_ report: SuiteReport) throws {
        guard report.wants("scale") else { return }
        var perState: [String: [(states: Int, seconds: Double)]] = [:]
        for (format, shape, states, target) in loads {
            let text = document(format, shape, states: states)
            // The largest charts take seconds a load: fewer repetitions, still a median.
            let repetitions = min(report.repetitions, states >= 100_000 ? 3 : 5)
            let samples = try Harness.interleaved(
                repetitions: repetitions,
                operations: 1,
                [
                    { _ = indexByHand(shape, states: states) },
                    {
                        guard try load(format, text) == ["s1"] else {
                            throw BenchmarkError("the \(states)-state \(format) chart broke")
                        }
                    },
                ]
            )
            let seconds = Sample(values: samples[1].values.map { $0 / 1e9 })
            let name = "scale.\(format.rawValue).\(shape.rawValue)-events"
            report.add(
                "\(name).\(states)-states.load",
                unit: "s",
                seconds,
                baseline: ("the rows indexed by hand", Sample(values: samples[0].values.map { $0 / 1e9 })),
                target: target.map { .atMost($0) },
                note: "\(states) states, \(shape == .own ? states + 1 : 1) events: read, compile, start, one event"
            )
            perState[name, default: []].append((states, seconds.median / Double(states)))
        }
        for (name, rows) in perState.sorted(by: { $0.key < $1.key }) {
            guard let first = rows.first, let last = rows.last else { continue }
            report.add(
                "\(name).growth",
                unit: "x",
                Sample(values: [last.seconds / first.seconds]),
                target: .atMost(2),
                note: "load time per state at \(last.states) states over that at \(first.states); 1.00 is linear"
            )
        }
        try report.addMemory(
            "scale.scxml.own-events.1000-states.session",
            probe: "scxml-session-1000-states",
            note: "a started session of the 1,000-state chart with 1,001 events, its document its own"
        )
        for format in Format.allCases {
            for (shape, states, target) in [(Shape.own, 10_000, 50.0), (.shared, 100_000, nil)] {
                let megabytes = try Harness.repeated(min(report.repetitions, 3)) {
                    try peakMegabytes(format, shape, states: states)
                }
                report.add(
                    "scale.\(format.rawValue).\(shape.rawValue)-events.\(states)-states.peak",
                    unit: "MB",
                    megabytes,
                    target: target.map { .atMost($0) },
                    note: "peak resident memory (VmHWM) of a fresh process that loads the chart"
                )
            }
        }
    }

    /// The loaded charts whose memory ``run(_:)`` reports, measured in a fresh process (see
    /// ``MemoryProbe``): a started session of the 1,000-state SCXML chart with an event per
    /// state, each with a document of its own (loaded, checked and compiled).
    static var memoryProbes: [MemoryProbe] {
        [
            MemoryProbe(name: "hierarchy.scxml-session-1000-states", count: 20) { count in
                let text = document(.scxml, .own, states: 1_000)
                return try (0..<count).map { _ in
                    let interpreter = SCXMLInterpreter(document: try SCXMLDocument(xml: text))
                    try interpreter.start()
                    return interpreter
                }
            }
        ]
    }

    /// The peak resident memory, in MB, of a fresh `Benchmarks scale-load` process.
    static func peakMegabytes(_ format: Format, _ shape: Shape, states: Int) throws -> Double {
        let arguments = ["scale-load", format.rawValue, shape.rawValue, String(states)]
        let data = try Harness.runFreshProcess(arguments)
        guard
            let kilobytes = Double(
                String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            )
        else {
            throw BenchmarkError(
                "\(arguments.joined(separator: " ")) printed no peak: \(String(decoding: data, as: UTF8.self))"
            )
        }
        return kilobytes / 1024
    }

    /// `Benchmarks scale-load scxml|json own|shared STATES`: loads the chart once and prints
    /// the process's peak resident memory in kB.
    static func loadInFreshProcess(_ arguments: [String]) throws {
        guard arguments.count == 3, let format = Format(rawValue: arguments[0]),
            let shape = Shape(rawValue: arguments[1]), let states = Int(arguments[2]), (3...1_000_000).contains(states)
        else {
            throw BenchmarkError("scale-load takes scxml|json, own|shared and a number of states from 3 to 1000000")
        }
        let text = document(format, shape, states: states)
        guard try load(format, text) == ["s1"] else { throw BenchmarkError("the \(states)-state chart broke") }
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int($0) })
        else {
            throw BenchmarkError("no VmHWM in /proc/self/status")
        }
        print(kilobytes)
    }
}
