import Foundation
import Testing
import StratusModel
import StratusCloud
import StratusCKWS

/// The one record encoder: its bytes, parsed, are the Web Services JSON of every field type,
/// and every other output of records (trees, answers, export lines) says the same.
@Suite struct RecordWriterTests {
    static let zone = ZoneID(zoneName: "Notes")
    static let when = Date(timeIntervalSince1970: 1_700_000_000.123)

    /// The record's bytes as the writer writes them, parsed.
    private func written(_ record: Record, writer: RecordWriter = RecordWriter(), encrypted: Set<String> = [],
                         extra: [(String, JSONValue)] = [], assetURL: (Asset) -> String? = { _ in nil }) throws -> JSONValue {
        var out = JSONBytes()
        writer.write(record, encrypted: encrypted, extra: extra, into: &out, assetURL: assetURL)
        return try JSONParser.parse(utf8: out.bytes)
    }

    private func field(_ value: FieldValue, writer: RecordWriter = RecordWriter(), assetURL: (Asset) -> String? = { _ in nil }) throws -> JSONValue {
        let record = Record(recordType: "T", recordID: RecordID(recordName: "r", zoneID: Self.zone), fields: ["f": value])
        return try #require(try written(record, writer: writer, assetURL: assetURL)["fields"]?["f"])
    }

    private func expected(_ value: JSONValue, _ type: String) -> JSONValue { .object([("value", value), ("type", .string(type))]) }

    @Test func scalarsOfEveryTypeAreWrittenAsWebServicesSpellsThem() throws {
        let cases: [(FieldValue, JSONValue, String)] = [
            (.string("plain"), .string("plain"), "STRING"),
            (.int64(42), .integer(42), "INT64"),
            (.int64(.max), .integer(.max), "INT64"),
            (.int64(.min), .integer(.min), "INT64"),
            (.int64(-7), .integer(-7), "INT64"),
            (.double(5), .number(5), "DOUBLE"),
            (.double(2.5), .number(2.5), "DOUBLE"),
            (.double(-0.0), .number(-0.0), "DOUBLE"),
            (.double(1e300), .number(1e300), "DOUBLE"),
            (.double(1e-7), .number(1e-7), "DOUBLE"),
            (.timestamp(Self.when), .integer(1_700_000_000_123), "TIMESTAMP"),
            (.bytes(Data([0, 1, 2, 250])), .string(Data([0, 1, 2, 250]).base64EncodedString()), "BYTES"),
            (.reference(Reference(recordName: "parent")), .object([("recordName", .string("parent")), ("action", .string("NONE"))]), "REFERENCE"),
            (.reference(Reference(recordName: "p2", action: .deleteSelf)),
             .object([("recordName", .string("p2")), ("action", .string("DELETE_SELF"))]), "REFERENCE"),
            (.asset(Asset(fileChecksum: "abc", size: 12)), .object([("fileChecksum", .string("abc")), ("size", .integer(12))]), "ASSET"),
            (.location(Location(latitude: 38.7, longitude: -9.1)), .object([("latitude", .number(38.7)), ("longitude", .number(-9.1))]), "LOCATION"),
            (.location(Location(latitude: 1, longitude: 2, altitude: 3, horizontalAccuracy: 4, verticalAccuracy: 5, course: 6, speed: 7, timestamp: Self.when)),
             .object([("latitude", .number(1)), ("longitude", .number(2)), ("altitude", .number(3)), ("horizontalAccuracy", .number(4)),
                      ("verticalAccuracy", .number(5)), ("course", .number(6)), ("speed", .number(7)), ("timestamp", .integer(1_700_000_000_123))]), "LOCATION"),
        ]
        for (value, json, type) in cases {
            let written = try field(value)
            #expect(written == expected(json, type), "\(value)")
            // Bit for bit, where == cannot tell -0.0 from 0.0.
            if case .double(let number) = value, case .number(let read)? = written["value"] { #expect(read.bitPattern == number.bitPattern) }
        }
    }

    @Test func listsOfEveryTypeAndEmptyListsAreArrays() throws {
        let items: [FieldType.BaseType: [FieldValue]] = [
            .string: [.string("a"), .string("b")], .int64: [.int64(1), .int64(-2)], .double: [.double(1), .double(0.5)],
            .timestamp: [.timestamp(Self.when)], .bytes: [.bytes(Data("hi".utf8))],
            .reference: [.reference(Reference(recordName: "x", action: .deleteSelf))],
            .asset: [.asset(Asset(fileChecksum: "c1", size: 1)), .asset(Asset(fileChecksum: "c2", size: 2))],
            .location: [.location(Location(latitude: 0, longitude: 0))],
        ]
        for (base, values) in items {
            let written = try field(.list(base, values))
            let one = try values.map { try #require(try field($0)["value"]) }
            #expect(written == expected(.array(one), FieldType.list(base).webServicesTag), "\(base)")
            #expect(try field(.list(base, [])) == expected(.array([]), FieldType.list(base).webServicesTag), "\(base)")
        }
    }

    @Test func stringsKeepQuotesControlCharactersCJKAndEmoji() throws {
        let texts = ["say \"hi\"", "back\\slash", "line\nbreak\r\ttab", "\u{00}\u{01}\u{1f}\u{7f}", "東京の天気", "🗼🥐👩‍👩‍👧", "é/<>&", ""]
        for text in texts {
            #expect(try field(.string(text)) == expected(.string(text), "STRING"), "\(text.debugDescription)")
        }
        // Keys are escaped as values are.
        let record = Record(recordType: "T\"", recordID: RecordID(recordName: "名前\n", zoneID: Self.zone), fields: ["k\"ey": .string("v")])
        let json = try written(record)
        #expect(json["recordName"] == .string("名前\n") && json["recordType"] == .string("T\""))
        #expect(json["fields"]?["k\"ey"] == expected(.string("v"), "STRING"))
        var out = JSONBytes()
        RecordWriter().writeValue(.string("a\"\u{01}東"), into: &out)
        #expect(out.bytes == Array(#""a\"\u0001東""#.utf8))
    }

    @Test func aLoneSurrogateCannotReachARecordAndItsRepairLeavesAsValidUTF8() throws {
        // The parser refuses one; a Swift string cannot hold one: its bytes decode to U+FFFD.
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(#""a\ud800b""#) }
        let text = String(decoding: [0x61, 0xED, 0xA0, 0x80, 0x62], as: UTF8.self)
        var out = JSONBytes()
        RecordWriter().writeValue(.string(text), into: &out)
        #expect(text.unicodeScalars.contains("\u{FFFD}"))
        #expect(String(validating: out.bytes, as: UTF8.self) == "\"" + text + "\"")
        #expect(try JSONParser.parse(utf8: out.bytes) == .string(text))
    }

    @Test func aDoubleThatIsNotFiniteIsWrittenAsBefore() throws {
        // The engine refuses to store one; an unsaved record still prints, as Swift spells it.
        for (number, text) in [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf")] {
            var out = JSONBytes()
            RecordWriter().writeValue(.double(number), into: &out)
            #expect(String(decoding: out.bytes, as: UTF8.self) == text)
            let record = Record(recordType: "T", recordID: RecordID(recordName: "r", zoneID: Self.zone), fields: ["f": .double(number)])
            let tree = RecordJSON.encode(record)
            guard case .number(let read)? = tree["fields"]?["f"]?["value"] else { Issue.record("\(tree)"); continue }
            #expect(read.isNaN == number.isNaN && (number.isNaN || read == number))
            #expect(JSONWriter.string(tree).contains(#"{"value":\#(text),"type":"DOUBLE"}"#))
        }
    }

    @Test func theRecordsMembersComeInTheirOrderWithTheCallersLast() throws {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "N1", zoneID: Self.zone),
                            fields: ["b": .int64(2), "a": .string("x"), "secret": .string("s")])
        record.recordChangeTag = "t1"
        record.creationDate = Self.when
        record.creatorUserRecordName = "_alice"
        record.modificationDate = Self.when
        record.parent = Reference(recordName: "P")
        let json = try written(record, writer: RecordWriter(owner: "_me"), encrypted: ["secret"], extra: [("deleted", .bool(false))])
        guard case .object(let members) = json else { Issue.record("\(json)"); return }
        #expect(members.map(\.0) == ["recordName", "recordType", "recordChangeTag", "zoneID", "fields", "created", "modified", "parent", "deleted"])
        #expect(json["zoneID"] == .object([("zoneName", .string("Notes")), ("ownerRecordName", .string("_me")), ("zoneType", .string("REGULAR_CUSTOM_ZONE"))]))
        guard case .object(let fields)? = json["fields"] else { Issue.record("\(json)"); return }
        #expect(fields.map(\.0) == ["a", "b", "secret"])
        #expect(json["fields"]?["secret"] == .object([("value", .string("s")), ("type", .string("STRING")), ("isEncrypted", .bool(true))]))
        #expect(json["created"] == .object([("timestamp", .integer(1_700_000_000_123)), ("userRecordName", .string("_alice"))]))
        #expect(json["modified"] == .object([("timestamp", .integer(1_700_000_000_123)), ("userRecordName", .string(""))]))
        #expect(json["parent"] == .object([("recordName", .string("P"))]))
        // The export's shape: the store's own owner, no zone type, nothing unsaved written.
        let bare = try written(Record(recordType: "Note", recordID: RecordID(recordName: "N2")))
        #expect(bare == .object([("recordName", .string("N2")), ("recordType", .string("Note")),
                                 ("zoneID", .object([("zoneName", .string(ZoneID.defaultZoneName)), ("ownerRecordName", .string(ZoneID.defaultOwnerName))])),
                                 ("fields", .object([]))]))
    }

    @Test func numbersAsStringsAndAssetURLsApplyWhereWebServicesSaysSo() throws {
        let strings = RecordWriter(numbersAsStrings: true)
        #expect(try field(.int64(.max), writer: strings) == expected(.string("9223372036854775807"), "INT64"))
        #expect(try field(.double(5), writer: strings) == expected(.string("5.0"), "DOUBLE"))
        #expect(try field(.timestamp(Self.when), writer: strings) == expected(.string("1700000000123"), "TIMESTAMP"))
        #expect(try field(.list(.int64, [.int64(1)]), writer: strings) == expected(.array([.string("1")]), "INT64_LIST"))
        // Locations keep their numbers; strings stay strings.
        #expect(try field(.location(Location(latitude: 1, longitude: 2)), writer: strings)["value"]?["latitude"] == .number(1))
        #expect(try field(.string("7"), writer: strings) == expected(.string("7"), "STRING"))
        let url: (Asset) -> String? = { "http://h/\($0.fileChecksum)" }
        #expect(try field(.asset(Asset(fileChecksum: "c", size: 3)), assetURL: url)
                == expected(.object([("fileChecksum", .string("c")), ("size", .integer(3)), ("downloadURL", .string("http://h/c"))]), "ASSET"))
        #expect(try field(.list(.asset, [.asset(Asset(fileChecksum: "d", size: 1))]), assetURL: url)["value"]
                == .array([.object([("fileChecksum", .string("d")), ("size", .integer(1)), ("downloadURL", .string("http://h/d"))])]))
    }

    @Test func theTreeAndTheBytesAreOneEncoding() throws {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "N1", zoneID: Self.zone),
                            fields: ["t": .string("東京 \"q\""), "n": .list(.double, [.double(1), .double(2.5)]), "w": .timestamp(Self.when)])
        record.recordChangeTag = "x"
        for owner in [nil, "_me"] as [String?] {
            var out = JSONBytes()
            RecordWriter(owner: owner).write(record, into: &out)
            #expect(JSONWriter.bytes(RecordJSON.encode(record, owner: owner)) == out.bytes)
        }
        #expect(RecordJSON.encodeValue(.list(.int64, [.int64(3)])) == .array([.integer(3)]))
        #expect(RecordJSON.encodeZoneID(Self.zone, owner: nil) == .object([("zoneName", .string("Notes")), ("ownerRecordName", .string(ZoneID.defaultOwnerName))]))
    }

    @Test func answersWrapRecordsAndTreesInTheirEnvelopes() throws {
        let record = Record(recordType: "Note", recordID: RecordID(recordName: "N1", zoneID: Self.zone), fields: ["a": .int64(1)])
        let writer = RecordsAnswerWriter(records: RecordWriter(owner: "_me"))
        let error = JSONValue.object([("recordName", .string("gone")), ("serverErrorCode", .string("NOT_FOUND"))])
        let recordJSON = try written(record, writer: RecordWriter(owner: "_me"), extra: [("deleted", .bool(false))])
        let entries: [RecordEntry] = [.record(record, encrypted: [], extra: [("deleted", .bool(false))]), .json(error)]
        #expect(try JSONParser.parse(utf8: writer.records(entries)) == .object([("records", .array([recordJSON, error]))]))
        #expect(try JSONParser.parse(utf8: writer.records([], continuationMarker: "m"))
                == .object([("records", .array([])), ("continuationMarker", .string("m"))]))
        let page = ZoneChangePage(zoneID: Self.zone, entries: entries, syncToken: "tok", moreComing: true)
        let pageJSON = ChangePageJSON.encode([("zoneID", RecordJSON.encodeZoneID(Self.zone, owner: "_me")), ("records", .array([recordJSON, error]))],
                                             syncToken: "tok", moreComing: true)
        #expect(try JSONParser.parse(utf8: writer.changePage(page)) == pageJSON)
        #expect(try JSONParser.parse(utf8: writer.zones([.page(page), .failure(error)])) == .object([("zones", .array([pageJSON, error]))]))
    }
}
