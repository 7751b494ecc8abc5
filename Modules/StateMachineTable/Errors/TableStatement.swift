/// One transition of a table as an error reports it: what the user wrote, spelled out
/// after super states, blocks and `or:` lists are expanded, and where it was written.
public struct TableStatement: Hashable, Sendable, CustomStringConvertible {
    /// The given state, as `String(describing:)` prints it.
    public let state: String
    /// The predicates the row names (`["Enforcement.weak"]`), empty when it names none.
    public let predicates: [String]
    /// The event.
    public let event: String
    /// The next state, or `nil` for `then()` (no change).
    public let nextState: String?
    /// Where the row's innermost statement (`when`/`then`/`matching`) was written.
    public let location: StatementLocation
    /// Where its `define` was written.
    public let defineLocation: StatementLocation

    /// `define(locked) { matching(Enforcement.weak) | when(coin) | then(unlocked) }`.
    public var text: String {
        let matching = predicates.isEmpty ? "" : "matching(\(predicates.joined(separator: ", and: "))) | "
        return "define(\(state)) { \(matching)when(\(event)) | then(\(nextState ?? "")) }"
    }

    /// The statement followed by its location and its `define`'s location.
    public var description: String {
        "\(text) at \(location) (define at \(defineLocation))"
    }
}
