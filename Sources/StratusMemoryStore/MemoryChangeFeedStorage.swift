import StratusCloud
import StratusEngine

/// A zone's change feed in a memory store: its deletions and its records, each read in
/// sequence order.
struct MemoryChangeFeedStorage: ChangeFeedStorage {
    let db: MemoryTransaction

    func deletions(zoneRowID: Int64, after start: Int64, through stop: Int64, limit: Int) throws -> [ChangeFeedDeletion] {
        let chosen = (db.tables.tombstones[zoneRowID]?.values).map { Array($0) } ?? []
        return Array(chosen.filter { $0.sequence > start && $0.sequence <= stop }.sorted { $0.sequence < $1.sequence }.prefix(limit))
    }

    func changedRecords(zoneRowID: Int64, after start: Int64, through stop: Int64, limit: Int, includingChangedKeys: Bool,
                        _ body: (StoredRecord, _ changedKeys: String?) throws -> Bool) throws {
        let ids = db.tables.recordNames[zoneRowID]?.values.map { $0 } ?? []
        let changed = ids.compactMap { db.tables.records[$0] }.filter { $0.row.sequence > start && $0.row.sequence <= stop }
            .sorted { ($0.row.sequence, $0.id) < ($1.row.sequence, $1.id) }
        for record in changed.prefix(limit) {
            guard try body(record.stored, includingChangedKeys ? record.row.changedKeys : nil) else { return }
        }
    }
}
