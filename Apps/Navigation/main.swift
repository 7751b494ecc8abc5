// `swift run Navigation [--state FILE] [--delay-scale FACTOR] [--seed N] [--log] [DEEPLINK]`:
// the Navigation sample app (tabs, stacks, a sheet and deep links) in a terminal. See
// `NavigationApp.usage`.
import Foundation
import NavigationScreens
import StateMachineDump
import Terminal
import TerminalMachines

let environment = ProcessInfo.processInfo.environment
switch NavigationApp.parse(Array(CommandLine.arguments.dropFirst()), environment: environment) {
case .failure(let error):
    FileHandle.standardError.write(Data("Navigation: \(error.message)\n\n\(NavigationApp.usage)\n".utf8))
    exit(2)
case .success(let options) where options.help:
    print(NavigationApp.usage)
case .success(let options):
    // The state file is opened before the console starts (readline takes the terminal), and
    // one that cannot be used ends the run with status 1, as a file the app cannot read does.
    let stateFile: StateFile<NavigationLocation>?
    do {
        stateFile = try await NavigationApp.openStateFile(options)
    } catch {
        FileHandle.standardError.write(Data("Navigation: \(error)\n".utf8))
        exit(1)
    }
    StateMachineDump.startCollecting()
    let status = await NavigationApp.run(
        options: options,
        console: makeStandardConsole(),
        style: .standardOutput(environment: environment),
        stateFile: stateFile
    )
    await stateFile?.close()
    exit(status)
}
