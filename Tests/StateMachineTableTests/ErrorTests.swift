import StateMachineTable
import Testing

/// Every error the README lists, thrown by `buildTable` with the statements and lines at fault.
@Suite("Errors: each README error, with the offending statements' file and line")
struct ErrorTests: TurnstileTable {
    let recorder = Recorder()
    let fsm = FSM<TurnstileState, TurnstileEvent>(initialState: .locked)

    /// The problems `build` throws, failing the test if it throws nothing else.
    func problems(_ build: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> [any TableProblem] {
        do {
            try build()
            Issue.record("the table built without errors", sourceLocation: sourceLocation)
        } catch let error as SwiftFSMError {
            return error.errors
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
        return []
    }

    func at(_ line: Int) -> String { "ErrorTests.swift:\(line)" }

    @Test("Empty table")
    func emptyTable() throws {
        let line = #line + 1
        let errors = problems { try fsm.buildTable {} }
        let error = try #require(errors.first as? EmptyTableError)
        #expect(errors.count == 1)
        #expect(error.location.line == line)
        #expect("\(error)" == "Empty table: buildTable at \(at(line)) defines no states.")
    }

    @Test("Empty blocks: define, when, then, matching, actions, overriding, condition")
    func emptyBlocks() throws {
        let line = #line + 3
        let errors = problems {
            try fsm.buildTable {
                let empty = SuperState(onEntry: unlock*) { overriding {} }
                define(.locked) {}
                define(.unlocked, adopts: empty) {
                    when(.coin) {}
                    then(.locked) {}
                    matching(A.x) {}
                    actions(unlock) {}
                    overriding {}
                    condition({ true }) {}
                }
            }
        }
        let blocks = errors.compactMap { $0 as? EmptyBlockError }
        #expect(errors.count == blocks.count)
        let names = blocks.map { $0.block }
        #expect(
            names == [
                "define(locked)", "overriding", "when(coin)", "then(locked)", "matching", "actions", "overriding",
                "condition",
            ]
        )
        let lines: [Int] = blocks.map { $0.location.line - line }
        #expect(lines == [1, 0, 3, 4, 5, 6, 7, 8])
        #expect("\(blocks[0])" == "Empty block: define(locked) at \(at(line + 1)) has no statements.")
    }

    @Test("Duplicate transitions name both statements and their lines")
    func duplicates() throws {
        let line = #line + 4
        let errors = problems {
            try fsm.buildTable {
                define(.locked) {
                    when(.coin) | then(.unlocked) | unlock
                    when(.coin) | then(.unlocked) | lock
                }
            }
        }
        let error = try #require(errors.first as? DuplicatesError)
        #expect(errors.count == 1)
        #expect(error.statements.map(\.location.line) == [line, line + 1])
        #expect(error.statements.allSatisfy { $0.defineLocation.line == line - 1 })
        #expect(
            "\(error)" == """
                Duplicate transitions: same state, predicates, event and next state:
                    define(locked) { when(coin) | then(unlocked) } at \(at(line)) (define at \(at(line - 1)))
                    define(locked) { when(coin) | then(unlocked) } at \(at(line + 1)) (define at \(at(line - 1)))
                """
        )
    }

    @Test("Logical clash: same trigger, different next states")
    func logicalClash() throws {
        let line = #line + 4
        let errors = problems {
            try fsm.buildTable {
                define(.locked) {
                    when(.coin) | then(.unlocked) | unlock
                    when(.coin) | then(.locked) | lock
                }
            }
        }
        let error = try #require(errors.first as? ClashError)
        #expect(errors.count == 1)
        #expect(error.statements.map(\.nextState) == ["unlocked", "locked"])
        #expect(error.statements.map(\.location.line) == [line, line + 1])
        #expect("\(error)".hasPrefix("Logical clash: same state, predicates and event, different next states:"))
        #expect("\(error)".contains("define(locked) { when(coin) | then(locked) } at \(at(line + 1))"))
    }

    @Test("Conditions cannot tell rows apart: two conditional rows with one trigger clash")
    func conditionClash() throws {
        let errors = problems {
            try fsm.buildTable {
                define(.locked) {
                    when(.coin) {
                        condition { true } | then(.unlocked) | unlock
                        condition { false } | then(.locked) | lock
                    }
                }
            }
        }
        #expect(errors.count == 1)
        #expect(errors.first is ClashError)
    }

    @Test("A transition clashing with an inherited one, in a SuperState or a define")
    func inheritedClash() throws {
        let line = #line + 3
        let errors = problems {
            try fsm.buildTable {
                let s1 = SuperState { when(.coin) | then(.unlocked) | unlock }
                let s2 = SuperState(adopts: s1) {
                    when(.coin) | then(.locked) | beGrumpy  // 💥 error: clashing transitions
                }
                define(.locked, adopts: s1) {
                    when(.coin) | then(.locked) | beGrumpy  // 💥 error: clashing transitions
                }
                define(.unlocked, adopts: s2)
            }
        }
        let clashes = errors.compactMap { $0 as? ClashError }
        #expect(errors.count == 2)
        #expect(clashes.map { $0.statements.map(\.location.line) } == [[line, line + 5], [line, line + 2]])
    }

    @Test("Overriding in the same block is a duplicate: there is nothing inherited to override")
    func overrideInSameBlock() throws {
        let errors = problems {
            try fsm.buildTable {
                define(.locked) {
                    when(.coin) | then(.locked) | named("doSomething")
                    overriding {
                        when(.coin) | then(.locked) | named("doSomethingElse")
                    }
                }
            }
        }
        #expect(errors.count == 1)
        #expect(errors.first is DuplicatesError)
    }

    @Test("Nothing to override")
    func nothingToOverride() throws {
        let line = #line + 5
        let errors = problems {
            try fsm.buildTable {
                define(.locked) {
                    overriding {
                        when(.coin) | then(.locked) | beGrumpy  // 💥 error: nothing to override
                    }
                }
            }
        }
        let error = try #require(errors.first as? NothingToOverrideError)
        #expect(errors.count == 1)
        #expect(error.statement.location.line == line)
        #expect("\(error)".contains("Nothing to override"))
        #expect("\(error)".contains(at(line)))
    }

    @Test("Overrides out of order: the override is in the parent, the plain row in the child")
    func overridesOutOfOrder() throws {
        let line = #line + 5
        let errors = problems {
            try fsm.buildTable {
                let s1 = SuperState {
                    overriding {
                        when(.coin) | then(.locked) | beGrumpy
                    }
                }
                let s2 = SuperState(adopts: s1) { when(.coin) | then(.unlocked) | unlock }
                define(.locked, adopts: s2)
            }
        }
        let outOfOrder = try #require(errors.compactMap { $0 as? OverrideOutOfOrderError }.first)
        #expect(outOfOrder.override.location.line == line)
        #expect(outOfOrder.later.map(\.location.line) == [line + 3])
        #expect("\(outOfOrder)".hasPrefix("Overrides out of order"))
    }

    @Test("Implicit clash between predicates of different types")
    func implicitClash() throws {
        let line = #line + 4
        let errors = problems {
            try fsm.buildTable {
                define(.locked) {
                    matching(Enforcement.weak) | when(.coin) | then(.unlocked)
                    matching(Reward.negative) | when(.coin) | then(.locked)
                }
            }
        }
        let error = try #require(errors.first as? ImplicitClashError)
        #expect(errors.count == 1)
        #expect(error.combination == ["Enforcement.weak", "Reward.negative"])
        #expect(error.statements.map(\.location.line) == [line, line + 1])
        #expect(error.statements.map(\.predicates) == [["Enforcement.weak"], ["Reward.negative"]])
        #expect("\(error)".contains("both transitions apply when Enforcement.weak and Reward.negative"))
    }

    @Test("A more specific row covering the overlap removes the implicit clash", arguments: bothHandlings)
    func implicitClashCovered(type: Handling) async throws {
        let fsm = FSM<State, Event>(type: type, initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                matching(Enforcement.weak) | when(.coin) | then(.unlocked)
                matching(Reward.negative) | when(.coin) | then(.locked)
                matching(Enforcement.weak, and: Reward.negative) | when(.coin) | then(.alarming)
            }
        }
        await fsm.handleEvent(.coin, predicates: Enforcement.weak, Reward.negative)
        #expect(fsm.state == .alarming)
    }

    @Test("Matching errors in one statement: A.x AND A.y, duplicate predicates")
    func matchingStatementErrors() throws {
        let line = #line + 4
        let errors = problems {
            try fsm.buildTable {
                define(.locked) {
                    matching(A.x, and: A.y) | when(.coin) | then(.unlocked)
                    matching(A.x, and: A.x) | when(.pass) | then(.unlocked)
                    matching(A.x, or: A.x) | when(.reset) | then(.unlocked)
                }
            }
        }
        #expect(errors.count == 3)
        let conflict = try #require(errors.first as? ConflictingPredicatesError)
        #expect(conflict.predicates == ["A.x", "A.y"])
        #expect(conflict.locations.map(\.line) == [line])
        #expect("\(conflict)" == "Matching error: cannot match A.x AND A.y simultaneously at \(at(line))")
        let duplicates = errors.dropFirst().compactMap { $0 as? DuplicatePredicateError }
        #expect(duplicates.map(\.predicate) == ["A.x", "A.x"])
        #expect(duplicates.map { $0.locations.map(\.line) } == [[line + 1], [line + 2]])
    }

    @Test("Matching errors across nested blocks")
    func nestedMatchingErrors() throws {
        let line = #line + 4
        let errors = problems {
            try fsm.buildTable {
                define(.locked) {
                    matching(A.x, or: A.y) {
                        matching(A.z) | when(.coin) | then(.unlocked)
                    }
                    matching(A.x, and: B.x) {
                        matching(A.x) | when(.pass) | then(.unlocked)
                    }
                }
            }
        }
        let conflicts = errors.compactMap { $0 as? ConflictingPredicatesError }
        #expect(conflicts.map(\.predicates) == [["A.x", "A.z"], ["A.y", "A.z"]])
        #expect(conflicts.allSatisfy { $0.locations.map(\.line) == [line, line + 1] })
        let duplicate = try #require(errors.compactMap { $0 as? DuplicatePredicateError }.first)
        #expect(duplicate.predicate == "A.x")
        #expect(duplicate.locations.map(\.line) == [line + 3, line + 4])
    }

    @Test("Several mistakes are all reported, in table order, in one error")
    func allErrorsReported() throws {
        do {
            try fsm.buildTable {
                define(.locked) {
                    when(.coin) | then(.unlocked)
                    when(.coin) | then(.unlocked)
                    when(.pass) | then(.unlocked)
                    when(.pass) | then(.alarming)
                }
                define(.alarming) {}
            }
            Issue.record("no error thrown")
        } catch let error as SwiftFSMError {
            #expect(error.errors.count == 3)
            #expect(error.errors.first is EmptyBlockError)
            #expect(error.errors.dropFirst().first is DuplicatesError)
            #expect(error.errors.last is ClashError)
            #expect("\(error)".hasPrefix("The transition table has 3 errors:\n1. Empty block"))
        }
    }

    @Test("A second buildTable throws TableAlreadyBuiltError and keeps the first table")
    func alreadyBuilt() async throws {
        try fsm.buildTable { define(.locked) { when(.coin) | then(.unlocked) } }
        // Not inside #expect(throws:): the macro reports its own line as the closure's #line.
        let line = #line + 2
        do {
            try fsm.buildTable { define(.locked) { when(.coin) | then(.alarming) } }
            Issue.record("no error thrown")
        } catch let error as TableAlreadyBuiltError {
            #expect(error.location.line == line)
            #expect("\(error)" == "Table already built: buildTable called again at \(at(line)).")
        }
        await fsm.handleEvent(.coin)
        #expect(fsm.state == .unlocked)
    }
}
