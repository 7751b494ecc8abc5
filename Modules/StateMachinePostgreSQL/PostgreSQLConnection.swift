import CLibPQ
import FoundationEssentials
import StateMachineDurable

/// A value bound to a statement's parameter.
enum PostgreSQLValue {
    case text(String?)
    case integer(Int64)
    case blob(Data)
    case boolean(Bool)
}

/// The rows a statement returned, in PostgreSQL's text format.
struct PostgreSQLRows {
    fileprivate var cells: [[[UInt8]?]]

    var count: Int { cells.count }

    func text(_ row: Int, _ column: Int) -> String? {
        cells[row][column].map { String(decoding: $0, as: UTF8.self) }
    }

    func integer(_ row: Int, _ column: Int) -> Int64? {
        text(row, column).flatMap { Int64($0) }
    }

    func boolean(_ row: Int, _ column: Int) -> Bool { text(row, column) == "t" }

    /// A `bytea` column: PostgreSQL's text format (`\x` and hexadecimal digits).
    func blob(_ row: Int, _ column: Int) -> Data? {
        guard let bytes = cells[row][column] else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Data? in
            var decoded = Data()
            guard buffer.count >= 2, buffer[0] == UInt8(ascii: "\\"), buffer[1] == UInt8(ascii: "x") else {
                return Data(buffer)
            }
            decoded.reserveCapacity((buffer.count - 2) / 2)
            var index = 2
            while index + 1 < buffer.count {
                guard let high = Self.hex(buffer[index]), let low = Self.hex(buffer[index + 1]) else { return nil }
                decoded.append(high << 4 | low)
                index += 2
            }
            return decoded
        }
    }

    private static func hex(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Why a statement failed: the server refused it, or the connection is gone (the statement
/// may or may not have run).
enum PostgreSQLFailure: Error {
    case refused(DurableError)
    case connectionLost(String)
}

/// One libpq connection and its prepared statements, used by one thread at a time (the
/// store's lock): libpq connections are not safe to share between threads.
final class PostgreSQLConnection: @unchecked Sendable {
    // @unchecked Sendable: a store uses its connection only while it holds its lock
    // (PostgreSQLStore.withConnection), so the handle and the statement cache are never used
    // by two threads at once.
    private var handle: OpaquePointer?
    let conninfo: String
    /// The server, for messages: the conninfo without its password.
    let server: String
    /// Prepared statements' names, by their SQL.
    private var prepared: [String: String] = [:]

    init(conninfo: String, server: String) {
        self.conninfo = conninfo
        self.server = server
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Whether the connection is up (as far as libpq knows without asking the server).
    var isConnected: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Connects (again); returns libpq's message when the server cannot be reached.
    func connect() -> String? {
        if let handle { PQfinish(handle) }
        prepared = [:]
        handle = PQconnectdb(conninfo)
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { Self.message(PQerrorMessage($0)) } ?? "out of memory"
            if let handle { PQfinish(handle) }
            self.handle = nil
            return message
        }
        // Notices (a CREATE TABLE IF NOT EXISTS that found the table) would go to stderr.
        _ = PQsetNoticeProcessor(handle, { _, _ in }, nil)
        return nil
    }

    /// Closes the connection.
    func disconnect() {
        if let handle { PQfinish(handle) }
        handle = nil
        prepared = [:]
    }

    /// The connection's socket, to wait for the server on; nil when not connected.
    var socket: Int32? {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return nil }
        let socket = PQsocket(handle)
        return socket >= 0 ? socket : nil
    }

    /// Reads what the server sent and returns the payloads of the notifications (NOTIFY)
    /// received; nil when the connection is lost.
    func notifications() -> [String]? {
        guard let handle, PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { return nil }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    /// Runs `sql` (one or more statements, no parameters).
    func execute(_ sql: String) throws(PostgreSQLFailure) {
        guard let handle else { throw .connectionLost("not connected") }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql)
    }

    /// Runs `sql` with `parameters` (`$1`, `$2`, …) as a prepared statement; returns its rows.
    @discardableResult
    func run(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(PostgreSQLFailure) -> PostgreSQLRows {
        guard let handle else { throw .connectionLost("not connected") }
        let name = try prepare(sql, parameters.count)
        let bound = Bound(parameters)
        defer { bound.free() }
        let result = bound.withPointers { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
        }
        defer { PQclear(result) }
        try check(result, sql)
        return Self.rows(result)
    }

    /// A statement and its parameters.
    typealias Statement = (sql: String, parameters: [PostgreSQLValue])

    /// Runs `statements` as one transaction in one round trip; returns each statement's rows.
    /// - Throws: the first statement's failure; the ones after it did not run.
    @discardableResult
    func transaction(_ statements: [Statement]) throws(PostgreSQLFailure) -> [PostgreSQLRows] {
        try transactions([statements])[0].get()
    }

    /// Runs each element of `transactions` as a transaction of its own, all in one round
    /// trip (libpq's pipeline mode, no explicit BEGIN: the statements up to each of the
    /// pipeline's syncs are one implicit transaction, rolled back whole when one fails, and
    /// the transactions after it run all the same); returns each one's rows or refusal.
    /// - Throws: ``PostgreSQLFailure/connectionLost(_:)`` when the connection is lost (which
    ///   transactions were committed is not known).
    func transactions(
        _ transactions: [[Statement]]
    ) throws(PostgreSQLFailure) -> [Result<[PostgreSQLRows], PostgreSQLFailure>] {
        guard let handle else { throw .connectionLost("not connected") }
        // Statements are prepared before the pipeline starts, each once per connection.
        var names: [[String]] = []
        for statements in transactions {
            var group: [String] = []
            for statement in statements { group.append(try prepare(statement.sql, statement.parameters.count)) }
            names.append(group)
        }
        guard PQenterPipelineMode(handle) == 1 else { throw .connectionLost(Self.message(PQerrorMessage(handle))) }
        defer { _ = PQexitPipelineMode(handle) }
        for (statements, group) in zip(transactions, names) {
            for (statement, name) in zip(statements, group) {
                let bound = Bound(statement.parameters)
                let accepted = bound.withPointers { values, lengths, formats in
                    PQsendQueryPrepared(handle, name, Int32(statement.parameters.count), values, lengths, formats, 0)
                }
                bound.free()
                guard accepted == 1 else { throw .connectionLost(Self.message(PQerrorMessage(handle))) }
            }
            guard PQpipelineSync(handle) == 1 else { throw .connectionLost(Self.message(PQerrorMessage(handle))) }
        }
        var outcomes: [Result<[PostgreSQLRows], PostgreSQLFailure>] = []
        outcomes.reserveCapacity(transactions.count)
        for statements in transactions {
            // Each statement's result, then a NULL; then the sync's.
            var failure: PostgreSQLFailure?
            var results: [PostgreSQLRows] = []
            results.reserveCapacity(statements.count)
            for statement in statements {
                guard let result = PQgetResult(handle) else {
                    throw .connectionLost(Self.message(PQerrorMessage(handle)))
                }
                defer { PQclear(result) }
                PQclear(PQgetResult(handle))
                guard failure == nil else { continue }
                if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                    throw .connectionLost(Self.message(PQerrorMessage(handle)))
                }
                do throws(PostgreSQLFailure) {
                    try check(result, statement.sql)
                    results.append(Self.rows(result))
                } catch .refused(let error) {
                    failure = .refused(error)
                }
            }
            let sync = PQgetResult(handle)
            defer { PQclear(sync) }
            guard let sync, PQresultStatus(sync) == PGRES_PIPELINE_SYNC else {
                throw .connectionLost(Self.message(PQerrorMessage(handle)))
            }
            outcomes.append(failure.map { .failure($0) } ?? .success(results))
        }
        return outcomes
    }

    /// The name of `sql` prepared on this connection, preparing it when new.
    private func prepare(_ sql: String, _ count: Int) throws(PostgreSQLFailure) -> String {
        guard let handle else { throw .connectionLost("not connected") }
        if let known = prepared[sql] { return known }
        let name = "s\(prepared.count)"
        let result = PQprepare(handle, name, sql, Int32(count), nil)
        defer { PQclear(result) }
        try check(result, sql)
        prepared[sql] = name
        return name
    }

    /// A statement's parameters in libpq's form: each value in its own allocation, freed by `free()`.
    private struct Bound {
        var values: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []

        init(_ parameters: [PostgreSQLValue]) {
            values.reserveCapacity(parameters.count)
            for parameter in parameters {
                var bytes: [UInt8]?
                var binary = false
                switch parameter {
                case .text(let text): bytes = text.map { Array($0.utf8) }
                case .integer(let value): bytes = Array(String(value).utf8)
                case .boolean(let value): bytes = Array((value ? "t" : "f").utf8)
                case .blob(let data):
                    bytes = Array(data)
                    binary = true
                }
                if let bytes {
                    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                    bytes.withUnsafeBufferPointer { source in
                        for (index, byte) in source.enumerated() { buffer[index] = CChar(bitPattern: byte) }
                    }
                    buffer[bytes.count] = 0
                    values.append(buffer)
                    lengths.append(Int32(bytes.count))
                } else {
                    values.append(nil)
                    lengths.append(0)
                }
                formats.append(binary ? 1 : 0)
            }
        }

        func withPointers<T>(
            _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
        ) -> T {
            values.withUnsafeBufferPointer { values in
                values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                    lengths.withUnsafeBufferPointer { lengths in
                        formats.withUnsafeBufferPointer { formats in
                            body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                        }
                    }
                }
            }
        }

        func free() { for value in values { value?.deallocate() } }
    }

    /// The rows of a successful `result` (none unless it returned tuples).
    private static func rows(_ result: OpaquePointer?) -> PostgreSQLRows {
        var rows = PostgreSQLRows(cells: [])
        guard let result, PQresultStatus(result) == PGRES_TUPLES_OK else { return rows }
        let (rowCount, columnCount) = (PQntuples(result), PQnfields(result))
        rows.cells.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var cells: [[UInt8]?] = []
            cells.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) != 0 {
                    cells.append(nil)
                } else {
                    let length = Int(PQgetlength(result, row, column))
                    let value = PQgetvalue(result, row, column)!
                    cells.append(
                        value.withMemoryRebound(to: UInt8.self, capacity: length) {
                            Array(UnsafeBufferPointer(start: $0, count: length))
                        }
                    )
                }
            }
            rows.cells.append(cells)
        }
        return rows
    }

    /// Throws unless `result` is a success: the server's refusal, or the loss of the connection.
    private func check(_ result: OpaquePointer?, _ sql: String) throws(PostgreSQLFailure) {
        guard let handle else { throw .connectionLost("not connected") }
        guard let result else { throw .connectionLost(Self.message(PQerrorMessage(handle))) }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return }
        let message = Self.message(PQresultErrorMessage(result))
        let code = PQresultErrorField(result, clibpq_diag_sqlstate()).map { String(cString: $0) } ?? ""
        // Class 08 (connection exception) and 57P0x (the server shutting down or starting):
        // the statement's outcome is unknown, and another connection may succeed.
        if PQstatus(handle) != CONNECTION_OK || code.hasPrefix("08") || code.hasPrefix("57P") {
            throw .connectionLost(message.isEmpty ? Self.message(PQerrorMessage(handle)) : message)
        }
        throw .refused(DurableError.server(server, code: code, message: message))
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
