import Foundation

/// `swift run -c release Benchmarks [core|table|hierarchy|all]`
///
/// Each suite prints its figures as ratios against a baseline measured in the same run.
let suites: [(name: String, run: () async throws -> Void)] = [
    ("core", CoreBenchmarks.run),
    ("table", TableBenchmarks.run),
    ("hierarchy", HierarchyBenchmarks.run),
]

let requested = CommandLine.arguments.dropFirst().first ?? "all"
let selected = requested == "all" ? suites : suites.filter { $0.name == requested }
if selected.isEmpty {
    let names = (suites.map(\.name) + ["all"]).joined(separator: "|")
    FileHandle.standardError.write("unknown suite '\(requested)'; usage: Benchmarks [\(names)]\n".data(using: .utf8)!)
    exit(2)
}
for suite in selected {
    print("== \(suite.name) ==")
    try await suite.run()
}
