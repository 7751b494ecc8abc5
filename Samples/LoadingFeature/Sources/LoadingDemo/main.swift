// `swift run --package-path Samples/LoadingFeature LoadingDemo`
//
// Runs the seed README's loading feature against a fake backend and prints every state the
// machine goes through, each under the command that caused it; the default logger prints
// each transition on standard error.
import Foundation
import LoadingFeature
import StateMachineCore
import Synchronization

/// A fake backend: each load takes 200 ms; the first three attempts at "7" fail.
let attemptsAt7 = Atomic(0)
let backend: Load = { id in
    try await Task.sleep(for: .milliseconds(200))
    if id == "7", attemptsAt7.add(1, ordering: .relaxed).newValue <= 3 { throw URLError(.resourceUnavailable) }
    return Data("content of \(id)".utf8)
}

/// Prints the states `iterator` gives, up to and including the first one `isLast` accepts.
func printStates(
    from iterator: inout AsyncStateMachine<FeatureState, FeatureEvent>.Iterator,
    until isLast: (AsyncStateMachine<FeatureState, FeatureEvent>.Element) -> Bool
) async {
    while let state = await iterator.next() {
        print("state:", state, "->", state.superState)
        if isLast(state) { return }
    }
}

/// Sends the demo's commands, each once the previous one's output (retries included) has
/// ended. One reader prints the states in order, and each command's states are printed
/// before the next command is, so that a state never reads as the result of a later one.
func runDemo() async {
    let machine = makeAsyncStateMachine(load: backend)
    var states = machine.makeAsyncIterator()
    await printStates(from: &states) { $0 is DataIsIdle }
    print("> load 42")
    await machine.sendAndWait(event: DidRequestLoading(id: "42"))
    await printStates(from: &states) { $0 is DataIsLoaded }
    print("> load 7 (fails, is retried twice, then reported)")
    await machine.sendAndWait(event: DidRequestLoading(id: "7"))
    await printStates(from: &states) { $0 is DataIsInFailure }
    print("> reload (succeeds)")
    await machine.sendAndWait(event: DidRequestReloading())
    await printStates(from: &states) { $0 is DataIsLoaded }
    await machine.finishAndWait()
    print("done")
}

await runDemo()
