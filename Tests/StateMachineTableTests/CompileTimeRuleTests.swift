import Foundation
import TestSupport
import Testing

/// "What must not compile must not compile": each statement the README marks ⛔️ is
/// type-checked against the built `StateMachineTable` module with `swiftc` and must be
/// rejected, while a control file of the README's ✅ forms must be accepted (so the
/// rejections are not a broken setup).
@Suite("Compile-time rules of the table language")
struct CompileTimeRuleTests {
    static let prelude = """
        import StateMachineTable
        enum S: FSMHashable { case locked, unlocked, alarming }
        enum E: FSMHashable { case coin, pass }
        enum P: Predicate { case a, b }
        enum Q: Predicate { case a, b }
        func action() {}
        let something = true

        """

    /// One table author per snippet, so the snippets can share one `swiftc` run.
    static func file(_ name: String, _ body: String) -> String {
        """
        import StateMachineTable

        struct \(name): ExpandedSyntaxBuilder {
            typealias State = S
            typealias Event = E
            let fsm = FSM<S, E>(initialState: .locked)
            func build() throws {
                try fsm.buildTable {
        \(body)
                }
            }
        }

        """
    }

    static let rejected: [(name: String, body: String)] = [
        (
            "IfElse",
            "define(.locked) { if something { when(.pass) | then(.unlocked) } else { when(.pass) | then(.alarming) } }"
        ),
        ("OrAcrossTypes", "define(.locked) { matching(P.a, or: Q.a) | when(.coin) | then(.unlocked) }"),
        ("WhenInWhenBlock", "define(.locked) { when(.coin) { when(.pass) { } } }"),
        ("WhenPipeInWhenBlock", "define(.locked) { when(.coin) { when(.pass) | then(.unlocked) } }"),
        (
            "MatchingWhenInWhenBlock",
            "define(.locked) { when(.coin) { matching(P.a) | when(.pass) | then(.unlocked) } }"
        ),
        ("WhenInMatchingInWhen", "define(.locked) { when(.coin) { matching(P.a) { when(.pass) | then(.unlocked) } } }"),
        ("ThenInThenBlock", "define(.locked) { then(.unlocked) { then(.locked) { } } }"),
        ("ThenPipeInThenBlock", "define(.locked) { then(.unlocked) { when(.coin) | then(.locked) | action } }"),
        ("MatchingThenInThenBlock", "define(.locked) { then(.unlocked) { matching(P.a) | then(.locked) | action } }"),
        ("TwoThensInWhenBlock", "define(.locked) { when(.coin) { then(.unlocked) | action } }"),
        ("BlockAfterPipe", "define(.locked) { when(.coin) | then(.unlocked) { } }"),
        ("ActionsBlockAfterPipe", "define(.locked) { when(.coin) | then(.unlocked) | actions(action) { } }"),
        ("MatchingWhenBlockAfterPipe", "define(.locked) { matching(P.a) | when(.coin) { } }"),
        ("ActionsOutsideDefine", "actions(action) { }"),
        ("ThenPipeAction", "define(.locked) { then(.locked) | action }"),
        ("WhenBeforeMatching", "define(.locked) { when(.coin) | matching(P.a) | then(.locked) | action }"),
    ]

    /// README "subtleties": `FSM.OnMainActor` needs the main actor (or an `await`).
    static let rejectedOutsideTables: [(name: String, code: String)] = [
        (
            "OnMainActorInNonisolatedSync",
            """
            import StateMachineTable
            final class MyNonIsolatedClass {
                func myMethod() { _ = FSM<Int, Int>.OnMainActor(initialState: 1) }
            }
            """
        ),
        (
            "OnMainActorInActorSync",
            """
            import StateMachineTable
            actor MyCustomActor {
                func myMethod() { _ = FSM<Int, Int>.OnMainActor(initialState: 1) }
            }
            """
        ),
    ]

    static let acceptedOutsideTables = """
        import StateMachineTable
        @MainActor final class MyMainActorClass {
            func myMethod() {
                _ = FSM<Int, Int>(initialState: 1)
                _ = FSM<Int, Int>.OnMainActor(initialState: 1)
            }
            func myAsyncMethod() async { _ = FSM<Int, Int>.OnMainActor(initialState: 1) }
        }
        final class MyNonIsolatedClass {
            func myMethod() { _ = FSM<Int, Int>(initialState: 1) }
            func myAsyncMethod() async { _ = await FSM<Int, Int>.OnMainActor(initialState: 1) }
            @MainActor func myMainActorMethod() { _ = FSM<Int, Int>.OnMainActor(initialState: 1) }
        }
        actor MyCustomActor {
            func myMethod() { _ = FSM<Int, Int>(initialState: 1) }
            func myAsyncMethod() async { _ = await FSM<Int, Int>.OnMainActor(initialState: 1) }
        }
        """

    static let accepted = """
        define(.locked) {
            when(.coin) {
                matching(P.a) | then(.unlocked) | action
                matching(P.b) | then(.locked) | action
            }
            then(.alarming) {
                when(.pass) {
                    matching(P.a) | action
                }
            }
            matching(P.a) {
                matching(Q.a) | when(.pass) | then(.unlocked)
                actions(action) {
                    when(.coin) | then(.locked)
                }
            }
            condition({ true }) | when(.pass) | then(.locked)
        }
        """

    @Test("Each README ⛔️ statement is rejected by the compiler; the ✅ forms are accepted", .timeLimit(.minutes(5)))
    func compileTimeRules() async throws {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        let modules = testBinary.deletingLastPathComponent().appendingPathComponent("Modules")
        try #require(
            FileManager.default.fileExists(
                atPath: modules.appendingPathComponent("StateMachineTable.swiftmodule").path
            ),
            "built module not found next to \(testBinary.path)"
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "table-rules-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        func write(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent("\(name).swift")
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let prelude = try write("Prelude", Self.prelude)
        // StateMachineSupport's C module (it starts `dot`), whose map SwiftPM wrote.
        let cSpawn =
            "-fmodule-map-file=" + testBinary.deletingLastPathComponent().path + "/CSpawn.build/module.modulemap"

        // One compiler run per file: the compiler stops at the first file with errors.
        // `runPiped` waits for the compiler on a thread of its own: a test that held a
        // cooperative thread for the minute these runs take would stall every async test.
        func errors(in name: String, _ body: String, wrapped: Bool = true) async throws -> String {
            let path = try write(name, wrapped ? Self.file(name, body) : body)
            let (_, text) = try await runPiped(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, "-Xcc", cSpawn, prelude, path],
                input: "",
                seconds: 120
            )
            return text.split(separator: "\n").filter { $0.contains(": error:") }.joined(separator: "\n")
        }

        let accepted = try await errors(in: "Accepted", Self.accepted)
        #expect(accepted.isEmpty, "the README's valid forms must compile: \(accepted)")
        for snippet in Self.rejected {
            let found = try await errors(in: snippet.name, snippet.body)
            #expect(!found.isEmpty, "compiled but must not: \(snippet.body)")
            #expect(!found.contains("Prelude.swift"), "\(found)")
        }
        let acceptedOutside = try await errors(in: "AcceptedOutsideTables", Self.acceptedOutsideTables, wrapped: false)
        #expect(acceptedOutside.isEmpty, "the README's valid OnMainActor uses must compile: \(acceptedOutside)")
        for snippet in Self.rejectedOutsideTables {
            let found = try await errors(in: snippet.name, snippet.code, wrapped: false)
            #expect(!found.isEmpty, "compiled but must not: \(snippet.code)")
        }
    }
}
