import Foundation
import StratusEngine

/// The query storages built for the last committed state, so that paging through a query's
/// answer does not index the zone's records again for every page. An entry holds for the
/// commit it was built on and the type's fields as they were; a transaction that changed
/// records builds its own.
final class MemoryQueryCache: @unchecked Sendable {
    private struct Key: Hashable {
        var zoneRowID: Int64
        var typeID: Int64
    }

    private let lock = NSLock()
    private var commit: Int64 = -1
    private var entries: [Key: (fields: [String: SchemaCatalog.TypeEntry.Field], storage: MemoryQueryStorage)] = [:]

    /// The storage of `type` in the zone as of `commit`, built by `build` when not held.
    func storage(commit: Int64, zoneRowID: Int64, type: SchemaCatalog.TypeEntry, _ build: () throws -> MemoryQueryStorage) throws -> MemoryQueryStorage {
        let key = Key(zoneRowID: zoneRowID, typeID: type.id)
        lock.lock()
        if self.commit == commit, let held = entries[key], held.fields == type.fields {
            lock.unlock()
            return held.storage
        }
        lock.unlock()
        let built = try build()
        lock.lock()
        defer { lock.unlock() }
        if commit > self.commit {
            self.commit = commit
            entries = [:]
        }
        if commit == self.commit { entries[key] = (type.fields, built) }
        return built
    }
}
