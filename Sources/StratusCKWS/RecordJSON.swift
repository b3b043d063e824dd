import Foundation
import StratusModel
import StratusCloud

/// Records in and out of the CloudKit Web Services JSON shape: `recordName`, `recordType`,
/// `recordChangeTag`, `fields: {name: {value, type}}`, `created`, `modified`.
///
/// The one place that knows this coding, so an HTTP front end can reuse it.
public enum RecordJSON {
    /// A problem in record JSON, with the path of the offending member (`fields.price.value`).
    public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }

        /// For the engine's readers (CSV, faults) that report in this shape too.
        package init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    // MARK: - Encoding

    /// A record with the store's own names, as exports write it.
    public static func encode(_ record: Record) -> JSONValue { encode(record, owner: nil) }

    /// A record for a Web Services response: `owner`, the acting user's record name, stands in
    /// for the default owner in its zone ID, which carries its `zoneType`.
    /// `encrypted`: the fields the schema declares `ENCRYPTED`, which carry `"isEncrypted": true`.
    ///
    /// ``RecordWriter``'s bytes read back, for callers that change the tree; answers and
    /// exports write the bytes themselves.
    public static func encode(_ record: Record, owner: String?, encrypted: Set<String> = []) -> JSONValue {
        written { RecordWriter(owner: owner).write(record, encrypted: encrypted, into: &$0) }
    }

    /// A zone ID as Web Services writes it: name, owner (the acting user's record name for the
    /// default owner) and `zoneType`; with no owner, the store's own names only, as exports
    /// write it.
    public static func encodeZoneID(_ zoneID: ZoneID, owner: String?) -> JSONValue {
        written { RecordWriter(owner: owner).writeZoneID(zoneID, into: &$0) }
    }

    public static func encodeField(_ value: FieldValue) -> JSONValue {
        .object([("value", encodeValue(value)), ("type", .string(value.type.webServicesTag))])
    }

    public static func encodeValue(_ value: FieldValue) -> JSONValue {
        written { RecordWriter().writeValue(value, into: &$0) }
    }

    /// What `write` wrote, as a tree.
    private static func written(_ write: (inout JSONBytes) -> Void) -> JSONValue {
        var out = JSONBytes(capacity: 256)
        write(&out)
        do {
            return try JSONParser.parse(written: out.bytes)
        } catch {
            preconditionFailure("RecordWriter wrote JSON its parser cannot read: \(error)")
        }
    }

    // MARK: - Decoding

    /// The tags `encode` writes, looked up without parsing (import reads millions of them).
    static let exactTags: [String: FieldType] = Dictionary(uniqueKeysWithValues: FieldType.BaseType.allCases.flatMap { base in
        [(FieldType(base).webServicesTag, FieldType(base)), (FieldType.list(base).webServicesTag, FieldType.list(base))]
    })

    /// ``exactTags`` by the number of their word among ``JSONParser/knownWords`` (every tag is
    /// one), for a reader that takes tags as words without making strings of them.
    static let tagsByKnownWord: [FieldType?] = exactTags.reduce(into: Array(repeating: nil, count: JSONParser.knownWords.count)) { table, entry in
        table[JSONParser.knownWordNumber(entry.key)!] = entry.value
    }

    /// Turns a file reference in an asset value (`{"file": "path"}`) into a stored asset.
    public typealias AssetUploader = (String) throws -> Asset

    /// A record type's schema by name, nil for a type the schema does not have yet: the types a
    /// value sent without a `type` takes (see ``coercible(_:to:)``).
    public typealias SchemaLookup = (_ recordType: String) -> RecordTypeSchema?

    /// Decodes a record object. `zoneID` applies when the object names none.
    ///
    /// Every field decoded counts as changed (a save with the changed-keys policy writes what
    /// the document set), unless `restoring`: a restored record is written whole, as the store
    /// held it, and like a fetched record has no changed keys. Marking them hashed every field
    /// name a second time, for millions of fields in an import.
    ///
    /// A value without a `type` takes the type `schema` declares for its field when the JSON can
    /// spell it (MistKit sends every value so, and dates as epoch milliseconds); otherwise, or
    /// for a field the schema lacks, the type its JSON suggests. A member that is `null`
    /// (`recordChangeTag`, `created`, `modified`, a field or a field's `value`) is absent, as
    /// iCloud reads it.
    public static func decode(_ json: JSONValue, zoneID: ZoneID, uploadAsset: AssetUploader? = nil, restoring: Bool = false,
                              schema: SchemaLookup? = nil) throws(DecodingError) -> Record {
        guard case .object = json else { throw DecodingError(path: "", message: "a record must be a JSON object, not \(json.kindName)") }
        guard let type = json["recordType"]?.stringValue else {
            throw DecodingError(path: "recordType", message: "missing; every record needs a recordType")
        }
        var zone = zoneID
        if let zoneJSON = json["zoneID"] {
            guard let name = zoneJSON["zoneName"]?.stringValue else { throw DecodingError(path: "zoneID.zoneName", message: "missing or not a string") }
            zone = ZoneID(zoneName: name, ownerName: zoneJSON["ownerRecordName"]?.stringValue ?? ZoneID.defaultOwnerName)
        }
        let recordID: RecordID
        if let nameJSON = json["recordName"] {
            guard let name = nameJSON.stringValue else { throw DecodingError(path: "recordName", message: "must be a string") }
            recordID = RecordID(recordName: name, zoneID: zone)
        } else {
            recordID = RecordID(zoneID: zone)
        }
        var record = Record(recordType: type, recordID: recordID)
        if let tag = json["recordChangeTag"], tag != .null {
            guard let text = tag.stringValue else { throw DecodingError(path: "recordChangeTag", message: "must be a string") }
            record.recordChangeTag = text
        }
        if let parent = json["parent"]?["recordName"]?.stringValue { record.parent = Reference(recordName: parent) }
        // System fields as exported; `save` ignores them, `save --import` keeps them.
        if let created = json["created"], created != .null {
            record.creationDate = created["timestamp"]?.int64Value.map { FieldValue.date(milliseconds: $0) }
            record.creatorUserRecordName = created["userRecordName"]?.stringValue
        }
        if let modified = json["modified"], modified != .null {
            record.modificationDate = modified["timestamp"]?.int64Value.map { FieldValue.date(milliseconds: $0) }
            record.lastModifiedUserRecordName = modified["userRecordName"]?.stringValue
        }
        if let fields = json["fields"], fields != .null {
            guard case .object(let members) = fields else { throw DecodingError(path: "fields", message: "must be an object of {value, type} members") }
            let declared = schema?(type)?.fields
            var decoded: [(String, FieldValue?)] = []
            decoded.reserveCapacity(members.count)
            for (name, field) in members {
                if case .null = field { decoded.append((name, nil)); continue }
                if case .null? = field["value"] { decoded.append((name, nil)); continue }
                let value = try decodeField(field, path: "fields.\(name)", uploadAsset: uploadAsset, declared: declared?[name]?.type)
                if let schemaField = declared?[name] { try checkEncryption(field, value: value, against: schemaField) }
                decoded.append((name, value))
            }
            record.setFields(decoded, markingChanged: !restoring)
        }
        return record
    }

    /// Web Services' rule for a field declared `ENCRYPTED`: its value comes with its `type` and
    /// `"isEncrypted": true`, and no other field's value carries the flag (iCloud's words).
    static func checkEncryption(_ json: JSONValue, value: FieldValue, against field: SchemaField) throws(DecodingError) {
        let flagged = json["isEncrypted"]?.boolValue == true
        let tag = json["type"]?.stringValue
        if field.isEncrypted, !flagged || tag == nil {
            let sent = flagged ? "ENCRYPTED_BYTES" : tag ?? value.type.webServicesTag
            throw DecodingError(path: "fields.\(field.name)",
                                message: "invalid attempt to set value type \(sent) for field '\(field.name)' for type defined to be: \(field.valueTypeName)")
        }
        if !field.isEncrypted, flagged {
            throw DecodingError(path: "fields.\(field.name)", message: "Attempt to save encrypted data in non encrypted field type \(field.valueTypeName)")
        }
    }

    /// Decodes a `{value, type}` field. `path` is only built for an error message: import
    /// decodes millions of fields. `declared`: the schema's type of the field, which a value sent
    /// without a `type` takes when it can (``coercible(_:to:)``).
    public static func decodeField(_ json: JSONValue, path: @autoclosure () -> String, uploadAsset: AssetUploader? = nil,
                                   declared: FieldType? = nil) throws(DecodingError) -> FieldValue {
        guard case .object = json, let value = json["value"] else {
            throw DecodingError(path: path(), message: "a field must be an object with a \"value\" (and optionally a \"type\")")
        }
        var type: FieldType?
        if let tag = json["type"] {
            guard let text = tag.stringValue, let parsed = RecordJSON.exactTags[text] ?? FieldType(parsing: text) ?? cktoolType(text)
                    ?? (text == "ASSETID" ? .asset : nil) else {
                throw DecodingError(path: "\(path()).type", message: "unknown type \(JSONWriter.string(tag)); use STRING, INT64, DOUBLE, TIMESTAMP, BYTES, ASSET, REFERENCE, LOCATION or a *_LIST of them")
            }
            type = parsed
        } else if let declared, coercible(value, to: declared) {
            type = declared
        }
        return try decodeValue(value, as: type, path: "\(path()).value", uploadAsset: uploadAsset)
    }

    /// cktool's and CKTool JS's type names (`stringType`, `int64ListType`, `encryptedBytesType`):
    /// an encrypted value is stored as its plain type, as Stratus keeps no keys.
    static func cktoolType(_ text: String) -> FieldType? {
        guard text.hasSuffix("Type") else { return nil }
        var name = text.dropLast(4).lowercased()
        if name.hasPrefix("encrypted") { name = String(name.dropFirst("encrypted".count)) }
        var isList = false
        if name.hasSuffix("list") {
            isList = true
            name = String(name.dropLast(4))
        }
        guard let base = FieldType.BaseType(rawValue: name.uppercased()) else { return nil }
        return FieldType(base, isList: isList)
    }

    package static func decodeValue(_ json: JSONValue, as type: FieldType?, path: @autoclosure () -> String, uploadAsset: AssetUploader?) throws(DecodingError) -> FieldValue {
        let resolved = type ?? inferType(json)
        guard let resolved else { throw DecodingError(path: path(), message: "cannot tell the type of \(json.kindName); add a \"type\"") }
        if resolved.isList {
            guard case .array(let items) = json else { throw DecodingError(path: path(), message: "a \(resolved) value must be an array, not \(json.kindName)") }
            var values: [FieldValue] = []
            for (index, item) in items.enumerated() {
                values.append(try decodeScalar(item, as: resolved.base, path: "\(path())[\(index)]", uploadAsset: uploadAsset))
            }
            return .list(resolved.base, values)
        }
        return try decodeScalar(json, as: resolved.base, path: path(), uploadAsset: uploadAsset)
    }

    /// Whether a value sent without a `type` can be read as `declared`, the schema's type of its
    /// field: a number as INT64 (a whole one), DOUBLE or TIMESTAMP (epoch milliseconds); a string
    /// as STRING, BYTES (base64) or TIMESTAMP (ISO 8601); an object as LOCATION, REFERENCE or
    /// ASSET by its keys; an array as a list of these, element by element.
    public static func coercible(_ json: JSONValue, to declared: FieldType) -> Bool {
        if declared.isList {
            guard case .array(let items) = json else { return false }
            return items.allSatisfy { coercible($0, to: FieldType(declared.base)) }
        }
        switch (declared.base, json) {
        case (.int64, .integer), (.double, .integer), (.double, .number), (.string, .string): return true
        case (.int64, .number), (.timestamp, .integer), (.timestamp, .number): return json.int64Value != nil
        case (.timestamp, .string(let text)): return ISO8601.parse(text) != nil
        case (.bytes, .string(let text)): return Data(base64Encoded: text) != nil
        case (.location, .object): return json["latitude"]?.doubleValue != nil && json["longitude"]?.doubleValue != nil
        case (.reference, .object): return json["recordName"]?.stringValue != nil
        case (.asset, .object): return json["fileChecksum"] != nil || json["file"] != nil
        default: return false
        }
    }

    private static func inferType(_ json: JSONValue) -> FieldType? {
        switch json {
        case .string: return .string
        case .integer: return .int64
        case .number: return .double
        case .object:
            if json["latitude"] != nil { return .location }
            // Before REFERENCE: `assets/rereference` answers an asset with the recordName and
            // fieldName it was read from, and CloudKit JS saves that answer as it is.
            if json["fileChecksum"] != nil || json["file"] != nil { return .asset }
            if json["recordName"] != nil { return .reference }
            return nil
        case .array(let items):
            guard let first = items.first, let base = inferType(first), !base.isList else { return items.isEmpty ? .list(.string) : nil }
            if base == .int64, items.contains(where: { if case .number = $0 { return true } else { return false } }) { return .list(.double) }
            return .list(base.base)
        default: return nil
        }
    }

    private static func decodeScalar(_ json: JSONValue, as base: FieldType.BaseType, path: @autoclosure () -> String,
                                     uploadAsset: AssetUploader?) throws(DecodingError) -> FieldValue {
        func wrong() -> DecodingError { DecodingError(path: path(), message: "expected a value of type \(base.rawValue), found \(json.kindName) \(JSONWriter.string(json).prefix(40))") }
        switch base {
        case .string:
            guard let text = json.stringValue else { throw wrong() }
            return .string(text)
        case .int64:
            guard let number = json.int64Value else { throw wrong() }
            return .int64(number)
        case .double:
            guard let number = json.doubleValue else { throw wrong() }
            return .double(number)
        case .timestamp:
            if let milliseconds = json.int64Value { return .timestamp(FieldValue.date(milliseconds: milliseconds)) }
            if let text = json.stringValue, let date = ISO8601.parse(text) { return .timestamp(date) }
            throw DecodingError(path: path(), message: "expected a TIMESTAMP: milliseconds since 1970 or an ISO 8601 date, found \(JSONWriter.string(json).prefix(40))")
        case .bytes:
            guard let text = json.stringValue, let data = Data(base64Encoded: text) else {
                throw DecodingError(path: path(), message: "expected BYTES as a base64 string")
            }
            return .bytes(data)
        case .asset:
            if let file = json["file"]?.stringValue {
                guard let uploadAsset else { throw DecodingError(path: path(), message: "asset files can only be uploaded from the command line") }
                do {
                    return .asset(try uploadAsset(file))
                } catch {
                    throw DecodingError(path: path(), message: "cannot read asset file \(file): \(error.localizedDescription)")
                }
            }
            guard let checksum = json["fileChecksum"]?.stringValue, let size = json["size"]?.int64Value else {
                throw DecodingError(path: path(), message: "expected an ASSET as {\"fileChecksum\", \"size\"} or {\"file\": \"path\"}")
            }
            return .asset(Asset(fileChecksum: checksum, size: size))
        case .reference:
            if let name = json.stringValue { return .reference(Reference(recordName: name)) }
            guard let name = json["recordName"]?.stringValue else { throw DecodingError(path: path(), message: "expected a REFERENCE as {\"recordName\", \"action\"}") }
            var action = Reference.Action.none
            if let text = json["action"]?.stringValue {
                guard let parsed = Reference.Action(rawValue: text.uppercased()) else {
                    throw DecodingError(path: "\(path()).action", message: "unknown action '\(text)'; use NONE or DELETE_SELF")
                }
                action = parsed
            }
            return .reference(Reference(recordName: name, action: action))
        case .location:
            guard let latitude = json["latitude"]?.doubleValue, let longitude = json["longitude"]?.doubleValue else {
                throw DecodingError(path: path(), message: "expected a LOCATION with numeric latitude and longitude")
            }
            var location = Location(latitude: latitude, longitude: longitude)
            location.altitude = json["altitude"]?.doubleValue
            location.horizontalAccuracy = json["horizontalAccuracy"]?.doubleValue
            location.verticalAccuracy = json["verticalAccuracy"]?.doubleValue
            location.course = json["course"]?.doubleValue
            location.speed = json["speed"]?.doubleValue
            location.timestamp = json["timestamp"]?.int64Value.map { FieldValue.date(milliseconds: $0) }
            return .location(location)
        }
    }
}
