import Foundation
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// `records/modify`: each CKWS operation type as the engine operation that means it, all in
/// one engine call (one write transaction), so the engine checks every change tag against the
/// record it writes.
///
/// `create` saves without a change tag (an existing record is a conflict); `update` and
/// `replace` check the tag, and `update` may leave the type out; `forceUpdate` writes the given
/// fields whatever the server holds; `replace` and `forceReplace` clear the fields they leave
/// out; `delete` checks the tag first, `forceDelete` does not.
enum ModifyEndpoint {
    private enum Kind: String {
        case create, update, forceUpdate, replace, forceReplace, delete, forceDelete

        var policy: RecordSavePolicy? {
            switch self {
            case .create, .update, .replace: return .ifServerRecordUnchanged
            case .forceUpdate: return .changedKeys
            case .forceReplace: return .allKeys
            case .delete, .forceDelete: return nil
            }
        }

        var needsTag: Bool { self == .update || self == .replace || self == .delete }

        /// The rule a save of this kind is written under (nil: a delete).
        var rule: SaveRule? {
            policy.map { SaveRule(policy: $0, replacesFields: self == .replace || self == .forceReplace, typeFromServer: self == .update) }
        }
    }

    private struct Operation {
        var index: Int
        var kind: Kind
        var record: Record
        /// The operation's record dictionary as sent (share keys are read from it).
        var json: JSONValue = .null

        /// A save of a `cloudkit.share` record: made through the engine's sharing calls.
        var savesShare: Bool { kind.policy != nil && ShareRecordType.isShareType(record.recordType) }

        /// The engine's operation for it.
        var engineOperation: RecordOperation {
            if let rule = kind.rule { return .save(record, rule) }
            return .delete(record.recordID, ifChangeTag: kind == .delete ? record.recordChangeTag : nil)
        }
    }

    /// One operation's answer, and what it came to for the request log.
    private typealias Answered = (entry: RecordEntry, outcome: ModifySummary.Outcome)

    static let maximumOperations = 200

    /// The answer, one entry per operation in order, with the log's summary of them.
    static func modify(_ call: CKWSCall) throws -> CKWSAnswer {
        guard case .array(let items)? = call.body["operations"] else {
            throw CKWSFailure.badRequest("operations: missing; send {\"operations\": [{\"operationType\", \"record\"}]}")
        }
        guard items.count <= maximumOperations else {
            throw CKWSFailure.badRequest("operations: \(items.count) operations; a request takes at most \(maximumOperations)")
        }
        let zoneID = try call.zoneID(call.body["zoneID"])
        let desiredKeys = try call.desiredKeys(call.body["desiredKeys"])
        var atomic = true
        if let flag = call.body["atomic"] {
            guard case .bool(let value) = flag else { throw CKWSFailure.badRequest("atomic must be true or false") }
            atomic = value
        }
        let operations = try items.enumerated().map { try operation($1, index: $0, zoneID: zoneID, call: call) }
        var seen: Set<String> = []
        for operation in operations where !seen.insert(operation.record.recordName).inserted {
            throw CKWSFailure.badRequest("operations[\(operation.index)]: record '\(operation.record.recordName)' appears in more than one operation")
        }
        // Only a custom zone is atomic, as in CloudKit.
        let isAtomic = atomic && !zoneID.isDefault
        let policies = Set(operations.compactMap { $0.kind.policy })
        if isAtomic && policies.count > 1 {
            throw CKWSFailure.badRequest("An atomic request here takes operations of one save policy (create, update and replace; forceUpdate; or forceReplace), with any deletes; send atomic: false or split the request")
        }
        var results = [Answered?](repeating: nil, count: operations.count)
        let records = operations.filter { !$0.savesShare && results[$0.index] == nil }
        if !records.isEmpty {
            let result = try call.database.modifyRecords(records.map(\.engineOperation), atomically: isAtomic)
            // The engine lists the saves in order, then the deletes.
            let saves = records.filter { $0.kind.policy != nil }
            let deletes = records.filter { $0.kind.policy == nil }
            for (operation, saved) in zip(saves, result.saveResults) {
                switch saved.result {
                case .success(let record): results[operation.index] = (call.entry(record.trimmed(to: desiredKeys)), .saved)
                case .failure(let error): results[operation.index] = item(error, name: operation.record.recordName, owner: call.owner)
                }
            }
            for (operation, deleted) in zip(deletes, result.deleteResults) {
                switch deleted.result {
                case .success: results[operation.index] = (.json(DeletionJSON.record(operation.record.recordName)), .deleted)
                case .failure(let error): results[operation.index] = item(error, name: operation.record.recordName, owner: call.owner)
                }
            }
        }
        // Shares last: a share's root may be a record of this request.
        for operation in operations where operation.savesShare {
            let share = ShareOperations.save(operation.record, json: operation.json, creating: operation.kind == .create, zoneID: zoneID, call: call)
            results[operation.index] = (.json(share.json), share.failed ? .failed : .saved)
        }
        for operation in operations where operation.json["createShortGUID"]?.boolValue == true {
            if let answered = results[operation.index] {
                results[operation.index] = (ShareOperations.addingShortGUID(to: answered.entry, recordID: operation.record.recordID, call: call), answered.outcome)
            }
        }
        var summary = ModifySummary()
        for (operation, answered) in zip(operations, results) {
            if let answered { summary.add(answered.outcome, recordName: operation.record.recordName) }
        }
        return CKWSAnswer(bytes: call.answerWriter.records(results.map { $0?.entry ?? .json(.null) }), logDetail: summary.text)
    }

    /// A per-record error, with the server's record for a conflict; a failed atomic batch's
    /// bystanders are `ATOMIC_ERROR`.
    private static func item(_ error: CloudKitError, name: String, owner: String? = nil) -> Answered {
        (.json(error.ckwsItem(("recordName", .string(name)), owner: owner)), .failed)
    }

    private static func operation(_ json: JSONValue, index: Int, zoneID: ZoneID, call: CKWSCall) throws -> Operation {
        let path = "operations[\(index)]"
        guard let typeName = json["operationType"]?.stringValue, let kind = Kind(rawValue: typeName) else {
            throw CKWSFailure.badRequest("\(path).operationType: use create, update, forceUpdate, replace, forceReplace, delete or forceDelete")
        }
        guard let recordJSON = json["record"] else { throw CKWSFailure.badRequest("\(path).record: missing") }
        var record: Record
        if kind.policy == nil {
            guard let name = recordJSON["recordName"]?.stringValue else { throw CKWSFailure.badRequest("\(path).record.recordName: a delete names the record") }
            record = Record(recordType: recordJSON["recordType"]?.stringValue ?? "", recordID: RecordID(recordName: name, zoneID: zoneID))
            record.recordChangeTag = recordJSON["recordChangeTag"]?.stringValue
        } else {
            guard recordJSON["recordType"] != nil || json["recordType"] != nil || kind == .update else {
                throw CKWSFailure.badRequest("\(path).record.recordType: missing")
            }
            var source = recordJSON
            if source["recordType"] == nil, case .object(var members) = source {
                members.append(("recordType", json["recordType"] ?? .string("")))
                source = .object(members)
            }
            do {
                record = try RecordJSON.decode(source, zoneID: zoneID, schema: call.schema)
            } catch {
                throw CKWSFailure.badRequest("\(path).record.\(error.description)")
            }
            record.recordID = RecordID(recordName: record.recordName, zoneID: zoneID)
            if kind == .forceUpdate || kind == .forceReplace { record.recordChangeTag = nil }
            if kind == .create { record.recordChangeTag = nil }
        }
        if kind.needsTag && record.recordChangeTag == nil {
            throw CKWSFailure.badRequest("\(path).record.recordChangeTag: \(kind.rawValue) needs the change tag the client last saw; use force\(kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()) to skip the check")
        }
        return Operation(index: index, kind: kind, record: record, json: recordJSON)
    }
}
