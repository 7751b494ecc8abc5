import StateMachineDump

extension GlobalCommand {
    /// `dump`: the latest state of every live machine (`StateMachineDump`), under the
    /// header the original apps' Dump button prints.
    @MainActor public static let dump = GlobalCommand(CommandSpec("dump", "Print the state of every live machine")) {
        _ in
        let dump = DumpLines()
        await StateMachineDump.dumpAndWait { contexts in await dump.append(contexts.map(\.description)) }
        return (["----------------- DUMP -----------------"] + (await dump.lines)).joined(separator: "\n")
    }
}

/// Collects the dump's lines from its export closure.
private actor DumpLines {
    var lines: [String] = []
    func append(_ more: [String]) { lines += more }
}
