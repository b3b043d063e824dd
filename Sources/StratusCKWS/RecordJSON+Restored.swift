import Foundation
import StratusModel
import StratusCloud

extension RecordJSON {
    /// The record a line holds when it is one record object as exports write it (`recordName`,
    /// `recordType`, `recordChangeTag`, `zoneID`, `fields` of `{value, type}`, `created`,
    /// `modified`, `parent`), read member by member for a restore: what
    /// ``RecordDocument/entries(in:zoneID:owners:uploadAsset:restoring:)`` makes of it, with the
    /// zone's owner mapped to the acting user. Nil for anything else (another member, a field
    /// without its type, a value its type refuses, a name met twice, malformed JSON): the
    /// caller then reads the line through the tree, which says what is wrong and where.
    ///
    /// Reading through a tree built an array for every object of the line (the record, its
    /// zone, its fields, each field, its times) and looked each member up by name, then freed
    /// it all: half of the reading thread's time in an import. Each value is still decoded by
    /// ``decodeValue(_:as:path:uploadAsset:)``, so a value means the same on either path.
    package static func decodeRestored(utf8 line: UnsafeBufferPointer<UInt8>, zoneID: ZoneID) -> Record? {
        JSONParser.read(line) { (parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Record? in
            var reader = RestoredRecordReader(zoneID: zoneID)
            return try reader.read(&parser)
        }
    }
}

/// The members of one exported record line, as ``RecordJSON/decodeRestored(utf8:zoneID:)``
/// takes them.
private struct RestoredRecordReader {
    var name: String?
    var type: String?
    var tag: String?
    var zone: ZoneID
    var parent: String?
    var created: (milliseconds: Int64?, user: String?)?
    var modified: (milliseconds: Int64?, user: String?)?
    var fields: [String: FieldValue] = [:]

    init(zoneID: ZoneID) { zone = zoneID }

    /// The member names of a record line's objects other than its fields: the record's, its
    /// zone's, its times', its parent's and each field's. Each is a known word
    /// (``JSONParser/knownWords``), read as its number, so no string is made of it and no
    /// string compared with it.
    private enum Key: CaseIterable {
        case recordName, recordType, recordChangeTag, zoneID, fields, created, modified, parent
        case zoneName, ownerRecordName, zoneType, timestamp, userRecordName, value, type, latitude, longitude

        /// Each key by the number of its word (its case name).
        static let byWord: [Key?] = allCases.reduce(into: Array(repeating: nil, count: JSONParser.knownWords.count)) { table, key in
            table[JSONParser.knownWordNumber("\(key)")!] = key
        }

        /// Its flag among the record's members read.
        var bit: UInt8 {
            switch self {
            case .recordName: 1
            case .recordType: 2
            case .recordChangeTag: 4
            case .zoneID: 8
            case .fields: 16
            case .created: 32
            case .modified: 64
            case .parent: 128
            default: 0
            }
        }
    }

    mutating func read(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Record? {
        // Each member once: the tree would take the first of two, this reader leaves them to it.
        var seen: UInt8 = 0
        let complete = try Self.members(of: &parser) { (parser: inout JSONParser, member: Key) throws(JSONParser.SyntaxError) -> Bool in
            guard member.bit != 0, seen & member.bit == 0 else { return false }
            seen |= member.bit
            switch member {
            case .recordName: name = try parser.readString()
            case .recordType: type = try parser.readString()
            case .recordChangeTag:
                guard let text = try parser.readString() else { return false }
                tag = text
            case .zoneID:
                guard let zone = try Self.zone(&parser) else { return false }
                self.zone = zone
            case .fields:
                guard try Self.fields(&parser, into: &fields) else { return false }
            case .created:
                guard let stamp = try Self.stamp(&parser) else { return false }
                created = stamp
            case .modified:
                guard let stamp = try Self.stamp(&parser) else { return false }
                modified = stamp
            case .parent:
                guard let parent = try Self.parent(&parser) else { return false }
                self.parent = parent
            default: return false
            }
            return true
        }
        // A record without a name is given one, and one without a type is refused: the tree says how.
        guard complete, let name, let type else { return nil }
        // Restored as stored: no changed keys.
        var record = Record(restored: RecordID(recordName: name, zoneID: zone), recordType: type, fields: fields)
        record.recordChangeTag = tag
        if let parent { record.parent = Reference(recordName: parent) }
        if let created {
            record.creationDate = created.milliseconds.map { FieldValue.date(milliseconds: $0) }
            record.creatorUserRecordName = created.user
        }
        if let modified {
            record.modificationDate = modified.milliseconds.map { FieldValue.date(milliseconds: $0) }
            record.lastModifiedUserRecordName = modified.user
        }
        return record
    }

    /// Hands `body` each member name of the object that comes next, `body` taking its value;
    /// false when no object comes or `body` refuses a member.
    private static func members(of parser: inout JSONParser,
                                _ body: (inout JSONParser, String) throws(JSONParser.SyntaxError) -> Bool) throws(JSONParser.SyntaxError) -> Bool {
        guard parser.take(UInt8(ascii: "{")) else { return false }
        if parser.take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = try parser.readString(), parser.take(UInt8(ascii: ":")), try body(&parser, key) else { return false }
        } while parser.take(UInt8(ascii: ","))
        return parser.take(UInt8(ascii: "}"))
    }

    /// ``members(of:_:)`` for an object whose member names are ``Key``s: false at any other
    /// name (or one written with an escape), which the tree then reads.
    private static func members(of parser: inout JSONParser,
                                _ body: (inout JSONParser, Key) throws(JSONParser.SyntaxError) -> Bool) throws(JSONParser.SyntaxError) -> Bool {
        guard parser.take(UInt8(ascii: "{")) else { return false }
        if parser.take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let word = parser.readKnownWord(), let key = Key.byWord[word], parser.take(UInt8(ascii: ":")), try body(&parser, key) else {
                return false
            }
        } while parser.take(UInt8(ascii: ","))
        return parser.take(UInt8(ascii: "}"))
    }

    /// A `zoneID` with its name; every owner lands with the acting user, as a restore maps them.
    private static func zone(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> ZoneID? {
        var name: String?, owner = false, kind = false
        let complete = try members(of: &parser) { (parser: inout JSONParser, key: Key) throws(JSONParser.SyntaxError) -> Bool in
            switch key {
            case .zoneName where name == nil:
                name = try parser.readString()
                return name != nil
            case .ownerRecordName where !owner:
                owner = true
                return try parser.readString() != nil
            case .zoneType where !kind:
                kind = true
                return try parser.readString() != nil
            default: return false
            }
        }
        guard complete, let name else { return nil }
        return ZoneID(zoneName: name, ownerName: ZoneID.defaultOwnerName)
    }

    /// `created` or `modified`: `{timestamp, userRecordName}`.
    private static func stamp(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> (milliseconds: Int64?, user: String?)? {
        var stamp: (milliseconds: Int64?, user: String?) = (nil, nil)
        var time = false, user = false
        let complete = try members(of: &parser) { (parser: inout JSONParser, key: Key) throws(JSONParser.SyntaxError) -> Bool in
            switch key {
            case .timestamp where !time:
                time = true
                stamp.milliseconds = try parser.readValue().int64Value
            case .userRecordName where !user:
                user = true
                stamp.user = try parser.readValue().stringValue
            default: return false
            }
            return true
        }
        return complete ? stamp : nil
    }

    private static func parent(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> String? {
        var name: String?
        let complete = try members(of: &parser) { (parser: inout JSONParser, key: Key) throws(JSONParser.SyntaxError) -> Bool in
            guard key == .recordName, name == nil else { return false }
            name = try parser.readString()
            return name != nil
        }
        return complete ? name : nil
    }

    /// `fields`: each `{value, type}` (or null, which removes a field named before it), in
    /// document order, as the tree path sets them; false for anything else. Put straight into
    /// the record's dictionary: a list of them first cost a second copy of every name and value.
    private static func fields(_ parser: inout JSONParser, into fields: inout [String: FieldValue]) throws(JSONParser.SyntaxError) -> Bool {
        fields.reserveCapacity(16)
        return try members(of: &parser) { (parser: inout JSONParser, name: String) throws(JSONParser.SyntaxError) -> Bool in
            if parser.peek() == UInt8(ascii: "n") {
                guard case .null = try parser.readValue() else { return false }
                fields[name] = nil
                return true
            }
            guard let value = try field(&parser) else { return false }
            fields[name] = value
            return true
        }
    }

    /// One `{value, type}` field whose type is one of the tags exports write.
    private static func field(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> FieldValue? {
        var value: JSONValue?
        var place: Location?
        var type: FieldType?
        let complete = try members(of: &parser) { (parser: inout JSONParser, key: Key) throws(JSONParser.SyntaxError) -> Bool in
            switch key {
            case .value where value == nil && place == nil:
                // A place as exports write it is read without a tree; any other object is read
                // again, as a tree.
                let mark = parser.mark
                if parser.peek() == UInt8(ascii: "{"), let read = try Self.place(&parser) {
                    place = read
                } else {
                    parser.rewind(to: mark)
                    value = try parser.readValue()
                }
            case .type where type == nil:
                guard let word = parser.readKnownWord(), let known = RecordJSON.tagsByKnownWord[word] else { return false }
                type = known
            default: return false
            }
            return true
        }
        guard complete, let type else { return nil }
        if let place { return type == .location ? .location(place) : nil }
        guard let value else { return nil }
        if !type.isList {
            // The commonest pairs, taken as decodeValue takes them, without its general path.
            switch (type.base, value) {
            case (.string, .string(let text)): return .string(text)
            case (.int64, .integer(let number)): return .int64(number)
            case (.double, .number(let number)): return .double(number)
            case (.timestamp, .integer(let milliseconds)): return .timestamp(FieldValue.date(milliseconds: milliseconds))
            default: break
            }
        }
        return try? RecordJSON.decodeValue(value, as: type, path: "", uploadAsset: nil)
    }

    /// A place written `{"latitude": ..., "longitude": ...}`, numbers in either order, as
    /// exports write one without its optional parts; nil for anything else.
    private static func place(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Location? {
        var latitude: Double?, longitude: Double?
        let complete = try members(of: &parser) { (parser: inout JSONParser, key: Key) throws(JSONParser.SyntaxError) -> Bool in
            switch key {
            case .latitude where latitude == nil:
                latitude = try parser.readValue().doubleValue
                return latitude != nil
            case .longitude where longitude == nil:
                longitude = try parser.readValue().doubleValue
                return longitude != nil
            default: return false
            }
        }
        guard complete, let latitude, let longitude else { return nil }
        return Location(latitude: latitude, longitude: longitude)
    }
}
