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
        out.key(Names.recordName)
        out.string(record.recordName)
        out.key(Names.recordType)
        out.string(record.recordType)
        if let tag = record.recordChangeTag {
            out.key(Names.recordChangeTag)
            out.string(tag)
        }
        out.key(Names.zoneID)
        writeZoneID(record.recordID.zoneID, into: &out)
        out.key(Names.fields)
        out.beginObject()
        for (name, value) in record.fields.sorted(by: { $0.key < $1.key }) {
            out.key(name)
            out.beginObject()
            out.key(Names.value)
            try writeValue(value, into: &out, asStrings: numbersAsStrings && value.type.base.isNumeric, assetURL: assetURL)
            out.key(Names.type)
            out.string(Names.tag(of: value.type))
            if !encrypted.isEmpty, encrypted.contains(name) {
                out.key(Names.isEncrypted)
                out.bool(true)
            }
            out.endObject()
        }
        out.endObject()
        if let created = record.creationDate {
            writeStamp(Names.created, created, user: record.creatorUserRecordName, into: &out)
        }
        if let modified = record.modificationDate {
            writeStamp(Names.modified, modified, user: record.lastModifiedUserRecordName, into: &out)
        }
        if let parent = record.parent {
            out.key(Names.parent)
            out.beginObject()
            out.key(Names.recordName)
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
        out.key(Names.zoneName)
        out.string(zoneID.zoneName)
        out.key(Names.ownerRecordName)
        if let owner {
            out.string(zoneID.ownerName == ZoneID.defaultOwnerName ? owner : zoneID.ownerName)
            out.key(Names.zoneType)
            out.string(zoneID.isDefault ? Names.defaultZone : Names.customZone)
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
            out.key(Names.fileChecksum)
            out.string(asset.fileChecksum)
            out.key(Names.size)
            out.integer(asset.size)
            if let url = try assetURL(asset) {
                out.key(Names.downloadURL)
                out.string(url)
            }
            out.endObject()
        case .reference(let reference):
            out.beginObject()
            out.key(Names.recordName)
            out.string(reference.recordName)
            out.key(Names.action)
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
        out.key(Names.latitude)
        out.double(location.latitude)
        out.key(Names.longitude)
        out.double(location.longitude)
        func optional(_ name: JSONBytes.Literal, _ item: Double?) {
            guard let item else { return }
            out.key(name)
            out.double(item)
        }
        optional(Names.altitude, location.altitude)
        optional(Names.horizontalAccuracy, location.horizontalAccuracy)
        optional(Names.verticalAccuracy, location.verticalAccuracy)
        optional(Names.course, location.course)
        optional(Names.speed, location.speed)
        if let time = location.timestamp {
            out.key(Names.timestamp)
            out.integer(FieldValue.milliseconds(time))
        }
        out.endObject()
    }

    private func writeStamp(_ name: JSONBytes.Literal, _ date: Date, user: String?, into out: inout JSONBytes) {
        out.key(name)
        out.beginObject()
        out.key(Names.timestamp)
        out.integer(FieldValue.milliseconds(date))
        out.key(Names.userRecordName)
        out.string(user ?? "")
        out.endObject()
    }
}

/// The member names and type tags a record's JSON uses, each encoded once.
private enum Names {
    static let action = JSONBytes.Literal("action")
    static let altitude = JSONBytes.Literal("altitude")
    static let course = JSONBytes.Literal("course")
    static let created = JSONBytes.Literal("created")
    static let downloadURL = JSONBytes.Literal("downloadURL")
    static let fields = JSONBytes.Literal("fields")
    static let fileChecksum = JSONBytes.Literal("fileChecksum")
    static let horizontalAccuracy = JSONBytes.Literal("horizontalAccuracy")
    static let isEncrypted = JSONBytes.Literal("isEncrypted")
    static let latitude = JSONBytes.Literal("latitude")
    static let longitude = JSONBytes.Literal("longitude")
    static let modified = JSONBytes.Literal("modified")
    static let ownerRecordName = JSONBytes.Literal("ownerRecordName")
    static let parent = JSONBytes.Literal("parent")
    static let recordChangeTag = JSONBytes.Literal("recordChangeTag")
    static let recordName = JSONBytes.Literal("recordName")
    static let recordType = JSONBytes.Literal("recordType")
    static let size = JSONBytes.Literal("size")
    static let speed = JSONBytes.Literal("speed")
    static let timestamp = JSONBytes.Literal("timestamp")
    static let type = JSONBytes.Literal("type")
    static let userRecordName = JSONBytes.Literal("userRecordName")
    static let value = JSONBytes.Literal("value")
    static let verticalAccuracy = JSONBytes.Literal("verticalAccuracy")
    static let zoneID = JSONBytes.Literal("zoneID")
    static let zoneName = JSONBytes.Literal("zoneName")
    static let zoneType = JSONBytes.Literal("zoneType")

    static let defaultZone = JSONBytes.Literal("DEFAULT_ZONE")
    static let customZone = JSONBytes.Literal("REGULAR_CUSTOM_ZONE")

    /// Every field type's `type` tag (`STRING`, `INT64_LIST`, ...), scalar then list, in the
    /// order of ``slot(of:)``.
    private static let tags: [JSONBytes.Literal] = FieldType.BaseType.allCases.flatMap { base in
        [FieldType(base), FieldType.list(base)].map { JSONBytes.Literal($0.webServicesTag) }
    }

    /// Where a base type's tags are in `tags` (a switch: hashing the type cost more than the tag).
    private static func slot(of base: FieldType.BaseType) -> Int {
        switch base {
        case .string: 0
        case .int64: 2
        case .double: 4
        case .timestamp: 6
        case .bytes: 8
        case .asset: 10
        case .reference: 12
        case .location: 14
        }
    }

    static func tag(of type: FieldType) -> JSONBytes.Literal { tags[slot(of: type.base) + (type.isList ? 1 : 0)] }
}

private extension FieldType.BaseType {
    /// The types `numbersAsStrings` writes as strings.
    var isNumeric: Bool { self == .int64 || self == .double || self == .timestamp }
}
