import Foundation

/// `swift run -c release Benchmarks [core|table|hierarchy|durable|soak|all] [--repetitions N]
/// [--filter TEXT] [--json PATH] [--soak-transitions N]`
///
/// Each figure is the median of N timed repetitions (default 9) with its spread, measured
/// against a baseline that does the same work by hand in the same process, and checked
/// against its target (MET or MISSED). `--json` also writes every figure to PATH.
///
/// `soak` runs every long-running path for 1,000,000 transitions in one machine
/// (`--soak-transitions N`, a whole number of thousands) and checks that the last tenth
/// costs no more than 1.2x the first and that memory grows by less than 1 MiB between the
/// end of the first tenth and the end (see `SoakBenchmarks`); it takes at most 3 of the N
/// repetitions. `all` runs it last.
///
/// `Benchmarks profile SCENARIO EVENTS` only runs a statechart scenario's events, untimed,
/// for an instruction counter (see `HierarchyBenchmarks.profile`).
///
/// Memory figures are measured in fresh processes of this executable, which it starts as
/// `Benchmarks memory-probe NAME` (see `MemoryProbe`).
let usage = """
    usage: Benchmarks [core|table|hierarchy|durable|soak|all] [--repetitions N] [--filter TEXT] [--json PATH]
                      [--soak-transitions N]
           Benchmarks profile \(HierarchyBenchmarks.profiles.map(\.name).joined(separator: "|")) EVENTS
           Benchmarks memory-probe \(MemoryProbe.all.map(\.name).joined(separator: "|"))
    """

let suites: [(name: String, run: (SuiteReport) async throws -> Void)] = [
    ("core", CoreBenchmarks.run),
    ("table", TableBenchmarks.run),
    ("hierarchy", HierarchyBenchmarks.run),
    ("durable", DurableBenchmarks.run),
    // Last: its logger scenarios replace the process's logger for good.
    ("soak", SoakBenchmarks.run),
]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Benchmarks: \(message)\n\(usage)\n".utf8))
    exit(2)
}

if CommandLine.arguments.dropFirst().first == "profile" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard arguments.count == 2 else { fail("profile takes a scenario and a number of events") }
    guard let profile = HierarchyBenchmarks.profiles.first(where: { $0.name == arguments[0] }) else {
        fail("unknown scenario '\(arguments[0])'")
    }
    guard let events = Int(arguments[1]), (1...100_000_000).contains(events) else {
        fail("the number of events is a whole number from 1 to 100000000, not '\(arguments[1])'")
    }
    try profile.run(events)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "postgresql-worker" {
    do {
        try await PostgreSQLBenchmarks.serveInThisProcess(Array(CommandLine.arguments.dropFirst(2)))
    } catch {
        fail("\(error)")
    }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "scale-load" {
    do {
        try ScaleBenchmarks.loadInFreshProcess(Array(CommandLine.arguments.dropFirst(2)))
    } catch {
        fail("\(error)")
    }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "memory-probe" {
    guard CommandLine.arguments.count == 3 else { fail("memory-probe takes a probe's name") }
    try await MemoryProbe.runChild(CommandLine.arguments[2])
    exit(0)
}

var options = BenchmarkOptions()
var requested: [String] = []
var arguments = CommandLine.arguments.dropFirst()[...]
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--repetitions", "--filter", "--json", "--soak-transitions":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
        switch argument {
        case "--repetitions":
            guard let count = Int(value), (1...1000).contains(count) else {
                fail("--repetitions takes a whole number from 1 to 1000, not '\(value)'")
            }
            options.repetitions = count
        case "--soak-transitions":
            let limit = 100_000_000
            guard let count = Int(value), (1...limit).contains(count), count % SoakPlan.granularity == 0 else {
                fail("--soak-transitions takes a whole number of thousands from 1000 to \(limit), not '\(value)'")
            }
            options.soakTransitions = count
        case "--filter": options.filter = value
        default: options.jsonPath = value
        }
    case let name where suites.contains { $0.name == name } || name == "all":
        requested.append(name)
    default:
        fail("unknown argument '\(argument)'")
    }
}
let selected = requested.isEmpty || requested.contains("all") ? suites : suites.filter { requested.contains($0.name) }

print("Benchmarks: medians of \(options.repetitions) repetitions [fastest–slowest], each after a warm-up")
if options.repetitions < 7 { print("note: fewer than 7 repetitions; medians are rough") }
var figures: [Figure] = []
for suite in selected {
    print("== \(suite.name) ==")
    let report = SuiteReport(suite.name, options: options)
    try await suite.run(report)
    figures += report.figures
}

let targeted = figures.filter { $0.met != nil }
let missed = targeted.filter { $0.met == false }
print("== \(targeted.count - missed.count) of \(targeted.count) targets MET ==")
for figure in missed {
    print("MISSED: \(figure.suite).\(figure.name) \(figure.sample.text) \(figure.unit), target \(figure.target ?? "")")
}

if let path = options.jsonPath {
    struct Archive: Encodable {
        let date: String
        let host: String
        let processors: Int
        let repetitions: Int
        let figures: [Figure]
    }
    let archive = Archive(
        date: Date().formatted(.iso8601),
        host: ProcessInfo.processInfo.hostName,
        processors: ProcessInfo.processInfo.activeProcessorCount,
        repetitions: options.repetitions,
        figures: figures
    )
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        try encoder.encode(archive).write(to: URL(fileURLWithPath: path))
        print("wrote \(figures.count) figures to \(path)")
    } catch {
        fail("cannot write \(path): \(error.localizedDescription)")
    }
}
