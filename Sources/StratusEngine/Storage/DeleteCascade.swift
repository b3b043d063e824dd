import StratusCloud

/// The records a delete takes with it: the record itself and, recursively, every record that
/// points at a deleted one with a DELETE_SELF reference.
///
/// Saves' deletes and a forced schema import that drops a type both go through it; `deleted`
/// spans every `run` of one transaction, so a record reached twice is deleted once.
struct DeleteCascade {
    let db: StoreTransaction
    private(set) var deleted: Set<Int64> = []

    init(db: StoreTransaction) { self.db = db }

    /// Calls `erase` for `root` (with `isRoot` true), then for each record the cascade reaches;
    /// `erase` does the deleting (``RecordStorage/delete(_:catalog:sequence:)``). A record already deleted by an earlier run is skipped.
    mutating func run(from root: StoredRecord, erase: (_ victim: StoredRecord, _ isRoot: Bool) throws -> Void) throws {
        var queue = [root]
        var isRoot = true
        while let victim = queue.popLast() {
            guard deleted.insert(victim.id).inserted else { continue }
            let sources = try db.records.referencingSources(zoneRowID: victim.zoneRowID, target: victim.name)
            for source in sources where !deleted.contains(source) {
                if let row = try db.records.find(id: source) { queue.append(row) }
            }
            try erase(victim, isRoot)
            isRoot = false
        }
    }
}
