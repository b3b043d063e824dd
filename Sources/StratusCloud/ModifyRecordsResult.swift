/// What `modifyRecords` did to each record it was given, in the order given.
public struct ModifyRecordsResult: Sendable {
    public struct Saved: Sendable {
        public var recordID: RecordID
        /// The record as stored, with its new change tag and dates, or why it was not saved.
        public var result: Result<Record, CloudKitError>

        package init(recordID: RecordID, result: Result<Record, CloudKitError>) {
            self.recordID = recordID
            self.result = result
        }
    }

    public struct Deleted: Sendable {
        public var recordID: RecordID
        public var result: Result<Void, CloudKitError>

        package init(recordID: RecordID, result: Result<Void, CloudKitError>) {
            self.recordID = recordID
            self.result = result
        }
    }

    public var saveResults: [Saved]
    public var deleteResults: [Deleted]
    /// Records deleted because they pointed with DELETE_SELF at a deleted record.
    public var cascadeDeletedRecordIDs: [RecordID]
    /// Those records as they were before the delete (the ones the caller may read), so that a
    /// client's undo can put back everything a delete took.
    public var cascadeDeletedRecords: [Record] = []

    package init(saveResults: [Saved], deleteResults: [Deleted], cascadeDeletedRecordIDs: [RecordID], cascadeDeletedRecords: [Record] = []) {
        self.saveResults = saveResults
        self.deleteResults = deleteResults
        self.cascadeDeletedRecordIDs = cascadeDeletedRecordIDs
        self.cascadeDeletedRecords = cascadeDeletedRecords
    }

    /// `partialFailure (2)` holding each failed item's error, or nil when every item succeeded.
    public var partialFailure: CloudKitError? {
        var errors: [String: CloudKitError] = [:]
        for item in saveResults { if case .failure(let error) = item.result { errors[item.recordID.recordName] = error } }
        for item in deleteResults { if case .failure(let error) = item.result { errors[item.recordID.recordName] = error } }
        guard !errors.isEmpty else { return nil }
        return CloudKitError(.partialFailure, "\(errors.count) of \(saveResults.count + deleteResults.count) items failed.", partialErrors: errors)
    }

    /// The saved records, when every save succeeded; otherwise throws the partial failure.
    public func savedRecords() throws -> [Record] {
        if let partialFailure { throw partialFailure }
        return saveResults.compactMap { try? $0.result.get() }
    }
}
