import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine

/// `records/lookup` and `records/modify`, split at 200 items a request.
extension RemoteDatabase {
    public func records(for recordIDs: [RecordID], desiredKeys: [String]?, progress: ((RecordID, Double) -> Void)?) throws -> [FetchedRecord] {
        var fetched: [FetchedRecord] = []
        fetched.reserveCapacity(recordIDs.count)
        // One request per run of IDs in one zone, at most 200 each; answers keep the order given.
        for run in RemoteDatabase.runs(recordIDs, zone: \.zoneID) {
            let zoneID = run[run.startIndex].zoneID
            var body: [(String, JSONValue)] = [("zoneID", zoneJSON(zoneID)),
                                               ("records", .array(run.map { .object([("recordName", .string($0.recordName))]) }))]
            if let desiredKeys { body.append(("desiredKeys", .array(desiredKeys.map { .string($0) }))) }
            let answer = try call("records/lookup", .object(body), zone: zoneID)
            for (item, recordID) in zip(try items(answer["records"], path: "records"), run) {
                if let error = ItemErrorJSON.decode(item, zoneID: zoneID) {
                    fetched.append(FetchedRecord(recordID: recordID, result: .failure(typed(error, zone: zoneID))))
                } else {
                    fetched.append(FetchedRecord(recordID: recordID, result: .success(try record(item, zoneID: zoneID))))
                }
                progress?(recordID, Double(fetched.count) / Double(recordIDs.count))
            }
        }
        return fetched
    }

    public func record(for recordID: RecordID, desiredKeys: [String]?) throws -> Record {
        guard let first = try records(for: [recordID], desiredKeys: desiredKeys, progress: nil).first else {
            throw CloudKitError(.unknownItem, "Record not found")
        }
        return try first.result.get()
    }

    /// Saves and deletes, 200 operations a request. An atomic batch larger than that is refused
    /// (CKWS keeps one request all-or-nothing, not several); a batch that fails part way says
    /// which operations were done and which were not sent.
    public func modifyRecords(saving: [Record], deleting: [RecordID], savePolicy: RecordSavePolicy, atomically: Bool) throws -> ModifyRecordsResult {
        let operations: [(Record?, RecordID)] = saving.map { ($0, $0.recordID) } + deleting.map { (nil, $0) }
        if atomically, operations.count > RemoteDatabase.batchLimit {
            throw CloudKitError(.limitExceeded, "an atomic batch of \(operations.count) operations is more than the \(RemoteDatabase.batchLimit) one CloudKit Web Services request takes; send it in smaller batches or not atomically")
        }
        var saved: [ModifyRecordsResult.Saved] = []
        var deleted: [ModifyRecordsResult.Deleted] = []
        var done = 0
        for chunk in RemoteDatabase.runs(operations, zone: \.1.zoneID) {
            let zoneID = chunk[chunk.startIndex].1.zoneID
            let body: JSONValue = .object([("zoneID", zoneJSON(zoneID)), ("atomic", .bool(atomically)),
                                           ("operations", .array(chunk.map { operation($0.0, $0.1, policy: savePolicy) }))])
            let answer: JSONValue
            do {
                answer = try call("records/modify", body, zone: zoneID)
            } catch let error as CloudKitError where done > 0 {
                throw RemoteDatabase.partlyDone(error, done: done, of: operations)
            }
            for (item, (record, recordID)) in zip(try items(answer["records"], path: "records"), chunk) {
                let failure = ItemErrorJSON.decode(item, zoneID: zoneID).map { typed($0, zone: zoneID) }
                if record != nil {
                    saved.append(.init(recordID: recordID, result: try failure.map { .failure($0) } ?? .success(self.record(item, zoneID: zoneID))))
                } else {
                    deleted.append(.init(recordID: recordID, result: failure.map { .failure($0) } ?? .success(())))
                }
            }
            done += chunk.count
        }
        return ModifyRecordsResult(saveResults: saved, deleteResults: deleted, cascadeDeletedRecordIDs: [])
    }

    @discardableResult
    public func save(_ record: Record) throws -> Record {
        let result = try modifyRecords(saving: [record], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
        guard let first = result.saveResults.first else { throw CloudKitError(.internalError, "the server answered no record") }
        return try first.result.get()
    }

    public func deleteRecord(withID recordID: RecordID) throws {
        let result = try modifyRecords(saving: [], deleting: [recordID], savePolicy: .ifServerRecordUnchanged, atomically: true)
        try result.deleteResults.first?.result.get()
    }

    /// Runs of items in one zone, at most 200 each, in the order given: one request each.
    static func runs<Item>(_ items: [Item], zone: (Item) -> ZoneID) -> [ArraySlice<Item>] {
        var runs: [ArraySlice<Item>] = []
        var start = 0
        while start < items.count {
            var end = start
            while end < items.count, end - start < RemoteDatabase.batchLimit, zone(items[end]) == zone(items[start]) { end += 1 }
            runs.append(items[start..<end])
            start = end
        }
        return runs
    }

    /// One `records/modify` operation: a save under `policy` (a record without a change tag is
    /// created), or a delete that ignores change tags, as `CKDatabase` deletes.
    private func operation(_ record: Record?, _ recordID: RecordID, policy: RecordSavePolicy) -> JSONValue {
        guard let record else {
            return .object([("operationType", .string("forceDelete")), ("record", .object([("recordName", .string(recordID.recordName))]))])
        }
        let type: String
        switch policy {
        case .ifServerRecordUnchanged: type = record.recordChangeTag == nil ? "create" : "update"
        case .changedKeys, .allKeys: type = "forceUpdate"
        }
        var json = RecordJSON.encode(record)
        if case .object(let members) = json {
            // The zone is the request's; dates and users are the server's to set.
            json = .object(members.filter { !["zoneID", "created", "modified"].contains($0.0) })
        }
        return .object([("operationType", .string(type)), ("record", json)])
    }

    /// A request of a split batch failed after others were done: which were, and which not.
    static func partlyDone(_ error: CloudKitError, done: Int, of operations: [(Record?, RecordID)]) -> CloudKitError {
        let names = operations.map(\.1.recordName)
        var partial: [String: CloudKitError] = [:]
        for name in names[done...] { partial[name] = error }
        let first = names[0..<done].prefix(3).joined(separator: ", ") + (done > 3 ? ", …" : "")
        return CloudKitError(.partialFailure, "the first \(done) of \(operations.count) operations were done (\(first)); the other \(operations.count - done) were not, because: \(error.message)",
                             partialErrors: partial, retryAfter: error.retryAfter)
    }
}
