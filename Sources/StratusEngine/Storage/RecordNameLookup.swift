import StratusCloud

/// Finds records by name with one prepared look-up, for callers that look up many names.
package protocol RecordNameLookup {
    /// The record named `name` in the zone, if any.
    func find(zoneRowID: Int64, name: String) throws -> StoredRecord?
}
