// SwiftStateMachine, licensed under the Apache License, Version 2.0 (see LICENSE at the
// repository's root). Copyright 2026 The SwiftStateMachine authors.
import Foundation
import PackagePlugin

/// Compiles each chart of a target, at build time, into a Swift file with a typed class
/// (see the "Charts as Swift" article of StateMachineSCXML): every `.scxml` file of the target's
/// folder, and every `.chart.json` file there (other JSON files are not charts). The charts are
/// the commands' inputs, so they are no unhandled files; a chart that does not load fails the
/// build at its line.
@main
struct ChartCompilerPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let compiler = try context.tool(named: "ChartCompiler")
        return target.sourceFiles.compactMap { file -> Command? in
            let url = file.url
            let name = url.lastPathComponent
            let stem: String
            if name.hasSuffix(".scxml") {
                stem = String(name.dropLast(".scxml".count))
            } else if name.hasSuffix(".chart.json") {
                stem = String(name.dropLast(".chart.json".count))
            } else {
                return nil
            }
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(stem + "+Chart.swift")
            return .buildCommand(
                displayName: "Compiling the chart \(url.lastPathComponent)",
                executable: compiler.url,
                arguments: [url.path, output.path],
                inputFiles: [url],
                outputFiles: [output]
            )
        }
    }
}
