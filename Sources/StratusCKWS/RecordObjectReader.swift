import Foundation
import StratusModel
import StratusCloud

/// One record object read member by member from JSON bytes, without a tree of ``JSONValue``s:
/// a line of an export being restored, or an entry of a server's answer being read by a
/// client. Each value is still decoded by ``RecordJSON/decodeValue(_:as:path:uploadAsset:)``
/// (or, for the commonest pairs, as it would decode them), so a value means the same on
/// either path.
///
/// Nil from ``read(_:)`` means "read this object as a tree": a member met twice (the tree
/// takes the first), a null where a value belongs, a field without its type, a value its type
/// refuses, a record without a name or a type. The tree then decodes it or says what is wrong.
struct RecordObjectReader {
    /// What is being read, which decides what is done with the members a record's shape does
    /// not have.
    enum Reading {
        /// A line an export wrote: nothing else is expected, and another member (a wrapper's
        /// `records`, a `deleted`) hands the line to the tree, which knows those shapes. Every
        /// zone's owner lands with the acting user, as a restore maps them.
        case restore
        /// A record a server answered: members this reader does not use (iCloud's
        /// `pluginFields`, a stamp's `deviceID`, a field's `isEncrypted`, a share) are passed
        /// over, as the tree passes them over; zones keep their owners; `deleted`,
        /// `changedKeys`, `shortGUID` and assets' `downloadURL`s are kept beside the record.
        case answer
    }

    /// What one object held.
    enum Object {
        case saved(Record)
        /// An entry with `"deleted": true`: its name, and its type when it has one.
        case deleted(recordName: String, recordType: String?)
    }

    let reading: Reading
    private var name: String?
    private var type: String?
    private var tag: String?
    private var zone: ZoneID
    private var parent: String?
    private var created: (milliseconds: Int64?, user: String?)?
    private var modified: (milliseconds: Int64?, user: String?)?
    private var fields: [String: FieldValue] = [:]
    private var deleted = false
    /// The answer's `changedKeys` for this record, when it sent them.
    private(set) var changedKeys: [String]?
    /// The answer's `shortGUID` (a share's), when it sent one.
    private(set) var shortGUID: String?
    /// Each asset value's `downloadURL` the answer gave, by the asset's `fileChecksum`.
    private(set) var downloadURLs: [String: String] = [:]

    init(zoneID: ZoneID, reading: Reading) {
        zone = zoneID
        self.reading = reading
    }

    /// The member names of a record's objects other than its fields: the record's, its
    /// zone's, its times', its parent's, each field's and each asset's. Each is a known word
    /// (``JSONParser/knownWords``), read as its number, so no string is made of it and no
    /// string compared with it.
    private enum Key: CaseIterable {
        case recordName, recordType, recordChangeTag, zoneID, fields, created, modified, parent, deleted, changedKeys, shortGUID
        case zoneName, ownerRecordName, zoneType, timestamp, userRecordName, value, type, latitude, longitude, fileChecksum, downloadURL

        /// Each key by the number of its word (its case name).
        static let byWord: [Key?] = allCases.reduce(into: Array(repeating: nil, count: JSONParser.knownWords.count)) { table, key in
            table[JSONParser.knownWordNumber("\(key)")!] = key
        }

        /// Its flag among the record's members read; 0 for a key that is not a record's.
        var bit: UInt16 {
            switch self {
            case .recordName: 1
            case .recordType: 2
            case .recordChangeTag: 4
            case .zoneID: 8
            case .fields: 16
            case .created: 32
            case .modified: 64
            case .parent: 128
            case .deleted: 256
            case .changedKeys: 512
            case .shortGUID: 1024
            default: 0
            }
        }

        /// Whether a restore reads it: the answer's own members are not an export's.
        var isRestored: Bool { bit != 0 && bit < 256 }
    }

    mutating func read(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Object? {
        var seen: UInt16 = 0
        let complete = try members(of: &parser) { (reader: inout RecordObjectReader, parser: inout JSONParser, member: Key?) throws(JSONParser.SyntaxError) -> Bool in
            guard let member, member.bit != 0 else { return try reader.passOver(&parser) }
            guard seen & member.bit == 0, reader.reading == .answer || member.isRestored else { return false }
            seen |= member.bit
            return try reader.readMember(member, from: &parser)
        }
        guard complete, let name else { return nil }
        if deleted { return .deleted(recordName: name, recordType: type) }
        // A record without a name is given one, and one without a type is refused: the tree says how.
        guard let type else { return nil }
        // As stored (or as fetched): no changed keys.
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
        return .saved(record)
    }

    private mutating func readMember(_ member: Key, from parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Bool {
        switch member {
        case .recordName:
            name = try parser.readString()
            return name != nil
        case .recordType:
            type = try parser.readString()
            return type != nil
        case .recordChangeTag:
            tag = try parser.readString()
            return tag != nil
        case .zoneID:
            guard let zone = try zone(&parser) else { return false }
            self.zone = zone
        case .fields:
            guard try fields(&parser) else { return false }
        case .created:
            guard let stamp = try stamp(&parser) else { return false }
            created = stamp
        case .modified:
            guard let stamp = try stamp(&parser) else { return false }
            modified = stamp
        case .parent:
            guard let parent = try parent(&parser) else { return false }
            self.parent = parent
        case .deleted:
            guard case .bool(let flag) = try parser.readValue() else { return false }
            deleted = flag
        case .changedKeys:
            guard let keys = try parser.readValue().arrayOfStrings else { return false }
            changedKeys = keys
        case .shortGUID:
            shortGUID = try parser.readString()
            return shortGUID != nil
        default: return false
        }
        return true
    }

    /// A member this reader does not use: read and dropped from an answer (the tree drops it
    /// too); a restore gives the line to the tree.
    private func passOver(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Bool {
        guard reading == .answer else { return false }
        _ = try parser.readValue()
        return true
    }

    /// Hands `body` each member name of the object that comes next, `body` taking its value;
    /// false when no object comes or `body` refuses a member.
    private mutating func members(of parser: inout JSONParser,
                                  _ body: (inout RecordObjectReader, inout JSONParser, String) throws(JSONParser.SyntaxError) -> Bool) throws(JSONParser.SyntaxError) -> Bool {
        guard try parser.open(UInt8(ascii: "{")) else { return false }
        if parser.close(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = try parser.readString(), parser.take(UInt8(ascii: ":")), try body(&self, &parser, key) else { return false }
        } while parser.take(UInt8(ascii: ","))
        return parser.close(UInt8(ascii: "}"))
    }

    /// ``members(of:_:)`` for an object whose member names are ``Key``s; `body` gets nil for
    /// any other name, which a restore refuses and an answer passes over.
    private mutating func members(of parser: inout JSONParser,
                                  _ body: (inout RecordObjectReader, inout JSONParser, Key?) throws(JSONParser.SyntaxError) -> Bool) throws(JSONParser.SyntaxError) -> Bool {
        guard try parser.open(UInt8(ascii: "{")) else { return false }
        if parser.close(UInt8(ascii: "}")) { return true }
        repeat {
            let key: Key?
            if let word = parser.readKnownWord() {
                key = Key.byWord[word]
            } else {
                // Another name. A known one spelled otherwise (an escape, or characters Swift
                // takes as equal) gives up: the tree decodes names before comparing them.
                guard reading == .answer, let other = try parser.readString(), JSONParser.knownWordNumber(other) == nil else { return false }
                key = nil
            }
            guard parser.take(UInt8(ascii: ":")), try body(&self, &parser, key) else { return false }
        } while parser.take(UInt8(ascii: ","))
        return parser.close(UInt8(ascii: "}"))
    }

    /// A `zoneID` with its name. A restore lands every zone with the acting user; an answer's
    /// zone keeps its owner (the default owner when it names none), as the tree reads it.
    private mutating func zone(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> ZoneID? {
        var name: String?, owner: String?, kind = false
        let complete = try members(of: &parser) { (reader: inout RecordObjectReader, parser: inout JSONParser, key: Key?) throws(JSONParser.SyntaxError) -> Bool in
            switch key {
            case .zoneName where name == nil:
                name = try parser.readString()
                return name != nil
            case .ownerRecordName where owner == nil:
                owner = try parser.readString()
                return owner != nil
            case .zoneType where !kind:
                kind = true
                return try parser.readString() != nil
            case .zoneName, .ownerRecordName, .zoneType: return false
            default: return try reader.passOver(&parser)
            }
        }
        guard complete, let name else { return nil }
        return ZoneID(zoneName: name, ownerName: reading == .answer ? owner ?? ZoneID.defaultOwnerName : ZoneID.defaultOwnerName)
    }

    /// `created` or `modified`: `{timestamp, userRecordName}`.
    private mutating func stamp(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> (milliseconds: Int64?, user: String?)? {
        var stamp: (milliseconds: Int64?, user: String?) = (nil, nil)
        var time = false, user = false
        let complete = try members(of: &parser) { (reader: inout RecordObjectReader, parser: inout JSONParser, key: Key?) throws(JSONParser.SyntaxError) -> Bool in
            switch key {
            case .timestamp where !time:
                time = true
                stamp.milliseconds = try parser.readValue().int64Value
            case .userRecordName where !user:
                user = true
                stamp.user = try parser.readValue().stringValue
            case .timestamp, .userRecordName: return false
            default: return try reader.passOver(&parser)
            }
            return true
        }
        return complete ? stamp : nil
    }

    private mutating func parent(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> String? {
        var name: String?
        let complete = try members(of: &parser) { (reader: inout RecordObjectReader, parser: inout JSONParser, key: Key?) throws(JSONParser.SyntaxError) -> Bool in
            guard key == .recordName else { return try reader.passOver(&parser) }
            guard name == nil else { return false }
            name = try parser.readString()
            return name != nil
        }
        return complete ? name : nil
    }

    /// `fields`: each `{value, type}` (or null, which removes a field named before it), in
    /// document order, as the tree path sets them; false for anything else. Put straight into
    /// the record's dictionary: a list of them first cost a second copy of every name and value.
    private mutating func fields(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Bool {
        fields.reserveCapacity(16)
        return try members(of: &parser) { (reader: inout RecordObjectReader, parser: inout JSONParser, name: String) throws(JSONParser.SyntaxError) -> Bool in
            if parser.peek() == UInt8(ascii: "n") {
                guard case .null = try parser.readValue() else { return false }
                reader.fields[name] = nil
                return true
            }
            guard let value = try reader.field(&parser) else { return false }
            reader.fields[name] = value
            return true
        }
    }

    /// One `{value, type}` field whose type is one of the tags exports write.
    private mutating func field(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> FieldValue? {
        var value: JSONValue?
        var place: Location?
        var type: FieldType?
        let complete = try members(of: &parser) { (reader: inout RecordObjectReader, parser: inout JSONParser, key: Key?) throws(JSONParser.SyntaxError) -> Bool in
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
            case .value, .type: return false
            default: return try reader.passOver(&parser)
            }
            return true
        }
        guard complete, let type else { return nil }
        if let place { return type == .location ? .location(place) : nil }
        guard let value, value != .null else { return nil }
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
        if type.base == .asset, reading == .answer { AnsweredRecord.keepDownloadURLs(of: value, in: &downloadURLs) }
        return try? RecordJSON.decodeValue(value, as: type, path: "", uploadAsset: nil)
    }

    /// A place written `{"latitude": ..., "longitude": ...}`, numbers in either order, as
    /// exports write one without its optional parts; nil for anything else.
    private static func place(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Location? {
        var latitude: Double?, longitude: Double?
        guard try parser.open(UInt8(ascii: "{")) else { return nil }
        repeat {
            guard let word = parser.readKnownWord(), parser.take(UInt8(ascii: ":")) else { return nil }
            switch Key.byWord[word] {
            case .latitude where latitude == nil:
                guard let number = try parser.readValue().doubleValue else { return nil }
                latitude = number
            case .longitude where longitude == nil:
                guard let number = try parser.readValue().doubleValue else { return nil }
                longitude = number
            default: return nil
            }
        } while parser.take(UInt8(ascii: ","))
        guard parser.close(UInt8(ascii: "}")), let latitude, let longitude else { return nil }
        return Location(latitude: latitude, longitude: longitude)
    }
}
