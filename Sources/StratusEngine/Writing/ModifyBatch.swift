import Foundation
import StratusModel
import StratusCloud

/// The work of one `modifyRecords` call inside its transaction: plan every item under the
/// ``WritePlan``'s rules (validate, check change tags, merge fields), apply all-or-nothing per
/// atomic zone, then write.
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
        /// The share a participant leaves by deleting its share record: nothing is deleted.
        var leavesShare: Int64?
    }

    let database: CloudDatabase
    let db: StoreTransaction
    var plan: WritePlan
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
    /// The records a save of many replaces, looked up together before planning, by zone row and name.
    private var found: [Int64: [String: StoredRecord]] = [:]

    init(database: CloudDatabase, db: StoreTransaction) throws {
        self.database = database
        self.db = db
        plan = try WritePlan(database: database, db: db)
    }

    mutating func plan(_ items: ModifyItems) throws {
        saveIDs = items.saving.map(\.recordID)
        deleteIDs = items.deleting
        if items.saving.count > 1 { try findSaved(items.saving) }
        var seen: Set<RecordID> = []
        for (index, record) in items.saving.enumerated() {
            do {
                try checkItem(record.recordID, seen: &seen)
                saves.append(try planSave(record, rule: items.rules[index], index: index))
            } catch let error as CloudKitError {
                saveErrors[index] = error
            }
        }
        for (index, recordID) in items.deleting.enumerated() {
            do {
                try checkItem(recordID, seen: &seen)
                deletes.append(try planDelete(recordID, ifChangeTag: items.deleteTags[index], index: index))
            } catch let error as CloudKitError {
                deleteErrors[index] = error
            }
        }
    }

    /// Looks up the records the saves may replace, a zone at a time (a backend on a network
    /// answers them in one round trip). Zones and names that fail are left to planning to report.
    private mutating func findSaved(_ records: [Record]) throws {
        var names: [Int64: [String]] = [:]
        for record in records where RecordID.problem(withName: record.recordName) == nil {
            guard case .success(let zone) = plan.zone(record.recordID.zoneID) else { continue }
            names[zone.id, default: []].append(record.recordName)
        }
        for (zoneRowID, zoneNames) in names { found[zoneRowID] = try db.records.find(zoneRowID: zoneRowID, names: zoneNames) }
    }

    /// What fails an item before its record is looked at: a second item for one record, or a
    /// fault of the plan.
    private func checkItem(_ recordID: RecordID, seen: inout Set<RecordID>) throws {
        guard seen.insert(recordID).inserted else {
            throw CloudKitError(.invalidArguments, "Record '\(recordID.recordName)' appears more than once in one batch.")
        }
        if let error = failing[recordID.recordName] { throw error }
    }

    private mutating func planSave(_ given: Record, rule: SaveRule, index: Int) throws -> PlannedSave {
        var record = given
        try plan.checkName(record.recordName)
        let zone = try plan.zone(record.recordID.zoneID).get()
        let existing = try found[zone.id].map { $0[record.recordName] } ?? db.records.find(zoneRowID: zone.id, name: record.recordName)
        if rule.typeFromServer, record.recordType.isEmpty, let existing { record.recordType = plan.typeName(of: existing) }
        try plan.checkSave(recordName: record.recordName, recordType: record.recordType, parent: record.parent?.recordName, existing: existing, zone: zone)
        var fields: [String: FieldValue]
        var existingFields: [String: FieldValue] = [:]
        if let existing {
            existingFields = try existing.fields()
            try plan.checkType(of: existing, savedAs: record.recordType, recordName: record.recordName)
            try plan.checkChangeTag(of: record, policy: rule.policy, existing: existing, zone: zone)
            if rule.replacesFields {
                fields = record.fields.mapValues(\.normalized)
            } else {
                fields = existingFields
                let keys = rule.policy == .allKeys ? record.changedKeys.union(record.fields.keys) : record.changedKeys
                for key in keys { fields[key] = record.fields[key]?.normalized }
            }
        } else {
            try plan.checkChangeTag(of: record, policy: rule.policy, existing: nil, zone: zone)
            fields = record.fields.mapValues(\.normalized)
        }
        try plan.validate(recordName: record.recordName, recordType: record.recordType, fields: fields)
        try plan.checkAssets(fields, recordName: record.recordName)
        let blob = FieldCoder.encode(fields)
        try WritePlan.checkSize(blob, recordName: record.recordName)
        return PlannedSave(index: index, zone: zone, record: record, existing: existing, existingFields: existingFields, fields: fields, blob: blob)
    }

    private mutating func planDelete(_ recordID: RecordID, ifChangeTag tag: String?, index: Int) throws -> PlannedDelete {
        let zone = try plan.zone(recordID.zoneID).get()
        let existing = try db.records.find(zoneRowID: zone.id, name: recordID.recordName)
        if let tag { try plan.checkDeleteTag(tag, recordID: recordID, existing: existing, zone: zone) }
        guard let existing else {
            throw CloudKitError(.unknownItem, "Record '\(recordID.recordName)' does not exist in zone '\(recordID.zoneID.zoneName)'.")
        }
        let leaving = try plan.checkDelete(existing, zone: zone)
        return PlannedDelete(index: index, zone: zone, existing: existing, leavesShare: leaving)
    }

    /// In atomic batches, one failure in a custom zone fails every other item of that zone.
    mutating func applyAtomicity(_ atomically: Bool) {
        guard atomically else { return }
        // By zone row: a zone named with its owner and without is one zone.
        var failedZones: Set<Int64> = []
        for index in saveErrors.keys { if let zone = plan.lookedUpZone(saveIDs[index].zoneID), !zone.zoneID.isDefault { failedZones.insert(zone.id) } }
        for index in deleteErrors.keys { if let zone = plan.lookedUpZone(deleteIDs[index].zoneID), !zone.zoneID.isDefault { failedZones.insert(zone.id) } }
        guard !failedZones.isEmpty else { return }
        let batchFailed = CloudKitError(.batchRequestFailed, "Not saved: another record of this atomic batch failed.")
        saves.removeAll { save in
            guard failedZones.contains(save.zone.id) else { return false }
            saveErrors[save.index] = batchFailed
            return true
        }
        deletes.removeAll { delete in
            guard failedZones.contains(delete.zone.id) else { return false }
            deleteErrors[delete.index] = batchFailed
            return true
        }
    }

    mutating func commit() throws -> ModifyRecordsResult {
        for save in saves {
            _ = try plan.growSchema(typeName: save.record.recordType, fields: save.fields, recordName: save.record.recordName)
        }
        try plan.publishSchema()
        let catalog = plan.catalog
        let now = plan.now
        var notifier = try SubscriptionNotifier(database: database, db: db, catalog: catalog, now: now)
        let nowMilliseconds = FieldValue.milliseconds(now)
        let writer = db.records
        var saved: [Int: Record] = [:]
        // Held-back index rows serve a batch of new records only: changing or deleting a record
        // (and cascading) reads and removes index rows, so the held ones go in first.
        let buffer = deletes.isEmpty && saves.allSatisfy({ $0.existing == nil }) ? indexBuffer : nil
        if buffer == nil { try indexBuffer?.flush() }
        for save in saves {
            guard let type = catalog.type(named: save.record.recordType) else { continue }
            let sequence = plan.nextSequence(save.zone)
            let tag = ChangeTag.make()
            let parent = save.record.parent?.recordName
            let changedKeys = ChangedKeys.encode(ChangedKeys.between(save.existing == nil ? nil : save.existingFields, save.fields))
            let row = RecordRow(zoneRowID: save.zone.id, name: save.record.recordName, typeID: type.id, blob: save.blob, changeTag: tag,
                                sequence: sequence, createdAt: save.existing?.createdAt ?? nowMilliseconds,
                                createdBy: save.existing?.createdBy ?? database.user, modifiedAt: nowMilliseconds,
                                modifiedBy: database.user, parent: parent, changedKeys: changedKeys)
            if let existing = save.existing {
                try writer.replace(existing, oldFields: save.existingFields, oldType: type, update: .all(row), fields: save.fields, type: type,
                                   buffer: buffer)
            } else if try writer.insert(row, fields: save.fields, type: type, buffer: buffer,
                                        clearingTombstone: plan.zoneHasTombstones(save.zone.id)) == nil {
                throw CloudKitError(.internalError, "Record '\(save.record.recordName)' was planned as new, but its name is taken.")
            }
            let createdAt = save.existing?.createdAt ?? nowMilliseconds
            saved[save.index] = Record(stored: save.record.recordID, recordType: save.record.recordType, fields: save.fields, changeTag: tag,
                                       created: FieldValue.date(milliseconds: createdAt), createdBy: save.existing?.createdBy ?? database.user,
                                       modified: FieldValue.date(milliseconds: nowMilliseconds), modifiedBy: database.user,
                                       parent: save.record.parent)
            try notifier.recordSaved(saved[save.index]!, zone: save.zone, previous: save.existing, previousFields: save.existingFields)
        }
        var cascaded: [RecordID] = []
        var cascadedRecords: [Record] = []
        var cascade = DeleteCascade(db: db)
        for delete in deletes {
            if let shareID = delete.leavesShare, let user = database.caller.userRecordName {
                // The zone leaves this participant's shared database; the share stays for others.
                try db.shares.setStatus(.removed, of: user, in: shareID, databaseSequence: try CloudDatabase.nextDatabaseSequence(scope: .private, in: db))
                continue
            }
            try cascade.run(from: delete.existing) { victim, isRoot in
                try db.records.delete(victim, catalog: catalog, sequence: plan.nextSequence(delete.zone))
                // Deleting a share's record, or the root it shares, ends the share (CloudKit's rule).
                for shareID in try db.shares.touching(zoneRowID: delete.zone.id, recordName: victim.name) {
                    try db.shares.end(shareID, databaseSequence: try database.nextDatabaseSequence(db))
                }
                try notifier.recordDeleted(victim, zone: delete.zone)
                if !isRoot {
                    cascaded.append(RecordID(recordName: victim.name, zoneID: delete.zone.zoneID))
                    // As it was, for a caller who may read it (an undo puts it back).
                    if let typeName = catalog.typeNames[victim.typeID], try plan.gate.readFilter(zone: delete.zone, typeName: typeName).map({ try $0(victim) }) ?? true {
                        cascadedRecords.append(try victim.record(zoneID: delete.zone.zoneID, typeName: typeName))
                    }
                }
            }
        }
        try plan.finish()
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
}
