import Foundation
import Testing
import StratusModel
@testable import StratusEngine
import StratusCloud
import StratusCKWS

/// A restore reads export lines member by member (``RecordJSON/decodeRestored(utf8:zoneID:)``)
/// and anything else through the tree (``RecordDocument``): for every line the first accepts, the
/// two must make the same record, and it must leave every other line to the tree.
@Suite struct RestoredLineTests {
    private let fallbackZone = ZoneID(zoneName: "Fallback")

    /// What the tree makes of `line` for a restore; nil when it is not one saved record.
    private func throughTree(_ line: String) -> Record? {
        guard let json = try? JSONParser.parse(line),
              let entries = try? RecordDocument.entries(in: json, zoneID: fallbackZone, restoring: true),
              entries.count == 1, case .save(let record) = entries[0] else { return nil }
        return record
    }

    private func restored(_ line: String) -> Record? {
        Array(line.utf8).withUnsafeBufferPointer { RecordJSON.decodeRestored(utf8: $0, zoneID: fallbackZone) }
    }

    /// Records with every kind of value an export writes, in random mixes.
    static func randomRecords(count: Int, seed: UInt64) -> [Record] {
        var generator = SeededGenerator(seed: seed)
        let words = ["harbour", "Zürich", "東京", "a \"quoted\" word", "back\\slash", "line\nbreak", "tab\there", "😀 emoji", "", "plain"]
        func word() -> String { words[generator.below(words.count)] }
        func number() -> Double { [0, -1.5, 1e300, 3.0, -0.0, 12.25, 1e-7][generator.below(7)] }
        return (0..<count).map { index in
            let zone = generator.below(3) == 0 ? ZoneID.default : ZoneID(zoneName: "Zone\(generator.below(2))", ownerName: "_owner\(generator.below(2))")
            var record = Record(recordType: generator.below(2) == 0 ? "Trip" : "Stop", recordID: RecordID(recordName: "r\(index)-\(word())", zoneID: zone))
            let kinds = generator.below(12)
            for kind in 0..<12 where (kinds >> (kind % 4)) & 1 == 1 || generator.below(3) == 0 {
                let name = "f\(kind)"
                switch kind {
                case 0: record[name] = .string(word())
                case 1: record[name] = .int64(Int64(generator.below(1_000_000)) - 500_000)
                case 2: record[name] = .double(number())
                case 3: record[name] = .timestamp(Date(timeIntervalSince1970: Double(generator.below(2_000_000_000))))
                case 4: record[name] = .list(.string, (0..<generator.below(4)).map { _ in .string(word()) })
                case 5: record[name] = .list(.int64, (0..<generator.below(4)).map { _ in .int64(Int64(generator.below(100))) })
                case 6: record[name] = .list(.double, (0..<generator.below(3)).map { _ in .double(number()) })
                case 7:
                    var location = Location(latitude: Double(generator.below(180)) - 90, longitude: Double(generator.below(360)) - 180)
                    if generator.below(2) == 0 { location.altitude = 12.5; location.horizontalAccuracy = 3; location.timestamp = Date(timeIntervalSince1970: 1000) }
                    record[name] = .location(location)
                case 8: record[name] = .reference(Reference(recordName: "target-\(word())", action: generator.below(2) == 0 ? .deleteSelf : .none))
                case 9: record[name] = .bytes(Data((0..<generator.below(20)).map { UInt8($0 * 7 % 256) }))
                case 10: record[name] = .asset(Asset(fileChecksum: String(repeating: "ab", count: 32), size: Int64(generator.below(5000))))
                default: record[name] = .list(.reference, [.reference(Reference(recordName: "x\(index)"))])
                }
            }
            if generator.below(2) == 0 { record.recordChangeTag = "tag\(index)" }
            if generator.below(3) > 0 {
                record.creationDate = Date(timeIntervalSince1970: Double(generator.below(1_000_000)))
                record.creatorUserRecordName = "_creator\(generator.below(2))"
                record.modificationDate = Date(timeIntervalSince1970: Double(1_000_000 + generator.below(1_000_000)))
                record.lastModifiedUserRecordName = "_modifier"
            }
            if generator.below(4) == 0 { record.parent = Reference(recordName: "parent-\(word())") }
            return record
        }
    }

    @Test func exportedLinesReadAsTheTreeReadsThem() throws {
        var read = 0
        for record in Self.randomRecords(count: 400, seed: 5) {
            let line = JSONWriter.string(RecordJSON.encode(record))
            let tree = try #require(throughTree(line), "\(line)")
            let direct = try #require(restored(line), "not read member by member: \(line)")
            #expect(direct == tree, "\(line)")
            #expect(direct.changedKeys.isEmpty)
            read += 1
        }
        #expect(read == 400)
    }

    /// Lines a restore reads but this reader leaves to the tree, or lines the tree refuses.
    @Test(arguments: [
        #"{"recordName":"a","recordType":"T","deleted":true}"#,
        #"{"recordName":"a","recordType":"T","fields":{"n":{"value":1}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"n":{"value":"x","type":"stringType"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"n":{"value":"x","type":"INT64"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"n":{"value":1,"type":"INT64","extra":0}}}"#,
        #"{"recordName":"a","recordType":"T","recordType":"U"}"#,
        #"{"recordName":"a","recordType":"T","created":{"timestamp":1,"timestamp":2}}"#,
        #"{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z","zoneName":"Y"}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"n":{"value":1,"value":2,"type":"INT64"}}}"#,
        #"{"recordName":"a","recordType":"T","serverErrorCode":"NOT_FOUND"}"#,
        #"{"recordType":"T","fields":{}}"#,
        #"{"recordName":"a","fields":{}}"#,
        #"{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z","ownerName":"_x"}}"#,
        #"{"recordName":"a","recordType":"T","zoneID":{"ownerRecordName":"_x"}}"#,
        #"{"recordName":"a","recordType":"T","created":{"timestamp":5,"userRecordName":"u","device":"d"}}"#,
        #"{"recordName":"a","recordType":"T","parent":{"recordName":"p","action":"NONE"}}"#,
        #"{"recordName":"a","recordType":"T"} {"recordName":"b","recordType":"T"}"#,
        #"{"recordName":"a","recordType":"T",}"#,
        #"{"recordName":"a","recordType":"T","fields":{"n":nul}}"#,
        #"[{"recordName":"a","recordType":"T"}]"#,
        #"{"records":[{"recordName":"a","recordType":"T"}]}"#,
        #"{"recordName":7,"recordType":"T"}"#,
        // A place under another type, and a place of strings.
        #"{"recordName":"a","recordType":"T","fields":{"p":{"value":{"latitude":1,"longitude":2},"type":"INT64"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"p":{"value":{"latitude":"1","longitude":2},"type":"LOCATION"}}}"#,
    ])
    func otherLinesAreLeftToTheTree(line: String) {
        #expect(restored(line) == nil)
    }

    /// White space, members in another order, nulls and numbers written otherwise read the same.
    @Test(arguments: [
        #" { "recordType" : "T" , "recordName" : "a" , "fields" : { "n" : { "type" : "INT64" , "value" : 3 } , "gone" : null } } "#,
        #"{"recordName":"a","recordType":"T","fields":{"d":{"value":2,"type":"DOUBLE"},"i":{"value":2.0,"type":"INT64"}}}"#,
        #"{"recordName":"a","recordType":"T","created":{"timestamp":1.5e3},"modified":{"userRecordName":7}}"#,
        #"{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z","ownerRecordName":"_someone","zoneType":"REGULAR_CUSTOM_ZONE"}}"#,
        #"{"recordName":"\u00e9t\u00e9","recordType":"T","fields":{"s":{"value":"\ud83d\ude00\/","type":"STRING"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"r":{"value":"plain-name","type":"REFERENCE"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{}}"#,
        // A field named twice, and one named and then null: in order, as the tree sets them.
        #"{"recordName":"a","recordType":"T","fields":{"n":{"value":1,"type":"INT64"},"n":null,"m":{"value":2,"type":"INT64"},"m":{"value":3,"type":"INT64"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"n":{"value":"2024-01-02T03:04:05Z","type":"TIMESTAMP"}}}"#,
        // Places: members in either order, integers, the type first, more members (read
        // again as a tree), a member named twice.
        #"{"recordName":"a","recordType":"T","fields":{"p":{"value":{"longitude":-2,"latitude":1.5},"type":"LOCATION"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"p":{"type":"LOCATION","value":{ "latitude" : 3 , "longitude" : 4 }}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"p":{"value":{"latitude":1,"altitude":9,"longitude":2,"speed":3},"type":"LOCATION"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"p":{"value":{"latitude":1,"latitude":5,"longitude":2},"type":"LOCATION"}}}"#,
        #"{"recordName":"a","recordType":"T","fields":{"d":{"value":7,"type":"DOUBLE"},"t":{"value":1.5e3,"type":"TIMESTAMP"}}}"#,
    ])
    func equivalentSpellingsReadAsTheTreeReadsThem(line: String) throws {
        let tree = try #require(throughTree(line))
        #expect(restored(line) == tree)
    }
}
