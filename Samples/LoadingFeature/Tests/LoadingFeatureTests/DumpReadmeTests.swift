import Foundation
import LoadingFeature
import StateMachineCore
import StateMachineDump
import Testing

/// The example of the README and of StateMachineDump's article "Dumping the machines' states",
/// compiled and run.
@Suite("README: StateMachineDump", .timeLimit(.minutes(1)))
struct DumpReadmeTests {
    @Test("collect, dump (printed and as JSON), stop")
    func readmeExample() async throws {
        let load: Load = { _ in
            try await Task.sleep(for: .seconds(3600))
            return Data()
        }
        let printed = PrintedLines()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("dump.json")

        StateMachineDump.startCollecting()  // enable the dump for every tracked state machine
        let asyncStateMachine = makeAsyncStateMachine(load: load).disableLog()
            .activateDump()  // will track: initial state, subsequent transitions, deinit
        await asyncStateMachine.sendAndWait(event: DidRequestLoading(id: "42"), until: .transitionCommitted)

        // The dump travels asynchronously: dump until the machine shows up as loading.
        var dumped = false
        while !dumped {
            await StateMachineDump.dumpAndWait { stateContexts in
                // here we can access all the states that are currently "alive"
                guard stateContexts.contains(where: { $0.state is DataIsLoading }) else { return }
                printed.print("----------------- DUMP -----------------")
                for context in stateContexts {
                    printed.print(context)  // "[FeatureState] DataIsLoading at 2026-11-29 12:00:00 +0000"
                }
                // we can export the data into a JSON file and store it for instance
                if let json = try? StateMachineDump.jsonData(of: stateContexts) {
                    try? json.write(to: file)
                }
            }
            dumped = !printed.lines.isEmpty
            await Task.yield()
        }
        StateMachineDump.dump { _ in }  // the fire-and-forget form

        StateMachineDump.stopCollecting()  // disable the dump for every tracked state machine

        #expect(printed.lines.first == "----------------- DUMP -----------------")
        #expect(printed.lines.dropFirst().first?.hasPrefix("[FeatureState] DataIsLoading at ") == true)
        let objects = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
        #expect(objects?.first?["stateType"] as? String == "LoadingFeature.DataIsLoading")
        #expect(objects?.first?["stateMachineId"] as? String == asyncStateMachine.id.uuidString)
        await asyncStateMachine.finishAndWait()
    }
}
