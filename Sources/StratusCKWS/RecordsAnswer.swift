import Foundation
import StratusModel
import StratusCloud

/// The records of a CKWS answer, as a client reads them: records/query's
/// `{"records": [...], "continuationMarker"}`, or one zone of changes/zone's
/// `{"zones": [{"zoneID", "syncToken", "moreComing", "records": [...]}]}`.
///
/// Read from the answer's bytes member by member (``RecordObjectReader``), the way
/// ``RecordWriter`` writes them, with no tree of ``JSONValue``s in between: parsing a page of
/// 100 records into a tree and decoding the tree was over half of a remote client's time for a
/// page. An answer this reading cannot take (an escape in a member name, a null where a value
/// belongs, a record without a type) is read again as a tree, which decodes it the same way or
/// says what is wrong, so both readings give the same records.
public struct RecordsAnswer: Hashable, Sendable {
    /// The entries of `records`, in the answer's order; nil when the answer had none.
    public var records: [AnsweredRecord]?
    /// The answer's other members (`continuationMarker`, `syncToken`, `moreComing`, `zoneID`, a
    /// zone's `serverErrorCode`), as an object.
    public var members: JSONValue

    /// records/query's answer. `zoneID`: the zone of a record that names none.
    public static func decode(_ bytes: [UInt8], zoneID: ZoneID) throws(RecordJSON.DecodingError) -> RecordsAnswer {
        if let fast = readMemberByMember(bytes, zoneID: zoneID) { return fast }
        return try decodeTree(bytes, zoneID: zoneID)
    }

    /// The answer read member by member; nil when that reading cannot take it.
    package static func readMemberByMember(_ bytes: [UInt8], zoneID: ZoneID) -> RecordsAnswer? {
        bytes.withUnsafeBufferPointer { buffer in
            JSONParser.read(buffer) { (parser: inout JSONParser) throws(JSONParser.SyntaxError) in try RecordsAnswer.read(&parser, zoneID: zoneID) }
        }
    }

    /// The answer read as a tree.
    package static func decodeTree(_ bytes: [UInt8], zoneID: ZoneID) throws(RecordJSON.DecodingError) -> RecordsAnswer {
        try decode(tree: tree(bytes), zoneID: zoneID)
    }

    /// changes/zone's answer: each zone's records and members, in order.
    public static func decodeZones(_ bytes: [UInt8], zoneID: ZoneID) throws(RecordJSON.DecodingError) -> [RecordsAnswer] {
        if let fast = readZonesMemberByMember(bytes, zoneID: zoneID) { return fast }
        return try decodeZonesTree(bytes, zoneID: zoneID)
    }

    /// changes/zone's answer read member by member; nil when that reading cannot take it.
    package static func readZonesMemberByMember(_ bytes: [UInt8], zoneID: ZoneID) -> [RecordsAnswer]? {
        bytes.withUnsafeBufferPointer { buffer in
            JSONParser.read(buffer) { (parser: inout JSONParser) throws(JSONParser.SyntaxError) -> [RecordsAnswer]? in
                var zones: [RecordsAnswer]?
                let complete = try members(of: &parser) { (parser: inout JSONParser, word: Int?, _: String) throws(JSONParser.SyntaxError) -> Bool in
                    guard word == Words.zones else {
                        _ = try parser.readValue()
                        return true
                    }
                    guard zones == nil else { return false }
                    var read: [RecordsAnswer] = []
                    guard try items(of: &parser, { (parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Bool in
                        guard let zone = try RecordsAnswer.read(&parser, zoneID: zoneID) else { return false }
                        read.append(zone)
                        return true
                    }) else { return false }
                    zones = read
                    return true
                }
                return complete ? zones : nil
            }
        }
    }

    /// changes/zone's answer read as a tree.
    package static func decodeZonesTree(_ bytes: [UInt8], zoneID: ZoneID) throws(RecordJSON.DecodingError) -> [RecordsAnswer] {
        let json = try tree(bytes)
        guard case .array(let zones)? = json["zones"] else { throw RecordJSON.DecodingError(path: "zones", message: "missing; a changes/zone answer lists its zones") }
        var answers: [RecordsAnswer] = []
        for (index, zone) in zones.enumerated() {
            do {
                answers.append(try decode(tree: zone, zoneID: zoneID))
            } catch {
                throw RecordJSON.DecodingError(path: "zones[\(index)]" + (error.path.isEmpty ? "" : ".\(error.path)"), message: error.message)
            }
        }
        return answers
    }

    /// The known words this reading looks for among an answer's member names.
    private enum Words {
        static let records = JSONParser.knownWordNumber("records")!
        static let zones = JSONParser.knownWordNumber("zones")!
    }

    /// An object with a `records` array, member by member; nil for anything this reading
    /// does not take.
    private static func read(_ parser: inout JSONParser, zoneID: ZoneID) throws(JSONParser.SyntaxError) -> RecordsAnswer? {
        var records: [AnsweredRecord]?
        var others: [(String, JSONValue)] = []
        let complete = try members(of: &parser) { (parser: inout JSONParser, word: Int?, name: String) throws(JSONParser.SyntaxError) -> Bool in
            guard word == Words.records else {
                others.append((name, try parser.readValue()))
                return true
            }
            guard records == nil else { return false }
            var read: [AnsweredRecord] = []
            read.reserveCapacity(200)
            guard try items(of: &parser, { (parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Bool in
                var reader = RecordObjectReader(zoneID: zoneID, reading: .answer)
                let change: AnsweredRecord.Change
                switch try reader.read(&parser) {
                case .saved(let record)?: change = .saved(record)
                case .deleted(let name, let type)?: change = .deleted(recordName: name, recordType: type)
                case nil: return false
                }
                // A deleted entry's assets have nothing to download, as the tree reads it.
                let saved = if case .saved = change { true } else { false }
                read.append(AnsweredRecord(change: change, changedKeys: reader.changedKeys, shortGUID: reader.shortGUID,
                                           downloadURLs: saved ? reader.downloadURLs : [:]))
                return true
            }) else { return false }
            records = read
            return true
        }
        guard complete, records != nil else { return nil }
        return RecordsAnswer(records: records, members: .object(others))
    }

    /// Hands `body` each member of the object that comes next: the number of its name when it
    /// is a known word, and its name. False when no object comes, a name is not a plain
    /// string, or `body` refuses a member.
    private static func members(of parser: inout JSONParser,
                                _ body: (inout JSONParser, Int?, String) throws(JSONParser.SyntaxError) -> Bool) throws(JSONParser.SyntaxError) -> Bool {
        guard try parser.open(UInt8(ascii: "{")) else { return false }
        if parser.close(UInt8(ascii: "}")) { return true }
        repeat {
            let word = parser.readKnownWord()
            let name: String
            if let word {
                name = JSONParser.knownText(word)
            } else {
                // A known word spelled otherwise gives up, as in a record (``RecordObjectReader``).
                guard let text = try parser.readString(), JSONParser.knownWordNumber(text) == nil else { return false }
                name = text
            }
            guard parser.take(UInt8(ascii: ":")), try body(&parser, word, name) else { return false }
        } while parser.take(UInt8(ascii: ","))
        return parser.close(UInt8(ascii: "}"))
    }

    /// Hands `body` each item of the array that comes next; false when no array comes or
    /// `body` refuses an item.
    private static func items(of parser: inout JSONParser, _ body: (inout JSONParser) throws(JSONParser.SyntaxError) -> Bool) throws(JSONParser.SyntaxError) -> Bool {
        guard try parser.open(UInt8(ascii: "[")) else { return false }
        if parser.close(UInt8(ascii: "]")) { return true }
        repeat {
            guard try body(&parser) else { return false }
        } while parser.take(UInt8(ascii: ","))
        return parser.close(UInt8(ascii: "]"))
    }

    /// The answer as a tree, for the reading that says what is wrong.
    private static func tree(_ bytes: [UInt8]) throws(RecordJSON.DecodingError) -> JSONValue {
        do {
            return try JSONParser.parse(utf8: bytes)
        } catch {
            throw RecordJSON.DecodingError(path: "", message: "not JSON (\(error))")
        }
    }

    /// An answer object read from its tree: the same records, or the error that names the
    /// entry (`records[3].fields.title`).
    private static func decode(tree json: JSONValue, zoneID: ZoneID) throws(RecordJSON.DecodingError) -> RecordsAnswer {
        guard case .object(let members) = json else { throw RecordJSON.DecodingError(path: "", message: "expected an object, found \(json.kindName)") }
        var records: [AnsweredRecord]?
        if let list = json["records"] {
            guard case .array(let items) = list else { throw RecordJSON.DecodingError(path: "records", message: "must be an array") }
            var read: [AnsweredRecord] = []
            for (index, item) in items.enumerated() {
                do {
                    read.append(try AnsweredRecord.decode(item, zoneID: zoneID))
                } catch {
                    throw RecordJSON.DecodingError(path: "records[\(index)]" + (error.path.isEmpty ? "" : ".\(error.path)"), message: error.message)
                }
            }
            records = read
        }
        return RecordsAnswer(records: records, members: .object(members.filter { $0.0 != "records" }))
    }
}
