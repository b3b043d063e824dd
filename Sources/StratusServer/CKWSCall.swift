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

    /// A record as responses carry it.
    func encode(_ record: Record) -> JSONValue {
        var json = RecordJSON.encode(record, owner: owner, encrypted: recordTypes.encryptedFields(of: record.recordType))
        if case .object(var members) = json {
            members.append(("deleted", .bool(false)))
            json = .object(members)
        }
        json = AssetEndpoints.addDownloadURLs(json, base: "http://\(host)/assets/download/\(path.container)/\(path.environment)")
        return numbersAsStrings ? CKWSCall.stringifyNumbers(json) : json
    }

    /// `numbersAsStrings` (also spelled `numberAsStrings`): INT64, DOUBLE and TIMESTAMP values
    /// go out as strings, for clients whose JSON numbers lose 64-bit precision.
    var numbersAsStrings: Bool {
        (body["numbersAsStrings"] ?? body["numberAsStrings"])?.boolValue ?? false
    }

    static func stringifyNumbers(_ record: JSONValue) -> JSONValue {
        guard case .object(var members) = record, let index = members.firstIndex(where: { $0.0 == "fields" }),
              case .object(var fields) = members[index].1 else { return record }
        func text(_ value: JSONValue) -> JSONValue {
            switch value {
            case .integer(let number): return .string(String(number))
            case .number(let number): return .string("\(number)")
            case .array(let items): return .array(items.map(text))
            default: return value
            }
        }
        for position in fields.indices {
            guard case .object(var parts) = fields[position].1, let type = fields[position].1["type"]?.stringValue,
                  ["INT64", "DOUBLE", "TIMESTAMP"].contains(where: { type.hasPrefix($0) }),
                  let valueIndex = parts.firstIndex(where: { $0.0 == "value" }) else { continue }
            parts[valueIndex].1 = text(parts[valueIndex].1)
            fields[position].1 = .object(parts)
        }
        members[index].1 = .object(fields)
        return .object(members)
    }
}
