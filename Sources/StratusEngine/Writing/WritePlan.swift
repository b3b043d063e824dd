import Foundation
import StratusModel
import StratusCloud

/// The rules of a write, in one place: what every path that writes records (a save, a bulk
/// fill, an import) asks before a record's row goes in — its name, the access gate, the zone,
/// the change tag its save policy checks, its type, its assets, its size — the schema a
/// development store grows from it, the zones' change sequences and tombstones, and what is
/// written once at the end. One plan per write transaction; it keeps what it looked up.
///
/// The callers differ only in how they batch: ``ModifyBatch`` plans a batch's items and then
/// writes them (all-or-nothing per atomic zone); ``RecordImporter`` writes restored records
/// many to a statement, system fields kept.
struct WritePlan {
    let database: CloudDatabase
    let db: StoreTransaction
    private(set) var catalog: SchemaCatalog
    private var validator: RecordValidator
    /// The engine's one permission check.
    let gate: AccessGate
    /// A refusal names its record in its message: an import's records are named nowhere
    /// else, while a save's result stands beside its record ID.
    let namesRecords: Bool
    let now = Date()
    private var zones: [ZoneID: Result<ZoneRow, CloudKitError>] = [:]
    /// The zone ``zoneMakingMissing(_:recordName:)`` found last, as asked for.
    private var lastZone: (requested: ZoneID, row: ZoneRow)?
    private var sequences: [Int64: Int64] = [:]
    private var tombstones: [Int64: Bool] = [:]
    private var knownAssets: Set<String> = []
    private var schemaGrew = false

    init(database: CloudDatabase, db: StoreTransaction, namesRecords: Bool = false) throws {
        self.database = database
        self.db = db
        self.namesRecords = namesRecords
        catalog = try database.store.catalog(db)
        validator = RecordValidator(environment: try db.schema.storeInfo()?.environment ?? .development, catalog: catalog)
        gate = AccessGate(database, db: db, catalog: catalog)
    }

    /// `error`, naming its record when this plan's refusals do.
    func refusal(_ error: CloudKitError, recordName: String) -> CloudKitError {
        guard namesRecords else { return error }
        var named = error
        named.message = "Record '\(recordName)': \(error.message)"
        return named
    }

    // MARK: - Zones

    /// The live zone `zoneID` names for the caller, looked up once per plan.
    mutating func zone(_ zoneID: ZoneID) -> Result<ZoneRow, CloudKitError> {
        if let known = zones[zoneID] { return known }
        let result = gate.zoneResult(zoneID)
        zones[zoneID] = result
        return result
    }

    /// The zone `zoneID` named, when this plan found it live.
    func lookedUpZone(_ zoneID: ZoneID) -> ZoneRow? {
        if case .success(let zone)? = zones[zoneID] { return zone }
        return nil
    }

    /// The zone a restored record goes to; a missing custom zone of the private database is
    /// made first.
    mutating func zoneMakingMissing(_ requested: ZoneID, recordName: String) throws -> ZoneRow {
        // Records of an import come zone by zone: the last zone is compared, not hashed.
        if let last = lastZone, last.requested == requested { return last.row }
        if case .success(let known)? = zones[requested] {
            lastZone = (requested, known)
            return known
        }
        do {
            let zoneID = database.scope.allowsCustomZones ? try gate.ownZoneID(requested) : requested
            if !zoneID.isDefault, database.scope.allowsCustomZones {
                if let problem = ZoneID.nameProblem(zoneID.zoneName) { throw CloudKitError(.invalidArguments, problem) }
                try db.zones.makeZone(zoneID, scope: database.scope, sequenceScope: database.sequenceScope)
            }
            let row = try gate.zone(requested)
            zones[requested] = .success(row)
            lastZone = (requested, row)
            return row
        } catch let error as CloudKitError {
            throw refusal(error, recordName: recordName)
        }
    }

    // MARK: - A record's rules

    /// CloudKit's rule for record names.
    func checkName(_ recordName: String) throws {
        if let problem = RecordID.problem(withName: recordName) {
            throw refusal(CloudKitError(.invalidArguments, "Invalid record name: \(problem)."), recordName: recordName)
        }
    }

    /// Whether the gate looks at the record a save replaces: only outside the private
    /// database, where every record is the caller's own.
    var gateReadsReplacedRecords: Bool { database.scope != .private }

    /// The gate's word on saving a record over `existing` (nil: a new record).
    func checkSave(recordName: String, recordType: String, parent: String?, existing: StoredRecord?, zone: ZoneRow) throws {
        do {
            try gate.checkSave(recordName: recordName, recordType: recordType, parent: parent, existing: existing, zone: zone)
        } catch let error as CloudKitError {
            throw refusal(error, recordName: recordName)
        }
    }

    /// The gate's word on deleting `existing`: nil to delete it, or the share a participant
    /// leaves by deleting its share record.
    @discardableResult
    func checkDelete(_ existing: StoredRecord, zone: ZoneRow) throws -> Int64? {
        try gate.checkDelete(existing, zone: zone)
    }

    /// The name of the type a stored record has.
    func typeName(of stored: StoredRecord) -> String { catalog.typeNames[stored.typeID] ?? "?" }

    /// A record keeps its type for life.
    func checkType(of existing: StoredRecord, savedAs recordType: String, recordName: String) throws {
        let typeName = typeName(of: existing)
        if typeName != recordType {
            throw CloudKitError(.invalidArguments, "Record '\(recordName)' is a '\(typeName)' on the server; a record cannot change its type to '\(recordType)'.")
        }
    }

    /// The change-tag check of `ifServerRecordUnchanged`: a save based on an older copy of the
    /// record, or a new record's save over a name taken since, is a conflict carrying the
    /// server's record; a save based on a record since deleted is `unknownItem`.
    func checkChangeTag(of record: Record, policy: RecordSavePolicy, existing: StoredRecord?, zone: ZoneRow) throws {
        guard policy == .ifServerRecordUnchanged else { return }
        if let existing {
            guard record.recordChangeTag != existing.changeTag else { return }
            let serverRecord = try existing.record(zoneID: zone.zoneID, typeName: typeName(of: existing))
            let why = record.recordChangeTag.map { "its change tag is \(existing.changeTag), the save was based on \($0)" }
                ?? "a record named '\(record.recordName)' already exists"
            throw CloudKitError(.serverRecordChanged, "The record changed on the server (\(why)). Merge with the server's record and save again, or use the changed-keys or all-keys policy.",
                                serverRecord: serverRecord)
        } else if let tag = record.recordChangeTag {
            throw CloudKitError(.unknownItem, "Record '\(record.recordName)' does not exist on the server, but the save carries change tag \(tag) as an update of it would. Save it as a new record, without a change tag.")
        }
    }

    /// A delete that names the change tag it was based on goes ahead only while the server's
    /// record, as the caller sees it, still has that tag. Worded as CloudKit Web Services words it.
    func checkDeleteTag(_ tag: String, recordID: RecordID, existing: StoredRecord?, zone: ZoneRow) throws {
        let notFound = CloudKitError(.unknownItem, "Record not found")
        guard let existing else { throw notFound }
        do {
            try gate.checkRead(existing, zone: zone)
        } catch is CloudKitError {
            throw notFound
        }
        guard existing.changeTag == tag else {
            let serverRecord = try existing.record(zoneID: recordID.zoneID, typeName: typeName(of: existing))
            throw CloudKitError(.serverRecordChanged, "oplock error: the record's change tag is \(existing.changeTag)", serverRecord: serverRecord)
        }
    }

    /// The schema's word on a record's fields (a development store learns new types and
    /// fields; a production store refuses them). `schemaFreeChecked`: the record passed
    /// ``RecordValidator/passesSchemaFreeChecks(recordName:recordType:fields:)`` already.
    mutating func validate(recordName: String, recordType: String, fields: [String: FieldValue], schemaFreeChecked: Bool = false) throws {
        if let error = validator.validate(recordType: recordType, fields: fields, schemaFreeChecked: schemaFreeChecked) {
            throw refusal(error, recordName: recordName)
        }
        if database.scope == .public, let entry = catalog.type(named: recordType), entry.hasEncryptedFields,
           let name = fields.keys.sorted().first(where: { entry.schema.fields[$0]?.isEncrypted == true }) {
            throw refusal(CloudKitError(.invalidArguments, "encrypted fields are not supported in the public database (field '\(name)')"), recordName: recordName)
        }
    }

    /// Every asset a record's fields point at is held by the store (or arrived with the write).
    mutating func checkAssets(_ fields: [String: FieldValue], recordName: String) throws {
        for (name, value) in fields where value.type.base == .asset {
            for case .asset(let asset) in value.elements where !knownAssets.contains(asset.fileChecksum) {
                guard try db.assets.holds(checksum: asset.fileChecksum) else {
                    throw refusal(CloudKitError(.assetFileNotFound, "Field '\(name)' points at asset \(asset.fileChecksum), which the store does not hold; upload its file first."),
                                  recordName: recordName)
                }
                knownAssets.insert(asset.fileChecksum)
            }
        }
    }

    /// Stores asset content that arrives with the records (an import's embedded files).
    mutating func store(assets: [Data]) throws {
        for data in assets {
            knownAssets.insert(try db.assets.insert(data).fileChecksum)
        }
    }

    /// CloudKit's limit on a record's size, assets aside.
    static func checkSize(_ blob: Data, recordName: String) throws {
        guard blob.count <= CloudDatabase.maximumRecordSize else {
            throw CloudKitError(.limitExceeded, "Record '\(recordName)' is \(blob.count) bytes without its assets; CloudKit's limit is 1 MB. Move large values into assets.")
        }
    }

    // MARK: - What the write changes besides the record

    /// Adds to the catalog the type and fields a record brings that it lacks (a development
    /// store's schema grows from its saves); true when it grew.
    mutating func growSchema(typeName: String, fields: [String: FieldValue], recordName: String) throws -> Bool {
        var grew = false
        do {
            if catalog.type(named: typeName) == nil {
                _ = try catalog.addType(typeName, systemIndexes: RecordTypeSchema.developmentSystemIndexes, in: db)
                grew = true
            }
            if let known = catalog.type(named: typeName)?.schema.fields {
                for (name, value) in fields where known[name] == nil {
                    try catalog.addField(SchemaField(name: name, type: value.type, indexes: value.type.defaultIndexes), toType: typeName, in: db)
                    grew = true
                }
            }
        } catch let error as CloudKitError {
            throw refusal(error, recordName: recordName)
        }
        schemaGrew = schemaGrew || grew
        return grew
    }

    /// Publishes the schema the write grew (its version goes up; readers see the new catalog).
    mutating func publishSchema() throws {
        guard schemaGrew else { return }
        try database.store.schemaChanged(db, catalog: &catalog)
        schemaGrew = false
    }

    /// The zone's next change sequence: every record written or deleted takes one.
    mutating func nextSequence(_ zone: ZoneRow) -> Int64 {
        let next = (sequences[zone.id] ?? zone.changeSequence) + 1
        sequences[zone.id] = next
        return next
    }

    /// Whether a zone has tombstones a record written under a deleted name must clear (a
    /// fresh zone being filled has none).
    mutating func zoneHasTombstones(_ zoneRowID: Int64) throws -> Bool {
        if let known = tombstones[zoneRowID] { return known }
        let has = try db.zones.hasTombstones(zoneRowID: zoneRowID)
        tombstones[zoneRowID] = has
        return has
    }

    /// What the write leaves once its records are written: the zones' change sequences, and
    /// the schema it grew.
    mutating func finish() throws {
        try db.zones.advance(sequences, sequenceScope: database.sequenceScope)
        try publishSchema()
    }
}
