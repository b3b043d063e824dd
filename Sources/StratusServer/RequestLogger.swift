import Foundation
import StratusEngine

/// Writes the request log of each store in batches, a few times a second, so logging costs a
/// request no transaction of its own.
final class RequestLogger: Sendable {
    private let pending = LockedValue<[String: (Store, [RequestLogEntry])]>([:])

    func record(_ entry: RequestLogEntry, in store: Store) {
        pending.withLock { all in
            all[store.path, default: (store, [])].1.append(entry)
        }
    }

    /// Writes what has gathered. A store that cannot be written (read-only) drops its entries.
    func flush() {
        let batches = pending.withLock { all in
            defer { all.removeAll() }
            return all.values
        }
        for (store, entries) in batches { try? store.appendToRequestLog(entries) }
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
