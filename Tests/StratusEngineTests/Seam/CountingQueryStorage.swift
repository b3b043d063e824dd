@testable import StratusEngine

/// A query storage that counts what a page asked of the one it wraps: how often records lacking
/// a field were counted and searched for in one pass over the indexes.
final class CountingQueryStorage: QueryStorage {
    let base: any QueryStorage
    private(set) var lackingCounts = 0
    private(set) var lackingPasses = 0
    /// Records read: rows handed out by the driver streams, and records loaded by id.
    private(set) var recordsRead = 0
    /// Records loaded by id one at a time, and batches of ids loaded in one call.
    private(set) var singleLoads = 0
    private(set) var batchLoads = 0

    init(_ base: any QueryStorage) { self.base = base }

    func streamRows(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                    backwards: Bool, _ body: (Int64, IndexValue?, StoredRecord) throws -> Bool) throws {
        try base.streamRows(of: driver, descending: descending, afterKey: afterKey, afterID: afterID, count: count, backwards: backwards) {
            recordsRead += 1
            return try body($0, $1, $2)
        }
    }

    func streamFields(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                      selecting selection: FieldSelection, _ body: (Int64, IndexValue?, FieldSelection.Located, StoredRecord?) throws -> Bool) throws {
        try base.streamFields(of: driver, descending: descending, afterKey: afterKey, afterID: afterID, count: count, selecting: selection) {
            recordsRead += 1
            return try body($0, $1, $2, $3)
        }
    }

    func streamIndex(fieldID: Int64, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                     _ body: (Int64, IndexValue) throws -> Bool) throws {
        try base.streamIndex(fieldID: fieldID, descending: descending, afterKey: afterKey, afterID: afterID, count: count, body)
    }

    func countIDs(of driver: QueryPlan.Driver, upTo limit: Int) throws -> Int { try base.countIDs(of: driver, upTo: limit) }

    func candidateIDs(of driver: QueryPlan.Driver, stoppingAt stop: Int) throws -> Set<Int64> { try base.candidateIDs(of: driver, stoppingAt: stop) }

    func modificationOrder(after start: (modifiedAt: Int64, id: Int64)?, count: Int, backwards: Bool,
                           lackingField: Int64?) throws -> [(modifiedAt: Int64, id: Int64)] {
        if lackingField != nil { lackingPasses += 1 }
        return try base.modificationOrder(after: start, count: count, backwards: backwards, lackingField: lackingField)
    }

    func record(id: Int64) throws -> StoredRecord? {
        recordsRead += 1
        singleLoads += 1
        return try base.record(id: id)
    }

    func records(ids: [Int64]) throws -> [Int64: StoredRecord] {
        recordsRead += ids.count
        batchLoads += 1
        return try base.records(ids: ids)
    }

    var wholeRecordCost: Int { base.wholeRecordCost }

    func lackingCount(fieldID: Int64) throws -> (lacking: Int, records: Int) {
        lackingCounts += 1
        return try base.lackingCount(fieldID: fieldID)
    }
}
