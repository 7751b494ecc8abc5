// `swift run --package-path Samples/LoadingFeature LoadingDemo`
//
// Runs the seed README's loading feature against a fake backend and prints every state the
// machine goes through; the default logger prints each transition on standard error.
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

let machine = makeAsyncStateMachine(load: backend)
let observer = Task {
    for await state in machine {
        print("state:", state, "->", state.superState)
    }
}

print("> load 42")
await machine.sendAndWait(event: DidRequestLoading(id: "42"))
print("> load 7 (fails, is retried twice, then reported)")
await machine.sendAndWait(event: DidRequestLoading(id: "7"))
print("> reload (succeeds)")
await machine.sendAndWait(event: DidRequestReloading())
await machine.finishAndWait()
await observer.value
print("done")
