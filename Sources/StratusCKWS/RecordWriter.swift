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
        out.key("recordName")
        out.string(record.recordName)
        out.key("recordType")
        out.string(record.recordType)
        if let tag = record.recordChangeTag {
            out.key("recordChangeTag")
            out.string(tag)
        }
        out.key("zoneID")
        writeZoneID(record.recordID.zoneID, into: &out)
        out.key("fields")
        out.beginObject()
        for name in record.fields.keys.sorted() {
            let value = record.fields[name]!
            out.key(name)
            out.beginObject()
            out.key("value")
            try writeValue(value, into: &out, asStrings: numbersAsStrings && value.type.base.isNumeric, assetURL: assetURL)
            out.key("type")
            out.string(value.type.webServicesTag)
            if !encrypted.isEmpty, encrypted.contains(name) {
                out.key("isEncrypted")
                out.bool(true)
            }
            out.endObject()
        }
        out.endObject()
        if let created = record.creationDate {
            writeStamp("created", created, user: record.creatorUserRecordName, into: &out)
        }
        if let modified = record.modificationDate {
            writeStamp("modified", modified, user: record.lastModifiedUserRecordName, into: &out)
        }
        if let parent = record.parent {
            out.key("parent")
            out.beginObject()
            out.key("recordName")
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
        out.key("zoneName")
        out.string(zoneID.zoneName)
        out.key("ownerRecordName")
        if let owner {
            out.string(zoneID.ownerName == ZoneID.defaultOwnerName ? owner : zoneID.ownerName)
            out.key("zoneType")
            out.string(zoneID.isDefault ? "DEFAULT_ZONE" : "REGULAR_CUSTOM_ZONE")
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
            out.key("fileChecksum")
            out.string(asset.fileChecksum)
            out.key("size")
            out.integer(asset.size)
            if let url = try assetURL(asset) {
                out.key("downloadURL")
                out.string(url)
            }
            out.endObject()
        case .reference(let reference):
            out.beginObject()
            out.key("recordName")
            out.string(reference.recordName)
            out.key("action")
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
        out.key("latitude")
        out.double(location.latitude)
        out.key("longitude")
        out.double(location.longitude)
        let optionals: [(String, Double?)] = [("altitude", location.altitude), ("horizontalAccuracy", location.horizontalAccuracy),
                                              ("verticalAccuracy", location.verticalAccuracy), ("course", location.course), ("speed", location.speed)]
        for case let (key, item?) in optionals {
            out.key(key)
            out.double(item)
        }
        if let time = location.timestamp {
            out.key("timestamp")
            out.integer(FieldValue.milliseconds(time))
        }
        out.endObject()
    }

    private func writeStamp(_ name: String, _ date: Date, user: String?, into out: inout JSONBytes) {
        out.key(name)
        out.beginObject()
        out.key("timestamp")
        out.integer(FieldValue.milliseconds(date))
        out.key("userRecordName")
        out.string(user ?? "")
        out.endObject()
    }
}

private extension FieldType.BaseType {
    /// The types `numbersAsStrings` writes as strings.
    var isNumeric: Bool { self == .int64 || self == .double || self == .timestamp }
}
