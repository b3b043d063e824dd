import Foundation
import Testing
import StratusModel
import StratusCloud
import StratusCKWS

/// A remote client reads the records of an answer member by member (``RecordsAnswer``) and
/// falls back to the tree for anything that reading does not take: for every answer the first
/// accepts, the two must give the same records and members; every server's shape (ours, and
/// iCloud's extra members) must be read member by member; and an answer that is wrong must be
/// refused with the path of what is wrong.
@Suite struct RecordsAnswerTests {
    private let askedZone = ZoneID(zoneName: "Asked")

    /// `records` as a server writes them in an answer: the signed-in user for the default
    /// owner, `deleted: false`, and sometimes changed keys, a short GUID, encrypted flags and
    /// assets' download URLs.
    private func answer(_ records: [Record], seed: UInt64, members: String = #""continuationMarker":"next-page""#) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var bytes = Array("{\"records\":[".utf8)
        for (index, record) in records.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var extra: [(String, JSONValue)] = [("deleted", .bool(false))]
            if generator.below(3) == 0 { extra.append(("changedKeys", .array(record.fields.keys.sorted().map { .string($0) }))) }
            if generator.below(5) == 0 { extra.append(("shortGUID", .string("guid-\(index)"))) }
            let encrypted: Set<String> = generator.below(4) == 0 ? Set(record.fields.keys.prefix(1)) : []
            var out = JSONBytes()
            RecordWriter(owner: "_me").write(record, encrypted: encrypted, extra: extra, into: &out) { asset in
                "https://assets.example/\(asset.fileChecksum.prefix(6))/${f}"
            }
            bytes += out.bytes
        }
        bytes += Array("],\(members)}".utf8)
        return bytes
    }

    @Test func serverAnswersAreReadMemberByMemberAsTheTreeReadsThem() throws {
        let records = RestoredLineTests.randomRecords(count: 400, seed: 11)
        var read = 0
        for (page, start) in stride(from: 0, to: records.count, by: 40).enumerated() {
            let bytes = answer(Array(records[start..<start + 40]), seed: UInt64(page))
            let direct = try #require(RecordsAnswer.readMemberByMember(bytes, zoneID: askedZone), "\(String(decoding: bytes, as: UTF8.self))")
            #expect(direct == (try RecordsAnswer.decodeTree(bytes, zoneID: askedZone)))
            #expect(direct.members["continuationMarker"]?.stringValue == "next-page")
            for (entry, record) in zip(try #require(direct.records), records[start..<start + 40]) {
                guard case .saved(let saved) = entry.change else { Issue.record("\(record.recordName) read as a deletion"); continue }
                // The answer names the default owner by the user's record name; every other zone keeps its owner.
                let owner = record.recordID.zoneID.ownerName == ZoneID.defaultOwnerName ? "_me" : record.recordID.zoneID.ownerName
                #expect(saved.recordID == RecordID(recordName: record.recordName, zoneID: ZoneID(zoneName: record.recordID.zoneID.zoneName, ownerName: owner)))
                #expect(saved.fields == record.fields)
                #expect(saved.recordChangeTag == record.recordChangeTag)
                #expect(saved.creatorUserRecordName == record.creatorUserRecordName)
                #expect(saved.changedKeys.isEmpty)
                let assets = record.fields.values.compactMap { value -> Asset? in if case .asset(let asset) = value { asset } else { nil } }
                #expect(entry.downloadURLs.count == Set(assets.map(\.fileChecksum)).count)
                read += 1
            }
        }
        #expect(read == 400)
    }

    /// What iCloud adds to a record (plugin fields, a stamp's device, an encrypted field's
    /// flag, a share) is passed over, as the tree passes it over.
    @Test(arguments: [
        #"{"records":[{"recordName":"a","recordType":"T","pluginFields":{},"created":{"timestamp":5,"userRecordName":"_u","deviceID":"2"},"fields":{"n":{"value":"x","type":"STRING","isEncrypted":true}},"share":{"recordName":"s","zoneID":{"zoneName":"Z"}}}]}"#,
        #"{"records":[{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z","ownerRecordName":"_o","zoneType":"REGULAR_CUSTOM_ZONE","other":[1,{"x":null}]}}],"syncToken":"t"}"#,
        #" { "records" : [ ] , "continuationMarker" : null } "#,
        #"{"records":[{"recordName":"a","recordType":"T","parent":{"recordName":"p","zoneID":{"zoneName":"Z"}}}]}"#,
        #"{"records":[{"recordName":"a","deleted":true}],"moreComing":false}"#,
        #"{"records":[{"recordName":"a","deleted":true,"fields":{"f":{"value":{"fileChecksum":"c","size":1,"downloadURL":"https://x/1"},"type":"ASSET"}}}]}"#,
        #"{"records":[{"recordName":"a","recordType":"T","fields":{"f":{"value":{"fileChecksum":"c1","size":3,"downloadURL":"https://x/1"},"type":"ASSET"},"g":{"value":[{"fileChecksum":"c2","size":4,"downloadURL":"https://x/2"}],"type":"ASSET_LIST"}}}]}"#,
    ])
    func otherServersShapesAreReadMemberByMember(text: String) throws {
        let bytes = Array(text.utf8)
        let direct = try #require(RecordsAnswer.readMemberByMember(bytes, zoneID: askedZone))
        #expect(direct == (try RecordsAnswer.decodeTree(bytes, zoneID: askedZone)))
    }

    @Test func assetsDownloadURLsAreKeptByChecksum() throws {
        let text = #"{"records":[{"recordName":"a","recordType":"T","fields":{"f":{"value":{"fileChecksum":"c1","size":3,"downloadURL":"https://x/1"},"type":"ASSET"},"g":{"value":[{"fileChecksum":"c2","size":4,"downloadURL":"https://x/2"}],"type":"ASSET_LIST"}}}]}"#
        let entry = try #require(try RecordsAnswer.decode(Array(text.utf8), zoneID: askedZone).records?.first)
        #expect(entry.downloadURLs == ["c1": "https://x/1", "c2": "https://x/2"])
    }

    /// Answers the member-by-member reading leaves to the tree.
    @Test(arguments: [
        #"{"records":[{"recordName":"a","recordType":"T","recordChangeTag":null}]}"#,
        #"{"records":[{"recordName":"a","recordType":"T","fields":{"n":{"value":1}}}]}"#,
        #"{"records":[{"recordName":"a","recordType":"T","fields":{"n":{"value":"x","type":"stringType"}}}]}"#,
        #"{"records":[{"recordName":"a","recordType":"T","created":null}]}"#,
        #"{"rec\u006frds":[{"recordName":"a","recordType":"T"}]}"#,
        #"{"records":[{"recordName":"a","recordType":"T","recordType":"U"}]}"#,
        #"{"records":[{"recordName":"a","recordType":"T"}],"records":[]}"#,
        #"{"records":[{"recordName":"a","recordType":"T","zoneID":{"ownerRecordName":7,"zoneName":"Z"}}]}"#,
        #"{"records":[{"recordName":"a","recordType":"T","zoneID":{"zone\u004eame":"b","zoneName":"a"}}]}"#,
        #"{"r\u0065cords":[],"records":[{"recordName":"a","recordType":"T"}]}"#,
    ])
    func otherAnswersAreLeftToTheTree(text: String) throws {
        #expect(RecordsAnswer.readMemberByMember(Array(text.utf8), zoneID: askedZone) == nil)
    }

    /// A known name written with an escape, or with a character Swift takes as equal (the
    /// Kelvin sign for K), is left to the tree, which decodes names before comparing them: the
    /// answer reads as its plain spelling reads member by member.
    @Test(arguments: [
        (#"{"records":[{"recordName":"a","recordType":"T","d\u0065leted":true}]}"#,
         #"{"records":[{"recordName":"a","recordType":"T","deleted":true}]}"#),
        (#"{"records":[{"recordName":"a","recordType":"T","z\u006fneID":{"zoneName":"Z"}}]}"#,
         #"{"records":[{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z"}}]}"#),
        (#"{"records":[{"recordName":"a","recordType":"T","f\u0069elds":{"n":{"value":1,"type":"INT64"}}}]}"#,
         #"{"records":[{"recordName":"a","recordType":"T","fields":{"n":{"value":1,"type":"INT64"}}}]}"#),
        (#"{"records":[{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z","owner\u0052ecordName":"alice"}}]}"#,
         #"{"records":[{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z","ownerRecordName":"alice"}}]}"#),
        ("{\"records\":[{\"recordName\":\"a\",\"recordType\":\"T\",\"changed\u{212A}eys\":[\"n\"]}]}",
         #"{"records":[{"recordName":"a","recordType":"T","changedKeys":["n"]}]}"#),
    ])
    func otherSpellingsOfAKnownNameReadAsThePlainOne(text: String, plain: String) throws {
        #expect(RecordsAnswer.readMemberByMember(Array(text.utf8), zoneID: askedZone) == nil)
        let plainly = try #require(RecordsAnswer.readMemberByMember(Array(plain.utf8), zoneID: askedZone))
        #expect(try RecordsAnswer.decode(Array(text.utf8), zoneID: askedZone) == plainly)
    }

    /// Both readings count how deep a value is from the answer's top, so a member passed over
    /// inside a record is refused at the same depth by both (512 levels).
    @Test(arguments: [509, 510])
    func nestingIsLimitedAlikeInBothReadings(levels: Int) throws {
        let nested = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
        let bytes = Array(#"{"records":[{"recordName":"a","recordType":"T","pluginFields":\#(nested)}]}"#.utf8)
        let direct = RecordsAnswer.readMemberByMember(bytes, zoneID: askedZone)
        if levels + 3 <= 512 {
            #expect(direct != nil)
            #expect(direct == (try RecordsAnswer.decodeTree(bytes, zoneID: askedZone)))
        } else {
            #expect(direct == nil)
            #expect(throws: RecordJSON.DecodingError.self) { try RecordsAnswer.decode(bytes, zoneID: askedZone) }
        }
    }

    /// A wrong answer is refused with the path of what is wrong.
    @Test(arguments: [
        (#"{"records":[{"recordName":"a","recordType":"T"},{"recordName":"b"}]}"#, "records[1].recordType"),
        (#"{"records":[{"recordName":"a","recordType":"T","fields":{"n":{"value":"x","type":"INT64"}}}]}"#, "records[0].fields.n.value"),
        (#"{"records":{"recordName":"a"}}"#, "records"),
        (#"{"records":[{"recordName":"a","recordType":"T"}"#, ""),
        (#"[]"#, ""),
    ])
    func wrongAnswersAreRefusedWithWhereTheyAreWrong(text: String, path: String) {
        #expect(throws: RecordJSON.DecodingError.self) { try RecordsAnswer.decode(Array(text.utf8), zoneID: askedZone) }
        do {
            _ = try RecordsAnswer.decode(Array(text.utf8), zoneID: askedZone)
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }

    @Test func anAnswerWithoutRecordsHasNone() throws {
        let answer = try RecordsAnswer.decode(Array(#"{"serverErrorCode":"ZONE_NOT_FOUND","reason":"gone"}"#.utf8), zoneID: askedZone)
        #expect(answer.records == nil)
        #expect(answer.members["serverErrorCode"]?.stringValue == "ZONE_NOT_FOUND")
    }

    /// changes/zone: each zone's records, deletions among them, and its members; a zone that
    /// answered an error has no records, and the tree reads it.
    @Test func changePagesAreReadZoneByZone() throws {
        let records = RestoredLineTests.randomRecords(count: 30, seed: 4)
        let zone = String(decoding: answer(records, seed: 9, members: #""zoneID":{"zoneName":"Asked"},"syncToken":"t1","moreComing":true"#), as: UTF8.self)
        let deletion = #"{"records":[{"recordName":"gone","recordType":"T","deleted":true},{"recordName":"gone2","deleted":true}],"syncToken":"t2","moreComing":false}"#
        let text = "{\"zones\":[\(zone),\(deletion)]}"
        let direct = try #require(RecordsAnswer.readZonesMemberByMember(Array(text.utf8), zoneID: askedZone))
        #expect(direct == (try RecordsAnswer.decodeZonesTree(Array(text.utf8), zoneID: askedZone)))
        #expect(direct.count == 2)
        #expect(direct[0].records?.count == 30)
        #expect(direct[0].members["syncToken"]?.stringValue == "t1")
        #expect(direct[1].records == [
            AnsweredRecord(change: .deleted(recordName: "gone", recordType: "T"), downloadURLs: [:]),
            AnsweredRecord(change: .deleted(recordName: "gone2", recordType: nil), downloadURLs: [:]),
        ])
        let failed = #"{"zones":[{"zoneID":{"zoneName":"Asked"},"serverErrorCode":"ZONE_NOT_FOUND","reason":"no zone"}]}"#
        #expect(RecordsAnswer.readZonesMemberByMember(Array(failed.utf8), zoneID: askedZone) == nil)
        let zones = try RecordsAnswer.decodeZones(Array(failed.utf8), zoneID: askedZone)
        #expect(zones.first?.records == nil)
        #expect(zones.first?.members["serverErrorCode"]?.stringValue == "ZONE_NOT_FOUND")
    }
}
