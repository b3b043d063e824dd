import Foundation
import StratusCKWS
import StratusEngine

/// Writes the request log of each store in batches, a few times a second, so logging costs a
/// request no transaction of its own. The newest requests of each batch keep their bodies,
/// masked and written out only as the batch is flushed (see ``RequestBodyMasker``).
final class RequestLogger: Sendable {
    /// A request's body as it arrived and the answer's bytes as they were sent, until the
    /// flush turns them into text: keeping them costs a request nothing but a reference.
    struct PendingBodies: Sendable {
        var request: Data
        var response: [UInt8]?
    }

    private struct Batch {
        var store: Store
        var entries: [(RequestLogEntry, PendingBodies?)] = []
        /// Where the entries that still hold bodies are, oldest first: the oldest lets go of its
        /// bodies past ``bodiesPerBatch``.
        var withBodies: [Int] = []

        /// Adds a request in place (a busy batch holds hundreds; copying them for each one
        /// cost more than the request).
        mutating func add(_ entry: RequestLogEntry, bodies: PendingBodies?) {
            if bodies != nil {
                withBodies.append(entries.count)
                if withBodies.count > RequestLogger.bodiesPerBatch { entries[withBodies.removeFirst()].1 = nil }
            }
            entries.append((entry, bodies))
        }
    }

    /// Bodies a batch holds until it is flushed (its newest requests'): every request of a
    /// person trying things out.
    static let bodiesPerBatch = 5
    /// The time a flush may spend masking and writing out bodies, newest first; the older
    /// ones of a busy batch go without (the newest is always kept, however late the flush
    /// starts). Without it, on the bench's 100k store, 20 bodies a batch added a quarter to a
    /// query page's CPU under load.
    static let bodyBudget = Duration.milliseconds(4)

    private let budget: Duration

    init(bodyBudget: Duration = RequestLogger.bodyBudget) {
        budget = bodyBudget
    }

    private let pending = LockedValue<[String: Batch]>([:])

    func record(_ entry: RequestLogEntry, bodies: PendingBodies? = nil, in store: Store) {
        pending.withLock { all in all[store.path, default: Batch(store: store)].add(entry, bodies: bodies) }
    }

    /// Writes what has gathered. A store that cannot be written (read-only) drops its entries.
    func flush() {
        let batches = pending.withLock { all in
            defer { all.removeAll() }
            return all.values
        }
        let clock = ContinuousClock()
        let deadline = clock.now + budget
        for batch in batches {
            var entries = batch.entries.map(\.0)
            var kept = 0
            for index in entries.indices.reversed() {
                guard let bodies = batch.entries[index].1, kept == 0 || clock.now < deadline else { continue }
                kept += 1
                entries[index].bodies = RequestBodies(request: RequestBodyMasker.text(ofBody: bodies.request),
                                                      response: bodies.response.map { RequestBodyMasker.text(ofBody: $0) } ?? "")
            }
            try? batch.store.appendToRequestLog(entries)
        }
    }

    /// Flushes every `interval` until the task is cancelled, then once more.
    func run(every interval: Duration = .milliseconds(200)) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            await Task.detached { [self] in self.flush() }.value
        }
        flush()
    }
}
