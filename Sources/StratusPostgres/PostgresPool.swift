import Foundation

/// A store's idle connections, each already pointed at the store's schema. A transaction takes
/// one for its whole life and gives it back after; a few are kept for the next.
final class PostgresPool: @unchecked Sendable {
    let location: PostgresLocation
    private let lock = NSLock()
    private var idle: [PostgresLink] = []
    private let keep = 4

    init(location: PostgresLocation) {
        self.location = location
    }

    deinit { closeAll() }

    /// An idle connection, or a new one.
    func take() throws -> PostgresLink {
        lock.lock()
        let held = idle.popLast()
        lock.unlock()
        if let held, !held.isClosed { return held }
        let link = try PostgresLink.connect(to: location)
        try link.script("SET search_path TO \"\(location.schema)\"")
        return link
    }

    /// Takes `link` back: kept for the next transaction unless enough are idle or it broke.
    func give(_ link: PostgresLink) {
        lock.lock()
        if !link.isClosed && idle.count < keep {
            idle.append(link)
            lock.unlock()
            return
        }
        lock.unlock()
        link.close()
    }

    /// Closes every idle connection (the store is going away).
    func closeAll() {
        lock.lock()
        let links = idle
        idle = []
        lock.unlock()
        for link in links { link.close() }
    }
}
