import Foundation
import StratusModel
import StratusCloud

/// The one encoder of records: writes a record in the CloudKit Web Services shape straight
/// into bytes, for the server's answers, `stratus export` and every other output of records
/// (``RecordJSON/encode(_:owner:encrypted:)`` reads these bytes back when a caller wants a
/// tree).
///
/// Members in this order: `recordName`, `recordType`, `recordChangeTag`, `zoneID`, `fields`
/// (by name, each `{value, type}`), `created`, `modified`, `parent`, then the caller's own.
public struct RecordWriter {
    /// The acting user's record name, which stands in for the default owner in a zone ID that
    /// then carries its `zoneType`; nil for the store's own names, as exports write them.
    public var owner: String?
    /// INT64, DOUBLE and TIMESTAMP values (and lists of them) as strings, for clients whose
    /// JSON numbers lose 64-bit precision (a request's `numbersAsStrings`).
    public var numbersAsStrings: Bool

    public init(owner: String? = nil, numbersAsStrings: Bool = false) {
        self.owner = owner
        self.numbersAsStrings = numbersAsStrings
    }

    /// Writes `record` as one JSON object. `encrypted`: the fields the schema declares
    /// `ENCRYPTED`, which carry `"isEncrypted": true`. `extra`: members after the record's own
    /// (a server's `deleted`, share keys). `assetURL` gives an asset value's `downloadURL`, or
    /// nil for none.
    public func write(_ record: Record, encrypted: Set<String> = [], extra: [(String, JSONValue)] = [], into out: inout JSONBytes,
                      assetURL: (Asset) throws -> String?) rethrows {
        out.beginObject()
        out.key(JSONNames.recordName)
        out.string(record.recordName)
        out.key(JSONNames.recordType)
        out.string(record.recordType)
        if let tag = record.recordChangeTag {
            out.key(JSONNames.recordChangeTag)
            out.string(tag)
        }
        out.key(JSONNames.zoneID)
        writeZoneID(record.recordID.zoneID, into: &out)
        out.key(JSONNames.fields)
        out.beginObject()
        for (name, value) in record.fields.sorted(by: { $0.key < $1.key }) {
            out.key(name)
            out.beginObject()
            out.key(JSONNames.value)
            try writeValue(value, into: &out, asStrings: numbersAsStrings && value.type.base.isNumeric, assetURL: assetURL)
            out.key(JSONNames.type)
            out.string(JSONNames.tag(of: value.type))
            if !encrypted.isEmpty, encrypted.contains(name) {
                out.key(JSONNames.isEncrypted)
                out.bool(true)
            }
            out.endObject()
        }
        out.endObject()
        if let created = record.creationDate {
            writeStamp(JSONNames.created, created, user: record.creatorUserRecordName, into: &out)
        }
        if let modified = record.modificationDate {
            writeStamp(JSONNames.modified, modified, user: record.lastModifiedUserRecordName, into: &out)
        }
        if let parent = record.parent {
            out.key(JSONNames.parent)
            out.beginObject()
            out.key(JSONNames.recordName)
            out.string(parent.recordName)
            out.endObject()
        }
        out.members(extra)
        out.endObject()
    }

    /// Writes `record` with no asset URLs.
    public func write(_ record: Record, encrypted: Set<String> = [], extra: [(String, JSONValue)] = [], into out: inout JSONBytes) {
        write(record, encrypted: encrypted, extra: extra, into: &out, assetURL: { _ in nil })
    }

    /// A zone ID: name and owner, and with an ``owner`` its `zoneType`.
    public func writeZoneID(_ zoneID: ZoneID, into out: inout JSONBytes) {
        out.beginObject()
        out.key(JSONNames.zoneName)
        out.string(zoneID.zoneName)
        out.key(JSONNames.ownerRecordName)
        if let owner {
            out.string(zoneID.ownerName == ZoneID.defaultOwnerName ? owner : zoneID.ownerName)
            out.key(JSONNames.zoneType)
            out.string(zoneID.isDefault ? JSONNames.defaultZone : JSONNames.customZone)
        } else {
            out.string(zoneID.ownerName)
        }
        out.endObject()
    }

    /// A field's `value`: what goes beside its `type`.
    public func writeValue(_ value: FieldValue, into out: inout JSONBytes) {
        writeValue(value, into: &out, asStrings: numbersAsStrings && value.type.base.isNumeric, assetURL: { _ in nil })
    }

    private func writeValue(_ value: FieldValue, into out: inout JSONBytes, asStrings: Bool, assetURL: (Asset) throws -> String?) rethrows {
        switch value {
        case .string(let text): out.string(text)
        case .int64(let number): asStrings ? out.string(String(number)) : out.integer(number)
        case .double(let number): asStrings ? out.string(number.description) : out.double(number)
        case .timestamp(let date):
            let milliseconds = FieldValue.milliseconds(date)
            asStrings ? out.string(String(milliseconds)) : out.integer(milliseconds)
        case .bytes(let data): out.string(data.base64EncodedString())
        case .asset(let asset):
            out.beginObject()
            out.key(JSONNames.fileChecksum)
            out.string(asset.fileChecksum)
            out.key(JSONNames.size)
            out.integer(asset.size)
            if let url = try assetURL(asset) {
                out.key(JSONNames.downloadURL)
                out.string(url)
            }
            out.endObject()
        case .reference(let reference):
            out.beginObject()
            out.key(JSONNames.recordName)
            out.string(reference.recordName)
            out.key(JSONNames.action)
            out.string(reference.action.rawValue)
            out.endObject()
        case .location(let location): writeLocation(location, into: &out)
        case .list(_, let items):
            out.beginArray()
            for item in items { try writeValue(item, into: &out, asStrings: asStrings, assetURL: assetURL) }
            out.endArray()
        }
    }

    private func writeLocation(_ location: Location, into out: inout JSONBytes) {
        out.beginObject()
        out.key(JSONNames.latitude)
        out.double(location.latitude)
        out.key(JSONNames.longitude)
        out.double(location.longitude)
        func optional(_ name: JSONBytes.Literal, _ item: Double?) {
            guard let item else { return }
            out.key(name)
            out.double(item)
        }
        optional(JSONNames.altitude, location.altitude)
        optional(JSONNames.horizontalAccuracy, location.horizontalAccuracy)
        optional(JSONNames.verticalAccuracy, location.verticalAccuracy)
        optional(JSONNames.course, location.course)
        optional(JSONNames.speed, location.speed)
        if let time = location.timestamp {
            out.key(JSONNames.timestamp)
            out.integer(FieldValue.milliseconds(time))
        }
        out.endObject()
    }

    private func writeStamp(_ name: JSONBytes.Literal, _ date: Date, user: String?, into out: inout JSONBytes) {
        out.key(name)
        out.beginObject()
        out.key(JSONNames.timestamp)
        out.integer(FieldValue.milliseconds(date))
        out.key(JSONNames.userRecordName)
        out.string(user ?? "")
        out.endObject()
    }
}

private extension FieldType.BaseType {
    /// The types `numbersAsStrings` writes as strings.
    var isNumeric: Bool { self == .int64 || self == .double || self == .timestamp }
}
