import Foundation
import StateMachineDurable
import StateMachineHierarchy
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A store that cannot do what it is asked gives a clear error and loses nothing.
@Suite("Durable machines: faults", .serialized, .timeLimit(.minutes(2)))
struct FaultTests {
    typealias Echo = Statechart<String, String, String>

    /// A chart that flips between two states on every `ping`, whose payload fills the journal.
    static func echo() throws -> DurableStatechart<String, String, String> {
        try DurableStatechart<String, String, String>(version: "1") { _ in
            Echo.Definition(name: "echo") {
                Echo.State("tick").on("ping", to: "tock")
                Echo.State("tock").on("ping", to: "tick")
            }
        }
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("a file that is not a database is refused as corrupt, and left as it was")
    func notADatabase() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/m.sqlite"
            let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
            FileManager.default.createFile(atPath: path, contents: garbage)
            #expect {
                _ = try SQLiteStore(path: path)
            } throws: { error in
                guard case DurableError.corrupt(let where_, _) = error else { return false }
                return where_ == path && "\(error)".contains("not a valid store")
            }
            #expect(Self.bytes(path) == garbage)
        }
    }

    @Test("a truncated store fails with a corrupt error when read, and is not written")
    func truncated() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/m.sqlite"
            do {
                let store = try SQLiteStore(path: path, clock: .manual)
                let echo = try await store.open("echo", try Self.echo())
                for index in 0..<400 { try await echo.send(.init("ping", payload: String(repeating: "x", count: 200 + index))) }
                await echo.close()
            }
            // The store is closed (its connection checkpointed the WAL into the file).
            let whole = try #require(Self.bytes(path))
            #expect(whole.count > 64 * 1024)
            let half = whole.prefix(whole.count / 2)
            try half.write(to: URL(fileURLWithPath: path))
            await #expect {
                let store = try SQLiteStore(path: path, clock: .manual)
                _ = try await store.journal(of: "echo")
            } throws: { error in
                guard case DurableError.corrupt = error else { return false }
                return true
            }
            #expect(Self.bytes(path) == half)
        }
    }

    @Test("a store opened read-only can be inspected; opening a machine in it fails clearly")
    func readOnly() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/m.sqlite"
            do {
                let store = try SQLiteStore(path: path, clock: .manual)
                let echo = try await store.open("echo", try Self.echo())
                try await echo.send(.init("ping"))
                await echo.close()
            }
            let readOnly = try SQLiteStore(path: path, mode: .readOnly, clock: .manual)
            await #expect {
                _ = try await readOnly.open("echo", try Self.echo())
            } throws: { error in
                guard case DurableError.readOnly(let where_, _) = error else { return false }
                return where_ == path && "\(error)".contains("read-only")
            }
            #expect(try await readOnly.journal(of: "echo").count == 1)
            let stored = try #require(try await readOnly.inspect("echo"))
            #expect(stored.lastSequence == 1)
            let store = try SQLiteStore(path: path, clock: .manual)
            let echo = try await store.open("echo", try Self.echo())
            #expect(await echo.state == ["tock"])
            await echo.close()
        }
    }

    @Test("a full store rolls the commit back: the machine stays at its last committed state")
    func full() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/m.sqlite"
            let store = try SQLiteStore(path: path, clock: .manual, maxPageCount: 24)
            let echo = try await store.open("echo", try Self.echo())
            var committed = 0
            var failure: (any Error)?
            while failure == nil, committed < 1000 {
                do {
                    try await echo.send(.init("ping", payload: String(repeating: "y", count: 3000)))
                    committed += 1
                } catch {
                    failure = error
                }
            }
            let error = try #require(failure)
            guard case DurableError.full(let where_, _) = error else {
                Issue.record("expected a full store, got \(error)")
                return
            }
            #expect(where_ == path)
            #expect(committed > 0)
            let expected = committed.isMultiple(of: 2) ? ["tick"] : ["tock"]
            #expect(await echo.state == expected)
            await echo.close()
            let reopened = try SQLiteStore(path: path, clock: .manual)
            let again = try await reopened.open("echo", try Self.echo())
            #expect(await again.state == expected)
            #expect(try await reopened.journal(of: "echo").count == committed)
            try await again.send(.init("ping"))
            await again.close()
        }
    }

    @Test("a machine another live process has open is refused, naming it; once it is killed, it is taken over")
    func twoProcesses() async throws {
        signal(SIGPIPE, SIG_IGN)
        try await withTemporaryFolder { folder in
            let path = folder + "/m.sqlite"
            let worker = try WorkerProcess(arguments: ["table", path, folder + "/effects.txt"])
            worker.write("1 send coin\n", closing: false)
            #expect(await within(seconds: 60, "the worker's first acknowledgement") { await worker.waitForAcknowledgement(of: 1) } != nil)
            let store = try SQLiteStore(path: path, clock: .manual)
            await #expect {
                _ = try await store.open("machine", try Self.echo())
            } throws: { error in
                guard case DurableError.machineInUse(let key, let owner) = error else { return false }
                return key == "machine" && owner.contains(":\(worker.processIdentifier):")
            }
            worker.kill()
            await worker.waitForExit()
            let stored = try #require(try await store.claim("machine", identity: DefinitionIdentity(version: "x", fingerprint: "y")))
            #expect(stored.lastSequence == 1)
            #expect(String(decoding: stored.state, as: UTF8.self) == "\"unlocked\"")
            await store.release("machine")
        }
    }
}
