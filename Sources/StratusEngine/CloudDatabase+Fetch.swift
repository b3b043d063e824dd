import Foundation
import StratusModel
import StratusCloud

/// The outcome of fetching one record by name.
public struct FetchedRecord: Sendable {
    public var recordID: RecordID
    /// The record, or `unknownItem` / `zoneNotFound`.
    public var result: Result<Record, CloudKitError>

    package init(recordID: RecordID, result: Result<Record, CloudKitError>) {
        self.recordID = recordID
        self.result = result
    }
}

extension CloudDatabase {
    /// Fetches records of any types by ID, as `CKFetchRecordsOperation`: one result per ID, in
    /// the order given.
    ///
    /// - Parameters:
    ///   - recordIDs: the records to fetch, in any zones of this database.
    ///   - desiredKeys: the fields to return; nil for all, an empty list for system fields only.
    ///   - progress: called after each record with the fraction done, for progress bars.
    public func records(
        for recordIDs: [RecordID], desiredKeys: [String]? = nil,
        progress: ((RecordID, Double) -> Void)? = nil
    ) throws -> [FetchedRecord] {
        try readAfterFaults(FaultCall(operation: .fetch, scope: scope, zoneNames: Set(recordIDs.map(\.zoneID.zoneName)),
                                      recordNames: recordIDs.map(\.recordName)), zone: recordIDs.first?.zoneID) { outcome, db in
            let failing = outcome.failingRecords
            let catalog = try store.catalog(db)
            let gate = AccessGate(self, db: db, catalog: catalog)
            let lookup = try db.records.nameLookup()
            let decoder = FieldDecoder()
            var zones: [ZoneID: Result<ZoneRow, CloudKitError>] = [:]
            func zone(_ zoneID: ZoneID) -> Result<ZoneRow, CloudKitError> {
                if let known = zones[zoneID] { return known }
                let zone = gate.zoneResult(zoneID)
                zones[zoneID] = zone
                return zone
            }
            // Each zone's records are looked up together: one round trip on a server's database.
            var names: [ZoneID: [String]] = [:]
            for recordID in recordIDs where failing[recordID.recordName] == nil { names[recordID.zoneID, default: []].append(recordID.recordName) }
            var found: [Int64: [String: StoredRecord]] = [:]
            for (zoneID, wanted) in names {
                guard case .success(let row) = zone(zoneID) else { continue }
                found[row.id] = try lookup.find(zoneRowID: row.id, names: wanted)
            }
            var results: [FetchedRecord] = []
            results.reserveCapacity(recordIDs.count)
            for (position, recordID) in recordIDs.enumerated() {
                let zone = zone(recordID.zoneID)
                let result: Result<Record, CloudKitError>
                if let error = failing[recordID.recordName] {
                    results.append(FetchedRecord(recordID: recordID, result: .failure(error)))
                    progress?(recordID, Double(position + 1) / Double(recordIDs.count))
                    continue
                }
                switch zone {
                case .failure(let error):
                    result = .failure(error)
                case .success(let zoneRow):
                    if let stored = found[zoneRow.id]?[recordID.recordName] {
                        do {
                            try gate.checkRead(stored, zone: zoneRow)
                        } catch let error as CloudKitError {
                            results.append(FetchedRecord(recordID: recordID, result: .failure(error)))
                            progress?(recordID, Double(position + 1) / Double(recordIDs.count))
                            continue
                        }
                        result = .success(try stored.record(zoneID: recordID.zoneID, typeName: catalog.typeNames[stored.typeID] ?? "?",
                                                            desiredKeys: desiredKeys, decoder: decoder))
                    } else {
                        result = .failure(CloudKitError(.unknownItem, "Record '\(recordID.recordName)' does not exist in zone '\(recordID.zoneID.zoneName)'."))
                    }
                }
                results.append(FetchedRecord(recordID: recordID, result: result))
                progress?(recordID, Double(position + 1) / Double(recordIDs.count))
            }
            return results
        }
    }

    /// Fetches one record, throwing `unknownItem` when it does not exist.
    public func record(for recordID: RecordID, desiredKeys: [String]? = nil) throws -> Record {
        try records(for: [recordID], desiredKeys: desiredKeys)[0].result.get()
    }
}
