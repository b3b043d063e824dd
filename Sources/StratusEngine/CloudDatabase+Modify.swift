import Foundation
import StratusModel
import StratusCloud

extension CloudDatabase {
    /// Saves and deletes records in one transaction, as `CKModifyRecordsOperation`.
    ///
    /// With `atomically` (the default, as CloudKit's), the records of each custom zone are all
    /// written or none: the failing record gets its error and the others `batchRequestFailed`.
    /// In the default zone, and without `atomically`, each record succeeds or fails on its own.
    /// Deleting a record also deletes, in the same transaction, every record that points at it
    /// with a DELETE_SELF reference, recursively.
    ///
    /// - Throws: `limitExceeded` for a batch over 400 items; per-item failures are in the result.
    public func modifyRecords(
        saving: [Record] = [], deleting: [RecordID] = [],
        savePolicy: RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true
    ) throws -> ModifyRecordsResult {
        try CloudDatabase.checkBatchSize(saving.count + deleting.count)
        let faults = try faults(FaultCall(
            operation: .modify, scope: scope, zoneNames: Set(saving.map(\.recordID.zoneID.zoneName) + deleting.map(\.zoneID.zoneName)),
            savedRecordNames: saving.map(\.recordName), recordNames: saving.map(\.recordName) + deleting.map(\.recordName)))
        if !faults.otherDeviceSaves.isEmpty { try saveAsOtherDevice(faults.otherDeviceSaves, among: saving) }
        return try store.write { db in
            try modifyRecords(saving: saving, deleting: deleting, savePolicy: savePolicy, atomically: atomically,
                              failing: faults.failingRecords, in: db)
        }
    }

    /// CloudKit's limit on the items of one modify operation.
    static func checkBatchSize(_ items: Int) throws {
        guard items <= CloudDatabase.maximumBatchSize else {
            throw CloudKitError(.limitExceeded, "A batch holds \(items) items; the limit is \(CloudDatabase.maximumBatchSize). Split it into smaller batches.")
        }
    }

    /// `modifyRecords` inside a transaction the caller holds (sharing writes a share record
    /// and its own rows in one). `failing` gives records a fault fails before they are planned.
    func modifyRecords(saving: [Record], deleting: [RecordID], savePolicy: RecordSavePolicy, atomically: Bool,
                       failing: [String: CloudKitError] = [:], indexBuffer: (any IndexRowBuffering)? = nil, in db: StoreTransaction) throws -> ModifyRecordsResult {
        var batch = try ModifyBatch(database: self, db: db, savePolicy: savePolicy)
        batch.failing = failing
        batch.indexBuffer = indexBuffer
        try batch.plan(saving: saving, deleting: deleting)
        batch.applyAtomicity(atomically)
        return try batch.commit()
    }

    /// Saves one record with the default policy and returns it as stored.
    @discardableResult
    public func save(_ record: Record) throws -> Record {
        let result = try modifyRecords(saving: [record])
        return try result.saveResults[0].result.get()
    }

    /// Deletes one record (and what points at it with DELETE_SELF).
    public func deleteRecord(withID recordID: RecordID) throws {
        let result = try modifyRecords(deleting: [recordID])
        try result.deleteResults[0].result.get()
    }
}

/// The work of one `modifyRecords` call inside its transaction: plan every item (validate,
/// check change tags, merge fields), apply all-or-nothing per atomic zone, then write.
struct ModifyBatch {
    struct PlannedSave {
        var index: Int
        var zone: ZoneRow
        var record: Record
        var existing: StoredRecord?
        var existingFields: [String: FieldValue]
        var fields: [String: FieldValue]
        var blob: Data
    }

    struct PlannedDelete {
        var index: Int
        var zone: ZoneRow
        var existing: StoredRecord
    }

    let database: CloudDatabase
    let db: StoreTransaction
    let savePolicy: RecordSavePolicy
    var catalog: SchemaCatalog
    var validator: RecordValidator
    let gate: AccessGate
    var zones: [ZoneID: Result<ZoneRow, CloudKitError>] = [:]
    var saveIDs: [RecordID] = []
    var deleteIDs: [RecordID] = []
    var saveErrors: [Int: CloudKitError] = [:]
    var deleteErrors: [Int: CloudKitError] = [:]
    var saves: [PlannedSave] = []
    var deletes: [PlannedDelete] = []
    /// Records a fault fails (partialFailure), with their errors.
    var failing: [String: CloudKitError] = [:]
    /// In a bulk write, where new records' index rows wait to be written sorted.
    var indexBuffer: (any IndexRowBuffering)?
    let now = Date()

    init(database: CloudDatabase, db: StoreTransaction, savePolicy: RecordSavePolicy) throws {
        self.database = database
        self.db = db
        self.savePolicy = savePolicy
        catalog = try database.store.catalog(db)
        let environment = try db.schema.storeInfo()?.environment ?? .development
        validator = RecordValidator(environment: environment, catalog: catalog)
        gate = AccessGate(database, db: db, catalog: catalog)
    }

    mutating func zone(_ zoneID: ZoneID) -> Result<ZoneRow, CloudKitError> {
        if let known = zones[zoneID] { return known }
        let result: Result<ZoneRow, CloudKitError>
        do {
            result = .success(try gate.zone(zoneID))
        } catch let error as CloudKitError {
            result = .failure(error)
        } catch {
            result = .failure(CloudKitError(.internalError, "\(error)"))
        }
        zones[zoneID] = result
        return result
    }

    mutating func plan(saving: [Record], deleting: [RecordID]) throws {
        saveIDs = saving.map(\.recordID)
        deleteIDs = deleting
        var seen: Set<RecordID> = []
        for (index, record) in saving.enumerated() {
            guard seen.insert(record.recordID).inserted else {
                saveErrors[index] = CloudKitError(.invalidArguments, "Record '\(record.recordName)' appears more than once in one batch.")
                continue
            }
            if let error = failing[record.recordName] {
                saveErrors[index] = error
                continue
            }
            do {
                saves.append(try planSave(record, index: index))
            } catch let error as CloudKitError {
                saveErrors[index] = error
            }
        }
        for (index, recordID) in deleting.enumerated() {
            guard seen.insert(recordID).inserted else {
                deleteErrors[index] = CloudKitError(.invalidArguments, "Record '\(recordID.recordName)' appears more than once in one batch.")
                continue
            }
            if let error = failing[recordID.recordName] {
                deleteErrors[index] = error
                continue
            }
            do {
                let zone = try zone(recordID.zoneID).get()
                guard let existing = try db.records.find(zoneRowID: zone.id, name: recordID.recordName) else {
                    throw CloudKitError(.unknownItem, "Record '\(recordID.recordName)' does not exist in zone '\(recordID.zoneID.zoneName)'.")
                }
                try gate.checkDelete(existing, zone: zone)
                deletes.append(PlannedDelete(index: index, zone: zone, existing: existing))
            } catch let error as CloudKitError {
                deleteErrors[index] = error
            }
        }
    }

    private mutating func planSave(_ record: Record, index: Int) throws -> PlannedSave {
        if let problem = RecordID.problem(withName: record.recordName) {
            throw CloudKitError(.invalidArguments, "Invalid record name: \(problem).")
        }
        let zone = try zone(record.recordID.zoneID).get()
        let existing = try db.records.find(zoneRowID: zone.id, name: record.recordName)
        try gate.checkSave(recordName: record.recordName, recordType: record.recordType, parent: record.parent?.recordName, existing: existing, zone: zone)
        var fields: [String: FieldValue] = [:]
        var existingFields: [String: FieldValue] = [:]
        if let existing {
            let typeName = catalog.typeNames[existing.typeID] ?? "?"
            existingFields = try existing.fields()
            if typeName != record.recordType {
                throw CloudKitError(.invalidArguments, "Record '\(record.recordName)' is a '\(typeName)' on the server; a record cannot change its type to '\(record.recordType)'.")
            }
            if savePolicy == .ifServerRecordUnchanged, record.recordChangeTag != existing.changeTag {
                let serverRecord = try existing.record(zoneID: zone.zoneID, typeName: typeName)
                let why = record.recordChangeTag == nil
                    ? "a record named '\(record.recordName)' already exists"
                    : "its change tag is \(existing.changeTag), the save was based on \(record.recordChangeTag!)"
                throw CloudKitError(.serverRecordChanged, "The record changed on the server (\(why)). Merge with the server's record and save again, or use the changed-keys or all-keys policy.",
                                    serverRecord: serverRecord)
            }
            fields = existingFields
            let keys = savePolicy == .allKeys ? record.changedKeys.union(record.fields.keys) : record.changedKeys
            for key in keys { fields[key] = record.fields[key]?.normalized }
        } else {
            if savePolicy == .ifServerRecordUnchanged, let tag = record.recordChangeTag {
                throw CloudKitError(.unknownItem, "Record '\(record.recordName)' does not exist on the server, but the save carries change tag \(tag) as an update of it would. Save it as a new record, without a change tag.")
            }
            fields = record.fields.mapValues(\.normalized)
        }
        if let error = validator.validate(recordType: record.recordType, fields: fields) { throw error }
        try checkAssets(fields)
        let blob = FieldCoder.encode(fields)
        guard blob.count <= CloudDatabase.maximumRecordSize else {
            throw CloudKitError(.limitExceeded, "Record '\(record.recordName)' is \(blob.count) bytes without its assets; CloudKit's limit is 1 MB. Move large values into assets.")
        }
        return PlannedSave(index: index, zone: zone, record: record, existing: existing, existingFields: existingFields, fields: fields, blob: blob)
    }

    private func checkAssets(_ fields: [String: FieldValue]) throws {
        for (name, value) in fields {
            for case .asset(let asset) in value.elements {
                if try !db.assets.holds(checksum: asset.fileChecksum) {
                    throw CloudKitError(.assetFileNotFound, "Field '\(name)' points at asset \(asset.fileChecksum), which the store does not hold; upload its file first.")
                }
            }
        }
    }

    /// In atomic batches, one failure in a custom zone fails every other item of that zone.
    mutating func applyAtomicity(_ atomically: Bool) {
        guard atomically else { return }
        // By zone row: a zone named with its owner and without is one zone.
        var failedZones: Set<Int64> = []
        for index in saveErrors.keys { if case .success(let zone)? = zones[saveIDs[index].zoneID], !zone.zoneID.isDefault { failedZones.insert(zone.id) } }
        for index in deleteErrors.keys { if case .success(let zone)? = zones[deleteIDs[index].zoneID], !zone.zoneID.isDefault { failedZones.insert(zone.id) } }
        guard !failedZones.isEmpty else { return }
        let batchFailed = CloudKitError(.batchRequestFailed, "Not saved: another record of this atomic batch failed.")
        saves.removeAll { plan in
            guard failedZones.contains(plan.zone.id) else { return false }
            saveErrors[plan.index] = batchFailed
            return true
        }
        deletes.removeAll { plan in
            guard failedZones.contains(plan.zone.id) else { return false }
            deleteErrors[plan.index] = batchFailed
            return true
        }
    }

    mutating func commit() throws -> ModifyRecordsResult {
        try addSchemaFields()
        var notifier = try SubscriptionNotifier(database: database, db: db, catalog: catalog, now: now)
        var sequences: [Int64: Int64] = [:]
        func nextSequence(_ zone: ZoneRow) -> Int64 {
            let next = (sequences[zone.id] ?? zone.changeSequence) + 1
            sequences[zone.id] = next
            return next
        }
        let nowMilliseconds = FieldValue.milliseconds(now)
        let writer = db.records
        var saved: [Int: Record] = [:]
        // Held-back index rows serve a batch of new records only: changing or deleting a record
        // (and cascading) reads and removes index rows, so the held ones go in first.
        let buffer = deletes.isEmpty && saves.allSatisfy({ $0.existing == nil }) ? indexBuffer : nil
        if buffer == nil { try indexBuffer?.flush() }
        for plan in saves {
            guard let type = catalog.type(named: plan.record.recordType) else { continue }
            let sequence = nextSequence(plan.zone)
            let tag = ChangeTag.make()
            let parent = plan.record.parent?.recordName
            let changedKeys = ChangedKeys.encode(ChangedKeys.between(plan.existing == nil ? nil : plan.existingFields, plan.fields))
            let row = RecordRow(zoneRowID: plan.zone.id, name: plan.record.recordName, typeID: type.id, blob: plan.blob, changeTag: tag,
                                          sequence: sequence, createdAt: plan.existing?.createdAt ?? nowMilliseconds,
                                          createdBy: plan.existing?.createdBy ?? database.user, modifiedAt: nowMilliseconds,
                                          modifiedBy: database.user, parent: parent, changedKeys: changedKeys)
            if let existing = plan.existing {
                try writer.replace(existing, oldFields: plan.existingFields, oldType: type, update: .all(row), fields: plan.fields, type: type,
                                   buffer: buffer)
            } else if try writer.insert(row, fields: plan.fields, type: type, buffer: buffer) == nil {
                throw CloudKitError(.internalError, "Record '\(plan.record.recordName)' was planned as new, but its name is taken.")
            }
            let createdAt = plan.existing?.createdAt ?? nowMilliseconds
            saved[plan.index] = Record(stored: plan.record.recordID, recordType: plan.record.recordType, fields: plan.fields, changeTag: tag,
                                       created: FieldValue.date(milliseconds: createdAt), createdBy: plan.existing?.createdBy ?? database.user,
                                       modified: FieldValue.date(milliseconds: nowMilliseconds), modifiedBy: database.user,
                                       parent: plan.record.parent)
            try notifier.recordSaved(saved[plan.index]!, zone: plan.zone, previous: plan.existing, previousFields: plan.existingFields)
        }
        var cascaded: [RecordID] = []
        var cascadedRecords: [Record] = []
        var cascade = DeleteCascade(db: db)
        for plan in deletes {
            try cascade.run(from: plan.existing) { victim, isRoot in
                try db.records.delete(victim, catalog: catalog, sequence: nextSequence(plan.zone))
                // Deleting a share's record, or the root it shares, ends the share (CloudKit's rule).
                for shareID in try db.shares.touching(zoneRowID: plan.zone.id, recordName: victim.name) {
                    try db.shares.end(shareID, databaseSequence: try database.nextDatabaseSequence(db))
                }
                try notifier.recordDeleted(victim, zone: plan.zone)
                if !isRoot {
                    cascaded.append(RecordID(recordName: victim.name, zoneID: plan.zone.zoneID))
                    // As it was, for a caller who may read it (an undo puts it back).
                    if let typeName = catalog.typeNames[victim.typeID], try gate.readFilter(zone: plan.zone, typeName: typeName).map({ try $0(victim) }) ?? true {
                        cascadedRecords.append(try victim.record(zoneID: plan.zone.zoneID, typeName: typeName))
                    }
                }
            }
        }
        try db.zones.advance(sequences, sequenceScope: database.sequenceScope)
        try notifier.finish()
        return ModifyRecordsResult(
            saveResults: saveIDs.indices.map { index in
                ModifyRecordsResult.Saved(recordID: saveIDs[index], result: saved[index].map { .success($0) } ?? .failure(saveErrors[index] ?? CloudKitError(.internalError, "Record was not written.")))
            },
            deleteResults: deleteIDs.indices.map { index in
                ModifyRecordsResult.Deleted(recordID: deleteIDs[index], result: deleteErrors[index].map { .failure($0) } ?? .success(()))
            },
            cascadeDeletedRecordIDs: cascaded,
            cascadeDeletedRecords: cascadedRecords
        )
    }

    /// Persists the types and fields the surviving saves introduced (development stores).
    private mutating func addSchemaFields() throws {
        var changed = false
        for plan in saves {
            let typeName = plan.record.recordType
            if catalog.type(named: typeName) == nil {
                _ = try catalog.addType(typeName, systemIndexes: RecordTypeSchema.developmentSystemIndexes, in: db)
                changed = true
            }
            for (name, value) in plan.fields where catalog.type(named: typeName)?.schema.fields[name] == nil {
                try catalog.addField(SchemaField(name: name, type: value.type, indexes: value.type.defaultIndexes), toType: typeName, in: db)
                changed = true
            }
        }
        if changed { try database.store.schemaChanged(db, catalog: &catalog) }
    }
}
