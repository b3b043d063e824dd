import Foundation
import Testing
import StratusModel
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// A BEGINSWITH read from a field's index is bounded above by the least string after every
/// string with the prefix, so no value beginning with it falls outside, whatever follows it.
@Suite(.onEveryBackend) struct BeginsWithBoundTests {
    @Test func theSuccessorOfAPrefixIsItsLastCodePointRaised() {
        #expect(UTF8Order.successor(ofPrefix: "ab") == "ac")
        #expect(UTF8Order.successor(ofPrefix: "東京") == "東\u{4EAD}")
        #expect(UTF8Order.successor(ofPrefix: "a\u{10FFFF}\u{10FFFF}") == "b")
        #expect(UTF8Order.successor(ofPrefix: "\u{D7FF}") == "\u{E000}")
        #expect(UTF8Order.successor(ofPrefix: "👍") == "\u{1F44E}")
        #expect(UTF8Order.successor(ofPrefix: "") == nil)
        #expect(UTF8Order.successor(ofPrefix: "\u{10FFFF}") == nil)
        // Everything beginning with the prefix sorts before the successor, in SQLite's order.
        for text in ["ab", "ab\u{10FFFF}\u{10FFFF}\u{10FFFF}z", "ab😀", "abzzzz"] {
            #expect(UTF8Order.compare(text, "ac") < 0, "\(text)")
        }
    }

    @Test func valuesBeginningWithThePrefixAreFoundWhateverFollowsIt() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Words")
        let titles = ["Quiet", "Quiet Mill", "Quiet\u{10FFFF}\u{10FFFF}\u{10FFFF}x", "Quiet\u{10FFFF}", "Quieu", "Quies", "Qu"]
        let records = titles.enumerated().map { index, title -> StratusCloud.Record in
            var record = StratusCloud.Record(recordType: "Word", recordID: RecordID(recordName: "w\(index)", zoneID: zone))
            record["title"] = .string(title)
            return record
        }
        _ = try temp.privateDB.modifyRecords(saving: records).savedRecords()
        let page = try temp.privateDB.records(matching: Query(recordType: "Word", predicateFormat: "title BEGINSWITH %@", arguments: [.string("Quiet")]),
                                              inZoneWith: zone, resultsLimit: 100)
        #expect(Set(page.records.map(\.recordName)) == Set(titles.indices.filter { titles[$0].hasPrefix("Quiet") }.map { "w\($0)" }))
    }
}
