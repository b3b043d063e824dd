import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import StratusEngine

/// A PostgreSQL store's announcements: one dedicated connection that LISTENs on the store
/// channel and counts what other processes' commits announce (``PostgresTransaction/announce(_:)``).
/// When the connection drops it connects again (waiting longer each time, up to five seconds)
/// and, once listening, counts an announcement of every topic: a live view then reads again
/// and catches up on what was committed while no one listened.
final class PostgresListener: StoreAnnouncements, @unchecked Sendable {
    /// The channel every store of a database announces on; the payload names the store's
    /// schema and the topic (``payload(schema:topic:)``).
    static let channel = "stratus"

    private let location: PostgresLocation
    private let condition = NSCondition()
    private var counts: [StoreTopic: UInt64] = [:]
    private var reconnects: UInt64 = 0
    private var listening = false
    private var stopped = false
    private var connection: PostgresConnection?
    private var serverProcess: Int32?

    init(location: PostgresLocation) {
        self.location = location
    }

    /// What a commit to `topic` of the store in `schema` sends.
    static func payload(schema: String, topic: StoreTopic) -> String { "\(schema) \(topic.rawValue)" }

    /// Starts listening and waits up to `seconds` for PostgreSQL to confirm it, so that a
    /// view's first read comes after the LISTEN (a commit between them is heard). Callers poll
    /// until it does, if it does not in time.
    func start(waitingUpTo seconds: Double) {
        // A thread of its own, waiting on NIO futures as ``PostgresLink`` does: it must not
        // depend on Swift's shared task threads, which a blocked caller may be holding.
        let thread = Thread { [self] in run() }
        thread.name = "stratus.postgres.listener"
        thread.start()
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        while !listening && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    /// Stops listening and closes the connection (the store is closing).
    func stop() {
        condition.lock()
        stopped = true
        let open = connection
        connection = nil
        condition.broadcast()
        condition.unlock()
        if let open { let closing: EventLoopFuture<Void> = open.close(); _ = closing }
    }

    var isListening: Bool {
        condition.lock()
        defer { condition.unlock() }
        return listening
    }

    func mark(_ topics: Set<StoreTopic>) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return unlockedMark(topics)
    }

    func wait(_ topics: Set<StoreTopic>, after mark: UInt64, until deadline: Date) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        while unlockedMark(topics) == mark && listening && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return unlockedMark(topics)
    }

    private func unlockedMark(_ topics: Set<StoreTopic>) -> UInt64 {
        topics.reduce(reconnects) { $0 &+ (counts[$1] ?? 0) }
    }

    /// Listens until stopped: connects, LISTENs, counts what it hears until the connection
    /// closes; then again, after a pause.
    private func run() {
        var logger = Logger(label: "stratus.postgres.listener")
        logger.logLevel = .critical
        var pause = 0.25
        var lost = false
        while !isStopped {
            do {
                let connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(),
                                                                configuration: try PostgresLink.configuration(for: location),
                                                                id: 0, logger: logger).wait()
                let process = try connection.query("SELECT pg_backend_pid()", logger: logger).wait().rows.first?.decode(Int32.self)
                guard adopt(connection, process: process) else {
                    let closing: EventLoopFuture<Void> = connection.close()
                    _ = closing
                    return
                }
                connection.addListener(channel: Self.channel) { [weak self] _, notification in self?.heard(notification.payload) }
                // The connection answers in order: once this is answered, the LISTEN was too.
                _ = try connection.query("SELECT 1", logger: logger).wait()
                listened(afterLoss: lost)
                pause = 0.25
                try? connection.closeFuture.wait()
            } catch {
                // Unreachable, or the connection broke: counted below, tried again after a pause.
            }
            lose()
            lost = true
            condition.lock()
            if !stopped { _ = condition.wait(until: Date().addingTimeInterval(pause)) }
            condition.unlock()
            pause = min(pause * 2, 5)
        }
    }

    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Keeps `connection` to close on stop; false when stopped meanwhile.
    private func adopt(_ connection: PostgresConnection, process: Int32?) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return false }
        self.connection = connection
        serverProcess = process
        return true
    }

    /// The server process of the listening connection (`pg_backend_pid()`): a test ends it to
    /// see the listener come back.
    var listeningProcess: Int32? {
        condition.lock()
        defer { condition.unlock() }
        return listening ? serverProcess : nil
    }

    private func listened(afterLoss lost: Bool) {
        condition.lock()
        listening = true
        if lost { reconnects &+= 1 }
        condition.broadcast()
        condition.unlock()
    }

    private func heard(_ payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0] == location.schema, let topic = StoreTopic(rawValue: String(parts[1])) else { return }
        condition.lock()
        counts[topic, default: 0] &+= 1
        condition.broadcast()
        condition.unlock()
    }

    private func lose() {
        condition.lock()
        listening = false
        connection = nil
        condition.broadcast()
        condition.unlock()
    }
}
