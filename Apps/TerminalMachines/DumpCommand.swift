import StateMachineCore
import StateMachineDump
import Terminal

extension GlobalCommand {
    /// `dump`: the latest state of every live machine (`StateMachineDump`), under the
    /// header the original apps' Dump button prints, each with the time it was recorded.
    @MainActor public static let dump = dump(from: defaultDumpStateMachine)

    /// `dump`, from `dumpStateMachine` rather than the default one (a test's own).
    /// `showsTime` false leaves out the wall-clock time of each state and sorts the lines
    /// (machines that start together are first seen in any order), so that the same piped
    /// input always prints the same output.
    @MainActor public static func dump(
        from dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent>,
        showsTime: Bool = true
    ) -> GlobalCommand {
        GlobalCommand(CommandSpec("dump", "Print the state of every live machine")) { _ in
            let dump = DumpLines()
            await StateMachineDump.dumpAndWait(dumpStateMachine: dumpStateMachine) { contexts in
                await dump.append(contexts.map { showsTime ? $0.description : timeless($0) })
            }
            let lines = showsTime ? await dump.lines : await dump.lines.sorted()
            let body = lines.isEmpty ? ["No machine runs yet: open a screen, and its machines appear here."] : lines
            return (["----------------- DUMP -----------------"] + body).joined(separator: "\n")
        }
    }
}

/// `[SuperState] state`: a context's description without its time.
private func timeless(_ context: StateContext) -> String {
    let superState = context.superStateType.split(separator: ".").last.map(String.init) ?? context.superStateType
    return "[\(superState)] \(context.state)"
}

/// Collects the dump's lines from its export closure.
private actor DumpLines {
    var lines: [String] = []
    func append(_ more: [String]) { lines += more }
}
