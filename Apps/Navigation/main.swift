// `swift run Navigation [--delay-scale FACTOR] [--seed N] [--log] [DEEPLINK]`: the Navigation
// sample app (tabs, stacks, a sheet and deep links) in a terminal. See `NavigationApp.usage`.
import Foundation
import NavigationScreens
import StateMachineDump
import Terminal

let environment = ProcessInfo.processInfo.environment
switch NavigationApp.parse(Array(CommandLine.arguments.dropFirst()), environment: environment) {
case .failure(let error):
    FileHandle.standardError.write(Data("Navigation: \(error.message)\n\n\(NavigationApp.usage)\n".utf8))
    exit(2)
case .success(let options) where options.help:
    print(NavigationApp.usage)
case .success(let options):
    StateMachineDump.startCollecting()
    let status = await NavigationApp.run(
        options: options,
        console: makeStandardConsole(),
        style: .standardOutput(environment: environment)
    )
    exit(status)
}
