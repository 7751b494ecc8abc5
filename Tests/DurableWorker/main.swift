// The process the kill -9 tests of durable machines kill (Tests/StateMachineDurableTests/
// KillTests.swift): opens one machine of the form named on the command line from a store,
// applies the script lines it reads from standard input, acknowledges each on standard
// output once it is committed, and appends every delivered effect to a file. STORE is a
// SQLite file's path, or `postgresql:SCHEMA|CONNECTION` for a PostgreSQL store.
//
//   DurableWorker FORM STORE EFFECTS [full|normal]
//   DurableWorker serve CONNECTION EFFECTS SCHEMA [POLL_MS]
//
// The second form (Tests/StateMachinePostgreSQLTests) serves the Core tally machines of a
// PostgreSQL store with a MachineWorker, on the store's manual clock, until its standard input
// closes: it prints `ready` once serving, `connection lost: …` and `connection restored` as
// its store reports them, and `failure MACHINE: …` for a machine it cannot open or drive.
//
// Input lines: `INDEX send EVENT` (sent with the idempotency key `eINDEX`), `INDEX clock NS`
// (the store's manual clock moved to NS) and `dump` (prints `state STATE`, delivers the
// effects still pending, closes the machine and exits). Each script line is acknowledged
// with `ok INDEX`.
import Foundation
import StateMachineCore
import StateMachineDurable
import StateMachineDurableSCXML
import StateMachineHierarchy
import StateMachinePostgreSQL
import StateMachineTable

let arguments = CommandLine.arguments
if arguments.count >= 5, arguments[1] == "serve" {
    await serve(
        connection: arguments[2],
        schema: arguments[4],
        pollMilliseconds: arguments.count > 5 ? Int(arguments[5]) ?? 20 : 20
    )
    exit(0)
}
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: DurableWorker FORM STORE EFFECTS [full|normal]\n".utf8))
    exit(2)
}
let (formName, storePath) = (arguments[1], arguments[2])
let synchronous: SQLiteStore.Synchronous = arguments.count > 4 && arguments[4] == "full" ? .full : .normal

/// Writes `line` and a newline to standard output, unbuffered.
@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Appends a line for `effect` to the effects file in one write (O_APPEND: lines never interleave).
@Sendable func deliver(_ effect: DeliveredEffect) {
    let line = "\(effect.key) \(effect.name) \(String(decoding: effect.payload, as: UTF8.self))\n"
    let effectsPath = CommandLine.arguments[3]
    let descriptor = open(effectsPath, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else { fatalError("cannot open \(effectsPath)") }
    _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    close(descriptor)
}

/// One kind of machine, driven by script lines.
protocol Driver {
    func send(_ event: String, key: String) async throws
    func state() async -> String
    func close() async
}

struct MachineDriver<Form: DurableForm>: Driver {
    let machine: DurableMachine<Form>
    let parse: @Sendable (String) -> Form.Event
    let describe: @Sendable (Form.State) -> String

    func send(_ event: String, key: String) async throws { try await machine.send(parse(event), idempotencyKey: key) }
    func state() async -> String { describe(await machine.state) }
    // Delivers the effects still pending first: `close()` leaves them in the store for the
    // next open, and the run's last worker has no next open.
    func close() async {
        await machine.settle()
        await machine.close()
    }
}

let store: any DurableStore
if storePath.hasPrefix("postgresql:"), let bar = storePath.firstIndex(of: "|") {
    let schema = String(storePath[storePath.index(storePath.startIndex, offsetBy: 11)..<bar])
    store = try await PostgreSQLStore(
        connection: String(storePath[storePath.index(after: bar)...]),
        schema: schema,
        clock: .manual
    )
} else {
    store = try SQLiteStore(path: storePath, synchronous: synchronous, clock: .manual)
}
/// Opens the machine; on PostgreSQL, waits (up to 10 s) for the session of a killed
/// predecessor to end, which releases its claim.
func opened<Form: DurableForm>(_ form: Form) async throws -> DurableMachine<Form> {
    let deadline = ContinuousClock.now + .seconds(10)
    while true {
        do {
            return try await store.open("machine", form)
        } catch DurableError.machineInUse where ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

let driver: any Driver = try await {
    switch formName {
    case "table":
        return MachineDriver(
            machine: try await opened(WorkerForms.table()),
            parse: { WorkerForms.Input(rawValue: $0)! },
            describe: { $0.rawValue }
        )
    case "core":
        return MachineDriver(
            machine: try await opened(WorkerForms.core()),
            parse: WorkerForms.coreEvent,
            describe: { "\($0)" }
        )
    case "chart":
        return MachineDriver(
            machine: try await opened(try WorkerForms.chart()),
            parse: { .init($0) },
            describe: { $0.joined(separator: ",") }
        )
    case "json":
        return MachineDriver(
            machine: try await opened(try WorkerForms.json()),
            parse: { .init($0) },
            describe: { $0.joined(separator: ",") }
        )
    case "scxml":
        return MachineDriver(
            machine: try await opened(try WorkerForms.scxml()),
            parse: { .init($0) },
            describe: { state in
                let variables = state.variables.keys.sorted().map {
                    "\($0)=\(state.variables[$0].map { "\($0)" } ?? "")"
                }
                return (state.configuration + variables).joined(separator: ",")
            }
        )
    default:
        FileHandle.standardError.write(Data("DurableWorker: unknown form '\(formName)'\n".utf8))
        exit(2)
    }
}()

while let line = readLine() {
    let parts = line.split(separator: " ").map(String.init)
    if parts == ["dump"] {
        say("state \(await driver.state())")
        await driver.close()
        exit(0)
    }
    guard parts.count == 3 else { fatalError("malformed script line '\(line)'") }
    switch parts[1] {
    case "send": try await driver.send(parts[2], key: "e\(parts[0])")
    case "clock": try await store.advanceClock(to: Int64(parts[2])!)
    default: fatalError("malformed script line '\(line)'")
    }
    say("ok \(parts[0])")
}
