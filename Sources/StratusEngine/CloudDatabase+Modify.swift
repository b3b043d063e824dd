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
        try modifyRecords(ModifyItems(saving: saving, rule: SaveRule(policy: savePolicy), deleting: deleting), atomically: atomically)
    }

    /// Saves and deletes records as ``modifyRecords(saving:deleting:savePolicy:atomically:)``
    /// does, each under its own rule: a save's `SaveRule` (from StratusCloud: policy, fields replaced, type from
    /// the server) and a delete's change tag are checked against the server's record inside
    /// the one write transaction, so a request mixing them is one transaction and nothing can
    /// change a record between the check and the write.
    ///
    /// The results list the saves in the order they were given, and then the deletes.
    public func modifyRecords(_ operations: [RecordOperation], atomically: Bool = true) throws -> ModifyRecordsResult {
        try modifyRecords(ModifyItems(operations), atomically: atomically)
    }

    private func modifyRecords(_ items: ModifyItems, atomically: Bool) throws -> ModifyRecordsResult {
        try CloudDatabase.checkBatchSize(items.count)
        let faults = try faults(FaultCall(
            operation: .modify, scope: scope, zoneNames: Set(items.saving.map(\.recordID.zoneID.zoneName) + items.deleting.map(\.zoneID.zoneName)),
            savedRecordNames: items.saving.map(\.recordName), recordNames: items.saving.map(\.recordName) + items.deleting.map(\.recordName)))
        if !faults.otherDeviceSaves.isEmpty { try saveAsOtherDevice(faults.otherDeviceSaves, among: items.saving) }
        return try store.write { db in
            try modifyRecords(items, atomically: atomically, failing: faults.failingRecords, in: db)
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
                       indexBuffer: (any IndexRowBuffering)? = nil, in db: StoreTransaction) throws -> ModifyRecordsResult {
        try modifyRecords(ModifyItems(saving: saving, rule: SaveRule(policy: savePolicy), deleting: deleting), atomically: atomically,
                          indexBuffer: indexBuffer, in: db)
    }

    func modifyRecords(_ items: ModifyItems, atomically: Bool, failing: [String: CloudKitError] = [:],
                       indexBuffer: (any IndexRowBuffering)? = nil, in db: StoreTransaction) throws -> ModifyRecordsResult {
        var batch = try ModifyBatch(database: self, db: db)
        batch.failing = failing
        batch.indexBuffer = indexBuffer
        try batch.plan(items)
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
