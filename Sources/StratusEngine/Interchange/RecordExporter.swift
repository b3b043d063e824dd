import Foundation
import StratusModel
import StratusCloud
import StratusCKWS

extension CloudDatabase {
    /// How many records ``exportRecords(zone:recordType:embedAssets:chunkSize:write:progress:)`` would write.
    public func exportCount(zone: ZoneID? = nil, recordType: String? = nil) throws -> Int {
        try store.read { db in
            let (zones, typeID) = try RecordExporter.scope(self, zone: zone, recordType: recordType, db: db)
            var total = 0
            for zoneRow in zones {
                total += try db.records.count(zoneRowID: zoneRow.id, typeID: typeID)
            }
            return total
        }
    }

    /// Writes the records of this database as JSON lines in the CloudKit Web Services record
    /// shape (``RecordWriter``, the server's own encoder): one record per line, naming its zone, with its change tag
    /// and `created` / `modified` system fields. All live zones (default zone first, then by
    /// name) and all types unless `zone` / `recordType` narrow it; within a zone, records in
    /// the order of their last change.
    ///
    /// Streams: one read transaction (a consistent snapshot) and a cursor; `write` receives
    /// chunks of about `chunkSize` bytes, so memory stays flat however large the store.
    /// With `embedAssets`, the first record that points at an asset carries its content as a
    /// `data:` URL in the asset's `downloadURL`, so an import into another store restores it.
    ///
    /// - Returns: the number of records written.
    @discardableResult
    public func exportRecords(zone: ZoneID? = nil, recordType: String? = nil, embedAssets: Bool = true, chunkSize: Int = 1 << 20,
                              write: (Data) throws -> Void, progress: (Int) -> Void = { _ in }) throws -> Int {
        try store.read { db in
            let catalog = try store.catalog(db)
            var exporter = RecordExporter(db: db, catalog: catalog, embedAssets: embedAssets)
            let (zones, typeID) = try RecordExporter.scope(self, zone: zone, recordType: recordType, db: db)
            let gate = AccessGate(self, db: db, catalog: catalog)
            var buffer = JSONBytes(capacity: chunkSize + 64 * 1024)
            var count = 0
            for zoneRow in zones {
                // Only what the caller may read leaves; the check is per type (public) or per zone.
                var filters: [Int64: ((StoredRecord) throws -> Bool)?] = [:]
                try db.records.forEach(zoneRowID: zoneRow.id, typeID: typeID) { stored in
                    if filters[stored.typeID] == nil { filters[stored.typeID] = .some(try gate.readFilter(zone: zoneRow, typeName: catalog.typeNames[stored.typeID])) }
                    if let visible = filters[stored.typeID] ?? nil, try !visible(stored) { return }
                    try exporter.append(stored, zoneID: zoneRow.zoneID, to: &buffer)
                    count += 1
                    if buffer.bytes.count >= chunkSize {
                        try write(Data(buffer.bytes))
                        buffer.removeAll()
                        progress(count)
                    }
                }
            }
            if !buffer.bytes.isEmpty { try write(Data(buffer.bytes)) }
            progress(count)
            return count
        }
    }
}

/// Turns stored records into JSON lines.
struct RecordExporter {
    let db: StoreTransaction
    let catalog: SchemaCatalog
    /// Gives each asset's first appearance its content; nil when assets stay checksums.
    private var embedder: AssetEmbedder?

    init(db: StoreTransaction, catalog: SchemaCatalog, embedAssets: Bool) {
        self.db = db
        self.catalog = catalog
        embedder = embedAssets ? AssetEmbedder(read: { [db] checksum in try db.assets.data(checksum: checksum) }) : nil
    }

    static func scope(_ database: CloudDatabase, zone: ZoneID?, recordType: String?, db: StoreTransaction) throws -> ([ZoneRow], Int64?) {
        let gate = try database.gate(db)
        let zones = try zone.map { [try gate.zone($0)] } ?? gate.zones()
        var typeID: Int64?
        if let recordType {
            guard let type = try database.store.catalog(db).type(named: recordType) else {
                throw CloudKitError(.unknownItem, "Did not find record type: '\(recordType)'.", reason: .unknownRecordType(recordType))
            }
            typeID = type.id
        }
        return (zones, typeID)
    }

    /// One line: the record, then a newline.
    mutating func append(_ stored: StoredRecord, zoneID: ZoneID, to buffer: inout JSONBytes) throws {
        let record = try stored.record(zoneID: zoneID, typeName: catalog.typeNames[stored.typeID] ?? "?")
        if embedder != nil {
            try embedder!.write(record, into: &buffer)
        } else {
            RecordWriter().write(record, into: &buffer)
        }
        buffer.newline()
    }
}
