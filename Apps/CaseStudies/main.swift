// `swift run CaseStudies [--state FILE] [--delay-scale FACTOR] [--seed N] [--log]`: the
// CaseStudies sample app in a terminal. See `CaseStudiesApp.usage`.
import CaseStudiesScreens
import Foundation
import StateMachineDump
import Terminal
import TerminalMachines

let environment = ProcessInfo.processInfo.environment
switch CaseStudiesApp.parse(Array(CommandLine.arguments.dropFirst()), environment: environment) {
case .failure(let error):
    FileHandle.standardError.write(Data("CaseStudies: \(error.message)\n\n\(CaseStudiesApp.usage)\n".utf8))
    exit(2)
case .success(let options) where options.help:
    print(CaseStudiesApp.usage)
case .success(let options):
    // The state file is opened before the console starts (readline takes the terminal), and
    // one that cannot be used ends the run with status 1, as a file the app cannot read does.
    let stateFile: StateFile<KeptCaseStudies>?
    do {
        stateFile = try await CaseStudiesApp.openStateFile(options)
    } catch {
        FileHandle.standardError.write(Data("CaseStudies: \(error)\n".utf8))
        exit(1)
    }
    StateMachineDump.startCollecting()
    let console = makeStandardConsole()
    let app = CaseStudiesApp.make(
        options: options,
        console: console,
        style: .standardOutput(environment: environment),
        stateFile: stateFile
    )
    let status = await app.run()
    await stateFile?.close()
    exit(status)
}
