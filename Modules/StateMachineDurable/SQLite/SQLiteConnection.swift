import CSQLite
import FoundationEssentials

/// One SQLite connection and its prepared statements, used by one thread at a time (the
/// store's queue): SQLite is built thread-safe, but a connection's statements are not.
final class SQLiteConnection: @unchecked Sendable {
    // @unchecked Sendable: a store uses its connection only while it holds its lock
    // (SQLiteStore.withConnection), so its mutable statement cache and the handle are never
    // used by two threads at once.
    private let handle: OpaquePointer
    /// The file, for error messages.
    let path: String
    /// Prepared statements, by the address of their SQL text (a static string's never moves).
    private var statements: [UnsafeRawPointer: OpaquePointer] = [:]

    /// Opens (or creates, unless `readOnly`) the database at `path`.
    init(path: String, readOnly: Bool) throws(DurableError) {
        self.path = path
        var opened: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard let opened else { throw DurableError.storage(path: path, code: status, message: "cannot open the file") }
        handle = opened
        guard status == SQLITE_OK else {
            let error = DurableError.sqlite(status, message: String(cString: sqlite3_errmsg(opened)), path: path)
            sqlite3_close_v2(opened)
            throw error
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one or more statements, no parameters).
    func execute(_ sql: String) throws(DurableError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            throw DurableError.sqlite(status, message: message.map { String(cString: $0) } ?? "", path: path)
        }
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`: the write lock is taken first, so
    /// that two processes never both read and then fail to write); rolls back when it throws.
    func transaction<T>(_ body: () throws(DurableError) -> T) throws(DurableError) -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            // A failed COMMIT (disk full) leaves the transaction open; a failed statement may
            // have ended it already (SQLite rolls back on some errors): roll back if open.
            if sqlite3_get_autocommit(handle) == 0 { try? run("ROLLBACK") }
            throw error
        }
    }

    /// The statement for `sql`, prepared once and reset for each use; `bind` binds its
    /// parameters, and `row` reads each result row.
    func run(
        _ sql: StaticString,
        _ bindings: [SQLiteValue] = [],
        row: (SQLiteRow) throws(DurableError) -> Void = { _ throws(DurableError) in }
    ) throws(DurableError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch value {
            case .integer(let integer): status = sqlite3_bind_int64(statement, position, integer)
            case .text(let text): status = sqlite3_bind_text(statement, position, text, -1, csqlite_transient())
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), csqlite_transient())
                }
            case .null: status = sqlite3_bind_null(statement, position)
            }
            guard status == SQLITE_OK else { throw error(status) }
        }
        while true {
            let status = sqlite3_step(statement)
            switch status {
            case SQLITE_ROW: try row(SQLiteRow(statement: statement))
            case SQLITE_DONE: return
            default: throw error(status)
            }
        }
    }

    /// The number of rows the last statement changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepared(_ sql: StaticString) throws(DurableError) -> OpaquePointer {
        let address = UnsafeRawPointer(sql.utf8Start)
        if let statement = statements[address] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(
            handle,
            address.assumingMemoryBound(to: CChar.self),
            Int32(sql.utf8CodeUnitCount),
            UInt32(SQLITE_PREPARE_PERSISTENT),
            &statement,
            nil
        )
        guard status == SQLITE_OK, let statement else { throw error(status) }
        statements[address] = statement
        return statement
    }

    private func error(_ status: Int32) -> DurableError {
        DurableError.sqlite(status, message: String(cString: sqlite3_errmsg(handle)), path: path)
    }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case blob(Data)
    case null

    /// `text`, or null when nil.
    static func text(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}

/// The current row of a statement.
struct SQLiteRow {
    let statement: OpaquePointer

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: text)
    }

    func blob(_ column: Int32) -> Data? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

extension DurableError {
    /// The error for SQLite's result code `status` (extended codes on): a corrupt file,
    /// a read-only database, a full disk and a busy database each have their own case.
    static func sqlite(_ status: Int32, message: String, path: String) -> DurableError {
        switch status & 0xff {
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt(path: path, message: message)
        case SQLITE_READONLY: .readOnly(path: path, message: message)
        case SQLITE_FULL: .full(path: path, message: message)
        case SQLITE_BUSY, SQLITE_LOCKED: .busy(path: path, message: message)
        default: .storage(path: path, code: status, message: message)
        }
    }
}
