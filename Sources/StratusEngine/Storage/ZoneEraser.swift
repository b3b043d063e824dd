import GRDB
import StratusCloud

/// Deletes everything a zone holds, in the caller's transaction: records, their index rows and
/// the zone's tombstones. The zone row itself stays so database changes can report the deletion.
struct ZoneEraser {
    let db: StoreTransaction
    let zoneRowID: Int64

    /// Erases the zone's contents and ends its shares (`databaseSequence` orders their
    /// participants' loss of access in their shared databases).
    func eraseContents(databaseSequence: Int64) throws {
        for share in try ShareRows.live(zoneRowID: zoneRowID, in: db) {
            try ShareRows.end(share.id, databaseSequence: databaseSequence, in: db)
        }
        try db.sqlite.execute(sql: "DELETE FROM record_text WHERE rowid IN (SELECT id FROM record WHERE zone_id = ?)", arguments: [zoneRowID])
        for table in ["field_value", "reference_edge", "tombstone", "record"] {
            try db.sqlite.execute(sql: "DELETE FROM \(table) WHERE zone_id = ?", arguments: [zoneRowID])
        }
    }
}
