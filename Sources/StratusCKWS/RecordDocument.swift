import Foundation
import StratusModel
import StratusCloud

/// The records a JSON document carries, whatever shape CloudKit's tools gave it: one record, an
/// array of them, a CKWS response (`{"records": [...]}` from records/query, records/lookup and
/// records/changes; `{"zones": [{"zoneID", "records"}]}` from changes/zone) or a records/modify
/// request (`{"zoneID", "operations": [{"operationType", "record"}]}`).
///
/// People bring files they captured from iCloud: those name zones by their real owner
/// (`ownerRecordName: "_b321…"`), carry deleted entries and lookup errors beside records. This is
/// the one place that reads them, for `save`, `save --import` and a server alike.
public enum RecordDocument {
    /// What one entry of a document asks for.
    public enum Entry: Sendable {
        /// Save this record.
        case save(Record)
        /// Delete this record (an entry with `"deleted": true`, or a delete operation).
        case delete(RecordID, recordType: String?)
        /// An entry that holds no record: a lookup's per-record error. Reported, not applied.
        case skipped(recordName: String?, reason: String)
    }

    /// The owner a zone named in the document lands with: iCloud's real user record names mean
    /// nothing in this store, so by default every zone lands in the acting user's database.
    public typealias OwnerMapping = @Sendable (_ ownerRecordName: String) -> String

    /// Every owner maps to the acting user.
    public static let actingUser: OwnerMapping = { _ in ZoneID.defaultOwnerName }

    /// The entries of `json`, in document order.
    ///
    /// - Parameters:
    ///   - zoneID: the zone of entries that name none (the document's own `zoneID` comes first).
    ///   - owners: maps a zone's `ownerRecordName` (or `ownerName`) to the owner it lands with.
    ///   - restoring: the records are restored as they are (`save --import`), so, like fetched
    ///     records, they carry no changed keys (see ``RecordJSON/decode(_:zoneID:uploadAsset:restoring:)``).
    /// - Throws: ``RecordJSON/DecodingError`` whose path names the entry (`records[3].fields.title`).
    public static func entries(in json: JSONValue, zoneID: ZoneID, owners: @escaping OwnerMapping = actingUser,
                               uploadAsset: RecordJSON.AssetUploader? = nil, restoring: Bool = false) throws(RecordJSON.DecodingError) -> [Entry] {
        var reader = Reader(owners: owners, uploadAsset: uploadAsset, restoring: restoring)
        try reader.read(json, zoneID: zoneID, path: "")
        return reader.entries
    }

    /// Whether `json` is a wrapper (a response or request object), not a record.
    public static func isWrapper(_ json: JSONValue) -> Bool {
        guard case .object = json, json["recordType"] == nil, json["recordName"] == nil else { return false }
        return json["records"] != nil || json["operations"] != nil || json["zones"] != nil || json["results"] != nil
    }

    /// Whether `json` is a response a server answered (`{"records"}` or `{"zones"}`) whose
    /// records carry the server's change tags: a snapshot of what that server holds, which
    /// `save --import` loads as it is, rather than changes to save over this store's records.
    public static func isTaggedResponse(_ json: JSONValue) -> Bool {
        guard isWrapper(json), json["operations"] == nil else { return false }
        func tagged(_ wrapper: JSONValue) -> Bool {
            if case .array(let records)? = wrapper["records"], records.contains(where: { $0["recordChangeTag"]?.stringValue != nil }) { return true }
            if case .array(let zones)? = wrapper["zones"] { return zones.contains(where: tagged) }
            return false
        }
        return tagged(json)
    }

    private struct Reader {
        let owners: OwnerMapping
        let uploadAsset: RecordJSON.AssetUploader?
        let restoring: Bool
        var entries: [Entry] = []

        mutating func read(_ json: JSONValue, zoneID: ZoneID, path: String) throws(RecordJSON.DecodingError) {
            switch json {
            case .array(let items):
                for (index, item) in items.enumerated() { try read(item, zoneID: zoneID, path: "\(path)[\(index)]") }
            case .object where RecordDocument.isWrapper(json) && json["results"] != nil:
                throw RecordJSON.DecodingError(path: join(path, "results"), message: "this is a records/resolve (or records/accept) response: share metadata, which holds no record to save; save the shared records from a records/query or changes/zone response")
            case .object where RecordDocument.isWrapper(json):
                let zone = try self.zone(json["zoneID"], default: zoneID, path: join(path, "zoneID"))
                if let records = json["records"] {
                    for (index, item) in try items(records, path: join(path, "records")).enumerated() {
                        try record(item, zoneID: zone, path: "\(join(path, "records"))[\(index)]")
                    }
                }
                if let operations = json["operations"] {
                    for (index, item) in try items(operations, path: join(path, "operations")).enumerated() {
                        try operation(item, zoneID: zone, path: "\(join(path, "operations"))[\(index)]")
                    }
                }
                if let zones = json["zones"] {
                    for (index, item) in try items(zones, path: join(path, "zones")).enumerated() {
                        try read(item, zoneID: zone, path: "\(join(path, "zones"))[\(index)]")
                    }
                }
            default:
                try record(json, zoneID: zoneID, path: path)
            }
        }

        private func items(_ json: JSONValue, path: String) throws(RecordJSON.DecodingError) -> [JSONValue] {
            guard case .array(let items) = json else {
                throw RecordJSON.DecodingError(path: path, message: "must be an array, not \(json.kindName)")
            }
            return items
        }

        /// One `{"operationType", "record"}` of a modify request.
        private mutating func operation(_ json: JSONValue, zoneID: ZoneID, path: String) throws(RecordJSON.DecodingError) {
            guard let type = json["operationType"]?.stringValue else {
                throw RecordJSON.DecodingError(path: join(path, "operationType"), message: "missing; use create, update, forceUpdate, replace, forceReplace, delete or forceDelete")
            }
            guard let record = json["record"] else { throw RecordJSON.DecodingError(path: join(path, "record"), message: "missing") }
            switch type {
            case "create", "update", "forceUpdate", "replace", "forceReplace":
                try self.record(record, zoneID: zoneID, path: join(path, "record"))
            case "delete", "forceDelete":
                let zone = try self.zone(record["zoneID"], default: zoneID, path: join(path, "record.zoneID"))
                guard let name = record["recordName"]?.stringValue else {
                    throw RecordJSON.DecodingError(path: join(path, "record.recordName"), message: "a delete needs the record's name")
                }
                entries.append(.delete(RecordID(recordName: name, zoneID: zone), recordType: record["recordType"]?.stringValue))
            default:
                throw RecordJSON.DecodingError(path: join(path, "operationType"), message: "unknown operation '\(type)'; use create, update, forceUpdate, replace, forceReplace, delete or forceDelete")
            }
        }

        /// A record, a deleted entry, or a lookup's error entry.
        private mutating func record(_ json: JSONValue, zoneID: ZoneID, path: String) throws(RecordJSON.DecodingError) {
            let zone = try self.zone(json["zoneID"], default: zoneID, path: join(path, "zoneID"))
            if case .bool(true)? = json["deleted"] {
                guard let name = json["recordName"]?.stringValue else {
                    throw RecordJSON.DecodingError(path: join(path, "recordName"), message: "a deleted entry needs the record's name")
                }
                entries.append(.delete(RecordID(recordName: name, zoneID: zone), recordType: json["recordType"]?.stringValue))
                return
            }
            if json["recordType"] == nil, let code = json["serverErrorCode"]?.stringValue {
                let reason = json["reason"]?.stringValue.map { "\(code): \($0)" } ?? code
                entries.append(.skipped(recordName: json["recordName"]?.stringValue, reason: reason))
                return
            }
            do {
                var decoded = try RecordJSON.decode(json, zoneID: zone, uploadAsset: uploadAsset, restoring: restoring)
                decoded.recordID = RecordID(recordName: decoded.recordName, zoneID: zone)
                entries.append(.save(decoded))
            } catch {
                throw RecordJSON.DecodingError(path: join(path, error.path), message: error.message)
            }
        }

        /// A `zoneID` object, its owner mapped; `fallback` when absent.
        private func zone(_ json: JSONValue?, default fallback: ZoneID, path: String) throws(RecordJSON.DecodingError) -> ZoneID {
            guard let json else { return fallback }
            guard let name = json["zoneName"]?.stringValue else {
                throw RecordJSON.DecodingError(path: join(path, "zoneName"), message: "missing or not a string")
            }
            let owner = json["ownerRecordName"]?.stringValue ?? json["ownerName"]?.stringValue
            return ZoneID(zoneName: name, ownerName: owner.map(owners) ?? ZoneID.defaultOwnerName)
        }

        private func join(_ path: String, _ member: String) -> String {
            if path.isEmpty { return member }
            if member.isEmpty { return path }
            return member.hasPrefix("[") ? path + member : "\(path).\(member)"
        }
    }
}
