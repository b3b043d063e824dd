import Foundation
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// One authenticated request, as an endpoint sees it: the database it addresses as the user
/// it acts for, and its JSON body.
struct CKWSCall: Sendable {
    let path: CKWSPath
    let store: Store
    /// The signed-in user's record name; nil for an API-token-only request.
    let user: String?
    let body: JSONValue
    /// The database the path names, acting as `user` (the store's owner stands for no user
    /// only in the public database's reads).
    let database: CloudDatabase
    /// The host the client reached the server at, for the URLs responses carry.
    let host: String
    let tickets: AssetTickets
    /// The record types this request meets, read once each.
    let recordTypes: RecordTypeCache

    /// The record name that stands in for the default owner in responses.
    var owner: String { user ?? store.owner }

    /// A zone ID from a request's `zoneID` (default zone when absent), with its owner: the
    /// engine's access check decides what the caller reaches (another user's zone in the
    /// private database does not exist; in the shared database the owner names the zone).
    func zoneID(_ json: JSONValue?, path: String = "zoneID") throws -> ZoneID {
        guard let json else { return .default }
        guard case .object = json else { throw CKWSFailure.badRequest("\(path) must be an object with a zoneName") }
        let name = json["zoneName"]?.stringValue ?? ZoneID.defaultZoneName
        guard let owner = json["ownerRecordName"]?.stringValue ?? json["ownerName"]?.stringValue, owner != self.owner else {
            return ZoneID(zoneName: name)
        }
        return ZoneID(zoneName: name, ownerName: owner)
    }

    /// `desiredKeys` of a body (nil: every field), or another list of names (`key`).
    func desiredKeys(_ json: JSONValue?, key: String = "desiredKeys") throws -> [String]? {
        guard let json, json != .null else { return nil }
        guard case .array(let items) = json else { throw CKWSFailure.badRequest("\(key) must be an array of names") }
        return try items.map { item in
            guard let name = item.stringValue else { throw CKWSFailure.badRequest("\(key) must be an array of names") }
            return name
        }
    }

    /// An optional whole number of a body.
    func integer(_ key: String) throws -> Int? {
        guard let value = body[key], value != .null else { return nil }
        guard let number = value.int64Value, number >= 0 else { throw CKWSFailure.badRequest("\(key) must be a whole number") }
        return Int(clamping: number)
    }

    /// The store's schema, for the types of values sent without one.
    var schema: RecordJSON.SchemaLookup {
        { [recordTypes] name in recordTypes.schema(named: name) }
    }

    /// The writer of answers that carry records: zone IDs name the acting user, numbers follow
    /// `numbersAsStrings`, and asset values carry their `downloadURL` on this server.
    var answerWriter: RecordsAnswerWriter {
        let base = "http://\(host)/assets/download/\(path.container)/\(path.environment)/"
        return RecordsAnswerWriter(records: RecordWriter(owner: owner, numbersAsStrings: numbersAsStrings),
                                   assetURL: { base + $0.fileChecksum })
    }

    /// A record as responses carry it (`"deleted": false` after its own members), with
    /// `extra` members after that (share keys, `changedKeys`).
    func entry(_ record: Record, extra: [(String, JSONValue)] = []) -> RecordEntry {
        .record(record, encrypted: recordTypes.encryptedFields(of: record.recordType), extra: [("deleted", .bool(false))] + extra)
    }

    /// A record as responses carry it, as a tree: for the answers that change it further
    /// (a share's root, an asset's value). The others write ``entry(_:extra:)`` as bytes.
    func encode(_ record: Record) -> JSONValue {
        let bytes = answerWriter.records([entry(record)])
        guard case .object(let members)? = try? JSONParser.parse(written: bytes), case .array(let records)? = members.first?.1,
              let json = records.first else {
            preconditionFailure("RecordsAnswerWriter wrote JSON its parser cannot read")
        }
        return json
    }

    /// `numbersAsStrings` (also spelled `numberAsStrings`): INT64, DOUBLE and TIMESTAMP values
    /// go out as strings, for clients whose JSON numbers lose 64-bit precision.
    var numbersAsStrings: Bool {
        (body["numbersAsStrings"] ?? body["numberAsStrings"])?.boolValue ?? false
    }
}
