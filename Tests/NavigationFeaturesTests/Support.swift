import Foundation

/// Counts calls.
actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

struct NotFound: Error, CustomStringConvertible {
    var description: String { "Thing 42 not found" }
}
