/// Why a store or a durable machine refused to do something. Each case names what is wrong
/// and where; none leaves a machine anywhere but at its last committed state.
public enum DurableError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store's file is not a database, or is damaged (a truncated or overwritten file).
    /// Nothing was written.
    case corrupt(path: String, message: String)
    /// The store was opened read-only (``SQLiteStore/Mode/readOnly``), or its file cannot be
    /// written: machines can be inspected, not opened or changed.
    case readOnly(path: String, message: String)
    /// The disk, or the store's size limit (``SQLiteStore/init(path:mode:synchronous:clock:maxPageCount:busyTimeout:)``'s
    /// `maxPageCount`), is full: the transaction was rolled back.
    case full(path: String, message: String)
    /// Another connection held the database's write lock for longer than the busy timeout.
    case busy(path: String, message: String)
    /// Any other error of the database, with its result code.
    case storage(path: String, code: Int32, message: String)
    /// Machine `key` is open in a live process (`owner`: its process ID and start time).
    case machineInUse(key: String, owner: String)
    /// Machine `key` was stored by a definition other than the one opening it, and no
    /// migration was given (``DurableOptions/migration``).
    case definitionChanged(key: String, stored: DefinitionIdentity, opening: DefinitionIdentity)
    /// A value could not be encoded or decoded: a state, event or effect type that was not
    /// registered, or stored data that does not fit the definition.
    case encoding(String)
    /// Machine `key` was closed (or failed to reopen after a failed commit).
    case closed(key: String)
    /// The store's clock is the wall clock, which cannot be set.
    case notManualClock
    /// A database server (`server`: where the store's connection string points) refused a
    /// statement, with its SQLSTATE `code`: the transaction was rolled back.
    case server(String, code: String, message: String)
    /// The store's server could not be reached within its reconnect timeout: nothing was
    /// written (or, for a commit, the journal was checked before it was repeated).
    case unreachable(server: String, message: String)
    /// This process's claim on machine `key` ended (its connection was lost and another
    /// process took the machine over): the machine cannot commit here; close it.
    case claimLost(key: String)

    /// What went wrong, in one sentence.
    public var description: String {
        switch self {
        case .corrupt(let path, let message): "\(path) is not a valid store (\(message)); nothing was written"
        case .readOnly(let path, let message): "\(path) is read-only (\(message)); nothing was written"
        case .full(let path, let message): "\(path) is full (\(message)); the transaction was rolled back"
        case .busy(let path, let message): "\(path) stayed locked by another connection (\(message))"
        case .storage(let path, let code, let message): "\(path): SQLite error \(code): \(message)"
        case .machineInUse(let key, let owner): "machine '\(key)' is open in another live process (\(owner))"
        case .definitionChanged(let key, let stored, let opening):
            "machine '\(key)' was stored with \(stored) and is opened with \(opening); pass a migration to open it"
        case .encoding(let message): message
        case .closed(let key): "machine '\(key)' is closed"
        case .notManualClock: "the store runs on the wall clock, which cannot be set or advanced"
        case .server(let server, let code, let message): "\(server): PostgreSQL error \(code): \(message)"
        case .unreachable(let server, let message): "\(server) cannot be reached (\(message)); nothing was written"
        case .claimLost(let key): "machine '\(key)' was taken over by another process; close it here"
        }
    }
}
