import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine

/// Decoding only some fields of a record's blob gives exactly those fields, whatever the
/// others hold (every type, lists, locations with and without their optional parts).
@Suite struct PartialDecodeTests {
    static let sample: [String: FieldValue] = [
        "a-string": .string("京都 🍁"),
        "bytes": .bytes(Data([0, 1, 2, 255])),
        "count": .int64(-42),
        "empty": .string(""),
        "files": .list(.asset, [.asset(Asset(fileChecksum: "abc", size: 12))]),
        "here": .location(Location(latitude: 35.68, longitude: 139.76)),
        "list": .list(.string, [.string("x"), .string("")]),
        "numbers": .list(.double, [.double(1.5), .double(-2)]),
        "owner": .reference(Reference(recordName: "r1", action: .deleteSelf)),
        "price": .double(9.99),
        "there": .location({
            var location = Location(latitude: -33.87, longitude: 151.21)
            location.altitude = 12
            location.speed = 3
            location.timestamp = Date(timeIntervalSince1970: 1_700_000_000)
            return location
        }()),
        "when": .timestamp(Date(timeIntervalSince1970: 1_700_000_123.456)),
        "zz-last": .int64(7),
    ]

    @Test func everySubsetDecodesAsTheWholeDoes() throws {
        let blob = FieldCoder.encode(Self.sample)
        let whole = try FieldCoder.decode(blob)
        #expect(whole == Self.sample)
        let names = Self.sample.keys.sorted()
        var random = SeededGenerator(seed: 3)
        for _ in 0..<200 {
            let picked = names.filter { _ in random.below(3) == 0 }
            let part = try blob.withUnsafeBytes { try FieldCoder.decode($0, only: WantedFields(picked + ["not-there"])) }
            #expect(part == whole.filter { picked.contains($0.key) }, "\(picked)")
        }
        // The last field alone: every other value is stepped over.
        let last = try blob.withUnsafeBytes { try FieldCoder.decode($0, only: WantedFields(["zz-last"])) }
        #expect(last == ["zz-last": .int64(7)])
    }

    @Test func aQueryDecodesOnlyWhatItChecksAndSortsBy() {
        let filter = QueryFilter(terms: [.compare(.custom("price", .double), .greater, .double(1)), .beginsWith(.custom("title", .string), "a", negated: false)])
        let wanted = QueryExecutor.wantedFields(filter, sorts: [SortTerm(key: .custom("rating", .double), ascending: true)])
        #expect(wanted?.names == ["price", "rating", "title"])
        // A token search over every text field reads them all.
        #expect(QueryExecutor.wantedFields(QueryFilter(terms: [.tokens(["a"], matchAll: true, fields: [])]), sorts: []) == nil)
    }
}
