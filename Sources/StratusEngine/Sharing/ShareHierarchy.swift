import StratusCloud

/// The `parent` links of one zone, read to keep CloudKit's rule that a record takes part in one
/// share only: not the record itself, nothing above it and nothing below it may be shared.
struct ShareHierarchy {
    let db: StoreTransaction
    let zoneRowID: Int64

    /// `alreadyShared` when sharing `root` would put a record in two shares.
    func checkNotShared(_ root: StoredRecord, shares: [ShareRows.ShareRow]) throws {
        let roots = Set(shares.compactMap(\.rootName))
        guard !roots.isEmpty else { return }
        if roots.contains(root.name) {
            throw CloudKitError(.alreadyShared, "Record '\(root.name)' is shared already; a record can take part in one share only.")
        }
        if let above = try ancestors(of: root).first(where: roots.contains) {
            throw CloudKitError(.alreadyShared, "Record '\(root.name)' is inside the share of '\(above)' (through its parent); a record can take part in one share only.")
        }
        for other in roots.sorted() {
            guard let otherRecord = try db.records.find(zoneRowID: zoneRowID, name: other) else { continue }
            if try ancestors(of: otherRecord).contains(root.name) {
                throw CloudKitError(.alreadyShared, "Record '\(other)' under '\(root.name)' is shared already; a record can take part in one share only.")
            }
        }
    }

    /// The names up a record's `parent` chain, nearest first (stopping at a loop).
    func ancestors(of record: StoredRecord) throws -> [String] {
        var names: [String] = []
        var next = record.parent
        while let current = next, !names.contains(current), current != record.name, names.count < 256 {
            names.append(current)
            next = try db.records.parentName(zoneRowID: zoneRowID, name: current)
        }
        return names
    }
}
