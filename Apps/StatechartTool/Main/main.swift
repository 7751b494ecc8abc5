// `swift run statechart run|check|diagram ...`: runs, checks and draws statecharts
// (SCXML and the Statechart JSON format). See `StatechartTool.usage`.
import Foundation
import StatechartToolKit
import Terminal

let status = await StatechartTool.main(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    style: .standardOutput(environment: ProcessInfo.processInfo.environment),
    makeConsole: makeStandardConsole
)
exit(status)
