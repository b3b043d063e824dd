import Foundation
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// `records/query`, `records/lookup` and `records/changes`: reads, each the same engine call
/// the command line makes.
enum RecordEndpoints {
    /// `records/query`: a CKWS query dictionary becomes the same checked query a predicate
    /// does; `continuationMarker` is the engine's cursor.
    static func query(_ call: CKWSCall) throws -> CKWSAnswer {
        let desiredKeys = try call.desiredKeys(call.body["desiredKeys"])
        let limit = try call.integer("resultsLimit")
        let page: QueryResultsPage
        if let marker = call.body["continuationMarker"]?.stringValue {
            page = try call.database.records(continuingMatchFrom: marker, desiredKeys: desiredKeys, resultsLimit: limit)
        } else {
            guard let queryJSON = call.body["query"] else { throw CKWSFailure.badRequest("query: missing; send {\"query\": {\"recordType\": ...}}") }
            let query: Query
            do {
                query = try QueryJSON.decode(queryJSON, schema: call.schema)
            } catch {
                throw CKWSFailure.badRequest(error.description)
            }
            page = try call.database.records(matching: query, inZoneWith: try call.zoneID(call.body["zoneID"]),
                                             desiredKeys: desiredKeys, resultsLimit: limit)
        }
        return CKWSAnswer(bytes: call.answerWriter.records(call.entries(page.records), continuationMarker: page.cursor))
    }

    /// `records/lookup`: one entry per requested name, in order; a missing record is a
    /// per-record `NOT_FOUND`.
    static func lookup(_ call: CKWSCall) throws -> CKWSAnswer {
        let zoneID = try call.zoneID(call.body["zoneID"])
        var requested: [JSONValue]
        switch call.body["records"] {
        case .array(let items)?: requested = items
        case .object?: requested = [call.body["records"]!]  // a single object, as some clients send
        default: throw CKWSFailure.badRequest("records: missing; send {\"records\": [{\"recordName\": ...}]}")
        }
        guard requested.count <= 200 else { throw CKWSFailure.badRequest("records: \(requested.count) records; a lookup takes at most 200") }
        let names = try requested.enumerated().map { index, item in
            guard let name = item["recordName"]?.stringValue else { throw CKWSFailure.badRequest("records[\(index)].recordName: missing") }
            return name
        }
        let fetched = try call.database.records(for: names.map { RecordID(recordName: $0, zoneID: zoneID) },
                                                desiredKeys: try call.desiredKeys(call.body["desiredKeys"]))
        let keys = ShareKeys(call: call, records: fetched.compactMap { try? $0.result.get() })
        return CKWSAnswer(bytes: call.answerWriter.records(fetched.map { item -> RecordEntry in
            switch item.result {
            case .success(let record): return call.entry(record, extra: keys.members(for: record))
            case .failure(let error) where error.code == .unknownItem:
                return .json(ItemErrorJSON.encode(item: [("recordName", .string(item.recordID.recordName))], serverErrorCode: "NOT_FOUND",
                                                  reason: "Record not found", layout: .reasonFirst))
            case .failure(let error): return .json(error.ckwsItem(("recordName", .string(item.recordID.recordName))))
            }
        }))
    }

    /// `records/changes`: one custom zone's changes since a token; deletions as
    /// `{"recordName", "deleted": true}`.
    static func changes(_ call: CKWSCall) throws -> CKWSAnswer {
        guard call.body["zoneID"] != nil else { throw CKWSFailure.badRequest("zoneID: missing; records/changes reads one custom zone") }
        let zoneID = try call.zoneID(call.body["zoneID"])
        guard !zoneID.isDefault else { throw CKWSFailure.badRequest("cannot get changes in default zone") }
        let page = try zoneChanges(call, zoneID: zoneID, token: call.body["syncToken"]?.stringValue,
                                   desiredKeys: try call.desiredKeys(call.body["desiredKeys"]), limit: try call.integer("resultsLimit"))
        return CKWSAnswer(bytes: call.answerWriter.changePage(page))
    }

    /// A zone's change page, shared with `changes/zone`; with `recordTypes`,
    /// only the changes to records of those types (`desiredRecordTypes`).
    /// With `"includeChangedKeys": true` in the request (an extension; iCloud does not say),
    /// each changed record carries `changedKeys`, the fields its last change set.
    static func zoneChanges(_ call: CKWSCall, zoneID: ZoneID, token: String?, desiredKeys: [String]?, limit: Int?,
                            recordTypes: Set<String>? = nil) throws -> ZoneChangePage {
        let withKeys = call.body["includeChangedKeys"]?.boolValue == true
        let page = try call.database.recordZoneChanges(inZoneWith: zoneID, since: token, desiredKeys: desiredKeys, resultsLimit: limit,
                                                       includingChangedKeys: withKeys)
        let changes = page.changes.filter { change in
            guard let recordTypes else { return true }
            switch change {
            case .changed(let record): return recordTypes.contains(record.recordType)
            case .deleted(_, let type): return recordTypes.contains(type)
            }
        }
        let changed = changes.compactMap { change -> Record? in
            if case .changed(let record) = change { return record }
            return nil
        }
        let keys = ShareKeys(call: call, records: changed)
        let entries: [RecordEntry] = changes.map { change in
            switch change {
            case .changed(let record):
                var extra = keys.members(for: record)
                if withKeys, let changed = page.changedKeys[record.recordName] { extra.append(("changedKeys", .array(changed.map { .string($0) }))) }
                return call.entry(record, extra: extra)
            case .deleted(let recordID, let type): return .json(DeletionJSON.record(recordID.recordName, recordType: type))
            }
        }
        return ZoneChangePage(zoneID: zoneID, entries: entries, syncToken: page.changeToken, moreComing: page.moreComing)
    }
}
