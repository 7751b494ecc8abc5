// `swift run CaseStudies [--delay-scale FACTOR] [--log]`: the CaseStudies sample app in a
// terminal. See `CaseStudiesApp.usage`.
import CaseStudiesScreens
import Foundation
import StateMachineDump
import Terminal

let environment = ProcessInfo.processInfo.environment
switch CaseStudiesApp.parse(Array(CommandLine.arguments.dropFirst()), environment: environment) {
case .failure(let error):
    FileHandle.standardError.write(Data("CaseStudies: \(error.message)\n\n\(CaseStudiesApp.usage)\n".utf8))
    exit(2)
case .success(let options) where options.help:
    print(CaseStudiesApp.usage)
case .success(let options):
    StateMachineDump.startCollecting()
    let console = makeStandardConsole()
    let app = CaseStudiesApp.make(
        options: options,
        console: console,
        style: .standardOutput(environment: environment)
    )
    let status = await app.run()
    exit(status)
}
