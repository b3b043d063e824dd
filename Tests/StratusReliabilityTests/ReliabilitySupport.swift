import Foundation
import StratusEngine
import StratusCloud

/// Plays a zone back from `token` (nil: the beginning) to the end, page by page.
func playBack(_ database: CloudDatabase, zone: ZoneID, since token: String?, pageSize: Int = 150)
    throws -> (changed: [Record], deleted: [String], token: String) {
    var changed: [Record] = []
    var deleted: [String] = []
    var next = token
    while true {
        let page = try database.recordZoneChanges(inZoneWith: zone, since: next, resultsLimit: pageSize)
        for change in page.changes {
            switch change {
            case .changed(let record): changed.append(record)
            case .deleted(let recordID, _): deleted.append(recordID.recordName)
            }
        }
        next = page.changeToken
        if !page.moreComing { return (changed, deleted, page.changeToken) }
    }
}

/// Every record of a zone, through queries a page at a time (by cursor).
func allRecords(_ database: CloudDatabase, type: String, zone: ZoneID) throws -> [Record] {
    try allRecords(database, query: Query(recordType: type, predicateFormat: "TRUEPREDICATE"), zone: zone)
}

/// Every record of a zone that `query` matches, a page at a time (by cursor).
func allRecords(_ database: CloudDatabase, query: Query, zone: ZoneID) throws -> [Record] {
    var records: [Record] = []
    var page = try database.records(matching: query, inZoneWith: zone, resultsLimit: 200)
    records += page.records
    while let cursor = page.cursor {
        page = try database.records(continuingMatchFrom: cursor, resultsLimit: 200)
        records += page.records
    }
    return records
}

extension Record {
    func int(_ key: String) -> Int64? {
        if case .int64(let value)? = fields[key] { return value }
        return nil
    }
}

/// The seed of a randomised test: `$STRATUS_SEED` to replay one, else a fresh one (printed).
func testSeed(_ name: String) -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["STRATUS_SEED"], let seed = UInt64(text) { return seed }
    let seed = UInt64.random(in: 1...UInt64(UInt32.max))
    print("\(name): seed \(seed) (replay with STRATUS_SEED=\(seed))")
    return seed
}
