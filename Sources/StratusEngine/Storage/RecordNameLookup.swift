import StratusCloud

/// Finds records by name with one prepared look-up, for callers that look up many names.
package protocol RecordNameLookup {
    /// The record named `name` in the zone, if any.
    func find(zoneRowID: Int64, name: String) throws -> StoredRecord?

    /// The records of a zone among `names`, by name: one round trip where a look-up costs one.
    func find(zoneRowID: Int64, names: [String]) throws -> [String: StoredRecord]
}

extension RecordNameLookup {
    /// One name at a time, where a look-up costs no round trip.
    package func find(zoneRowID: Int64, names: [String]) throws -> [String: StoredRecord] {
        var found: [String: StoredRecord] = [:]
        for name in names where found[name] == nil { found[name] = try find(zoneRowID: zoneRowID, name: name) }
        return found
    }
}
