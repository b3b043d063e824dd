import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The statement of ``SQLiteRecordStorage/find(zoneRowID:name:)`` prepared once, for callers that look up many names.
struct SQLiteRecordNameLookup: RecordNameLookup {
    let statement: Statement

    /// The record named `name` in the zone, if any.
    func find(zoneRowID: Int64, name: String) throws -> StoredRecord? {
        try SQLiteRecordStorage.first(of: statement, arguments: [zoneRowID, name])
    }
}
