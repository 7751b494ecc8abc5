import StateMachineCore
import StateMachineDump
import Terminal

extension GlobalCommand {
    /// `dump`: the latest state of every live machine (`StateMachineDump`), under the
    /// header the original apps' Dump button prints.
    @MainActor public static let dump = dump(from: defaultDumpStateMachine)

    /// `dump`, from `dumpStateMachine` rather than the default one (a test's own).
    @MainActor public static func dump(from dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent>) -> GlobalCommand
    {
        GlobalCommand(CommandSpec("dump", "Print the state of every live machine")) { _ in
            let dump = DumpLines()
            await StateMachineDump.dumpAndWait(dumpStateMachine: dumpStateMachine) { contexts in
                await dump.append(contexts.map(\.description))
            }
            return (["----------------- DUMP -----------------"] + (await dump.lines)).joined(separator: "\n")
        }
    }
}

/// Collects the dump's lines from its export closure.
private actor DumpLines {
    var lines: [String] = []
    func append(_ more: [String]) { lines += more }
}
