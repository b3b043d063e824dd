import Foundation
@testable import StratusBench
import StratusCKWS
import StratusCloud
import StratusModel
import StratusTestSupport
import Testing

/// The JSON floor of the `serve-*` workloads: each baseline's database writes the records a
/// read returns as a CKWS answer that a client reads back as exactly those venues, so the
/// floor's figure is the cost of a real answer and not of some shorter text.
@Suite struct BenchAnswerFloorTests {
    private static let venues: [BenchVenue] = {
        var random = SeededGenerator(seed: 7)
        return (0..<300).map { BenchVenue.make($0, random: &random) }
    }()

    private func checkAnswers(of baseline: any BenchBaseline) throws {
        try baseline.insert(Self.venues, modified: 1_700_000_000_000)
        let zone = ZoneID(zoneName: "Bench")
        let category = Self.venues[0].category
        let reads: [(BaselineRead, [BenchVenue])] = [
            (.names(["v3", "v250", "v7", "v404"]), Self.venues.filter { [3, 7, 250].contains($0.index) }),
            (.category(category), Array(Self.venues.filter { $0.category == category }.prefix(100))),
            (.changes(afterSequence: 0, limit: 200), Array(Self.venues.prefix(200))),
        ]
        for (read, expected) in reads {
            let text = try baseline.answer(read)
            let answer = try RecordsAnswer.decode(Array(text.utf8), zoneID: zone)
            let records = try #require(answer.records).compactMap { entry -> Record? in
                if case .saved(let record) = entry.change { return record }
                return nil
            }
            #expect(try baseline.rows(read) == expected.count)
            let byName = Dictionary(uniqueKeysWithValues: records.map { ($0.recordID.recordName, $0) })
            #expect(byName.count == expected.count, "\(read): one record per row")
            for venue in expected {
                let record = try #require(byName[venue.recordName], "\(read): \(venue.recordName) is answered")
                #expect(record.recordType == "Venue")
                for (name, value) in venue.fields {
                    #expect(Self.same(record[name], value), "\(read): \(venue.recordName).\(name): \(String(describing: record[name])) for \(value)")
                }
            }
        }
    }

    /// Equal, but a real number within 1e-9: SQLite's JSON writes 15 significant digits, not
    /// the shortest text that reads back as the same double.
    private static func same(_ answered: FieldValue?, _ written: FieldValue) -> Bool {
        switch (answered, written) {
        case (.location(let a)?, .location(let b)):
            abs(a.latitude - b.latitude) < 1e-9 && abs(a.longitude - b.longitude) < 1e-9
        case (.double(let a)?, .double(let b)):
            abs(a - b) < 1e-9
        default:
            answered == written
        }
    }

    @Test func sqliteWritesAnswersOfTheVenuesRead() throws {
        let folder = try TemporaryDirectory("bench-answer")
        try checkAnswers(of: SQLiteBaseline(path: folder.path("baseline.sqlite"), sidecarPath: folder.path("bench.json")))
    }

    @Test func postgresWritesAnswersOfTheVenuesRead() throws {
        let url = try TestPostgres.freshStoreURL()
        let schema = try #require(url.components(separatedBy: "schema=").last)
        defer { TestPostgres.drop(url.replacingOccurrences(of: "schema=\(schema)", with: "schema=\(schema)_answers")) }
        try checkAnswers(of: PostgresBaseline(url: url, schema: schema + "_answers"))
    }
}
