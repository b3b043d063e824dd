import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import StratusCloud

/// One connection to PostgreSQL, used synchronously: the engine's storage protocols are
/// synchronous, so each statement is sent on the connection's event loop and the calling
/// thread waits for its rows. Callers are never on that event loop (it belongs to
/// postgres-nio's group), so waiting cannot deadlock it. One open transaction holds one link.
final class PostgresLink: @unchecked Sendable {
    private let connection: PostgresConnection
    private let logger: Logger
    let location: PostgresLocation
    /// How many rows PostgreSQL has answered on this connection: what a transaction read
    /// (``PostgresBackend/rowsRead``).
    private(set) var rowsReceived = 0
    /// How many statements this connection has sent: each one a round trip.
    private(set) var statementsSent = 0
    /// Runs once before the next statement is sent, then is forgotten: a transaction's held
    /// rows go in before anything else reads or writes (``PostgresHeldRecords``).
    var beforeStatement: (() throws -> Void)?
    /// Statements sent without waiting for their answers (``sendAhead(_:)``), in order,
    /// checked when the next statement's answer comes.
    private var ahead: [EventLoopFuture<PostgresQueryResult>] = []

    private init(connection: PostgresConnection, logger: Logger, location: PostgresLocation) {
        self.connection = connection
        self.logger = logger
        self.location = location
    }

    /// Connects within a few seconds, or fails naming the server (never hangs on an unreachable one).
    static func connect(to location: PostgresLocation) throws -> PostgresLink {
        var logger = Logger(label: "stratus.postgres")
        logger.logLevel = .critical
        let configuration = try configuration(for: location)
        do {
            let connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                                                            id: nextID.add(1), logger: logger).wait()
            return PostgresLink(connection: connection, logger: logger, location: location)
        } catch {
            throw PostgresFailure.unreachable(location, error)
        }
    }

    /// How a connection to `location` is made: its TLS, and a few seconds to answer.
    static func configuration(for location: PostgresLocation) throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(host: location.host, port: location.port, username: location.user,
                                                             password: location.password, database: location.database,
                                                             tls: try location.tls.connectionSetting())
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// The rows `sql` answers, its `$n` bound to `binds` in order.
    @discardableResult
    func rows(_ sql: String, _ binds: [any PostgresBinding] = []) throws -> [PostgresRowReader] {
        let rows = try send(sql, binds).rows
        rowsReceived += rows.count
        return rows.map(PostgresRowReader.init)
    }

    /// Hands each row `sql` answers to `body` as it is read; returns how many there were.
    @discardableResult
    func eachRow(_ sql: String, _ binds: [any PostgresBinding] = [], _ body: (PostgresRow) throws -> Void) throws -> Int {
        let rows = try send(sql, binds).rows
        rowsReceived += rows.count
        for row in rows { try body(row) }
        return rows.count
    }

    /// Runs `sql` and returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ binds: [any PostgresBinding] = []) throws -> Int {
        try send(sql, binds).metadata.rows ?? 0
    }

    /// The first column of the first row as an integer (nil: no row, or NULL).
    func integer(_ sql: String, _ binds: [any PostgresBinding] = []) throws -> Int64? {
        try rows(sql, binds).first.flatMap { try $0.optionalInt(0) }
    }

    /// Runs statements without binds (DDL, BEGIN ...), each ended by a `;` at a line's end.
    func script(_ sql: String) throws {
        for statement in sql.components(separatedBy: ";\n") where !statement.allSatisfy(\.isWhitespace) {
            try run(statement)
        }
    }

    /// Sends `sql` (no binds) and returns at once: the connection's next statement goes out
    /// behind it, and its answer is checked with that statement's, so a transaction's `BEGIN`
    /// costs no wait of its own. Only for a statement that fails when the one behind it would
    /// (`BEGIN` fails only on a broken connection or an aborted transaction, which fail
    /// anything sent next), or whose failure costs no one anything (the `COMMIT` of a
    /// transaction that only read).
    func sendAhead(_ sql: String) {
        statementsSent += 1
        ahead.append(connection.query(PostgresQuery(unsafeSQL: sql, binds: PostgresBindings()), logger: logger))
    }

    var isClosed: Bool { connection.isClosed }

    func close() { try? connection.close().wait() }

    private func send(_ sql: String, _ binds: [any PostgresBinding]) throws -> PostgresQueryResult {
        if let first = beforeStatement {
            beforeStatement = nil
            try first()
        }
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds { try value.bind(into: &bindings) }
        statementsSent += 1
        let answer = connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        do {
            let sent = ahead
            ahead = []
            for statement in sent {
                do { _ = try statement.wait() } catch {
                    _ = try? answer.wait()
                    throw error
                }
            }
            return try answer.wait()
        } catch {
            throw PostgresFailure.wrap(error, location: location)
        }
    }

    private static let nextID = Counter()

    /// Connection ids for postgres-nio's logs.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func add(_ step: Int) -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += step
            return value
        }
    }
}
