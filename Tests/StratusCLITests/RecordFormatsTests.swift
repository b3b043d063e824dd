import Foundation
import Testing

/// `export --format`, `query --format csv` and `save --format csv`: records out and back in.
@Suite(.serialized) struct RecordFormatsTests {
    private static let records = """
        {"recordName": "t1", "recordType": "Trip", "fields": {"title": {"value": "東京 🗼, \\"night\\"", "type": "STRING"},
         "nights": {"value": 3, "type": "INT64"}, "start": {"value": 1714521600123, "type": "TIMESTAMP"},
         "tags": {"value": ["a", "b,c"], "type": "STRING_LIST"}, "where": {"value": {"latitude": 35.68, "longitude": 139.77}, "type": "LOCATION"}}}
        {"recordName": "t2", "recordType": "Trip", "fields": {"title": {"value": "", "type": "STRING"}}}
        {"recordName": "n1", "recordType": "Note", "fields": {"body": {"value": "line one\\nline two"}}}
        """

    private func seeded() throws -> StratusCLI {
        let cli = try StratusCLI()
        #expect(try cli.run(["zones", "create", "Trips"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Trips"], stdin: Self.records).status == 0)
        return cli
    }

    @Test func csvExportHasTypedColumnsAndRoundTripsThroughSave() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let csv = try cli.run(["export", "--format", "csv", "--type", "Trip"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.components(separatedBy: "\r\n")
        #expect(lines[0] == "recordName,recordType,zoneName,nights:INT64,start:TIMESTAMP,tags:STRING_LIST,title:STRING,where:LOCATION")
        #expect(lines.contains("t1,Trip,Trips,3,2024-05-01T00:00:00.123Z,\"[\"\"a\"\",\"\"b,c\"\"]\",\"東京 🗼, \"\"night\"\"\",\"35.68,139.77\""))
        #expect(lines.contains("t2,Trip,Trips,,,,\"\","))

        let other = try StratusCLI()
        defer { other.remove() }
        let file = other.directory.appendingPathComponent("trips.csv").path
        try Data(csv.stdout.utf8).write(to: URL(fileURLWithPath: file))
        let saved = try other.run(["save", file, "--create-zones"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try other.run(["export", "--format", "csv", "--type", "Trip"]).stdout == csv.stdout)
        let fetched = try other.json(["fetch", "--zone", "Trips", "t2"])
        let fields = try #require((fetched["records"] as? [[String: Any]])?.first?["fields"] as? [String: Any])
        #expect(fields.keys.sorted() == ["title"])
    }

    @Test func aCSVAssetCellAnotherStoreCannotResolveIsLeftOutNotSinkingItsRecord() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let photo = cli.directory.appendingPathComponent("photo.jpg")
        try Data("jpeg bytes".utf8).write(to: photo)
        let records = #"[{"recordName": "p1", "recordType": "Place", "fields": {"name": {"value": "Oslo"}, "photo": {"value": {"file": "\#(photo.path)"}, "type": "ASSET"}}}, {"recordName": "p2", "recordType": "Place", "fields": {"name": {"value": "Bergen"}}}]"#
        #expect(try cli.run(["save"], stdin: records).status == 0)
        let csv = try cli.run(["export", "--format", "csv", "--type", "Place"])
        #expect(csv.status == 0, "\(csv.stderr)")

        // Into the same store the cell resolves and is kept.
        let same = try cli.run(["save", "--format", "csv", "--policy", "all-keys", "-"], stdin: csv.stdout)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(!same.stderr.contains("left out"))

        let other = try StratusCLI()
        defer { other.remove() }
        let saved = try other.run(["save", "--format", "csv", "-"], stdin: csv.stdout)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stderr.contains("left out 1 asset cell whose files this store does not hold (p1.photo)"), "\(saved.stderr)")
        let fetched = try other.json(["fetch", "p1", "p2"])
        let names = (fetched["records"] as? [[String: Any]])?.compactMap { ($0["fields"] as? [String: Any])?["name"] as? [String: Any] }
        #expect(names?.count == 2, "both records were saved: \(fetched)")
    }

    @Test func jsonExportIsOneDocumentThatSaveReads() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let json = try cli.run(["export", "--format", "json"])
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((document["records"] as? [Any])?.count == 3)

        let other = try StratusCLI()
        defer { other.remove() }
        #expect(try other.run(["zones", "create", "Trips"]).status == 0)
        let saved = try other.run(["save", "--policy", "all-keys"], stdin: json.stdout)
        #expect(saved.status == 0, "\(saved.stderr)")
        let left = try cli.run(["export", "--format", "csv"]).stdout
        let right = try other.run(["export", "--format", "csv"]).stdout
        #expect(left == right)
        #expect(left.contains("n1,Note,Trips,\"line one\nline two\""))
    }

    @Test func queryPrintsCSVOfItsPage() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let page = try cli.run(["query", "--zone", "Trips", "--type", "Trip", "--filter", "nights == 3", "--format", "csv", "--keys", "title,nights"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout == "recordName,recordType,zoneName,nights:INT64,title:STRING\r\nt1,Trip,Trips,3,\"東京 🗼, \"\"night\"\"\"\r\n")
        let limited = try cli.run(["query", "--zone", "Trips", "--type", "Trip", "--format", "csv", "--limit", "1"])
        #expect(limited.stderr.contains("more match: --cursor "))
    }

    @Test func badCSVIsNamedByRowAndColumn() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let bad = try cli.run(["save", "--format", "csv", "--type", "Trip"], stdin: "recordName,nights:INT64\nt1,3\nt2,three\n")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("standard input, row 3, column nights: 'three' is not a whole number (INT64)"))
        // Nothing of a refused file is saved.
        let fetched = try cli.json(["fetch", "t1"])
        #expect((fetched["records"] as? [[String: Any]])?.first?["serverErrorCode"] as? String == "NOT_FOUND")
        let untyped = try cli.run(["save", "--format", "csv"], stdin: "recordName,title\nt1,x\n")
        #expect(untyped.status == 1)
        #expect(untyped.stderr.contains("no recordType column"))
        #expect(try cli.run(["save", "--import", "--format", "csv"], stdin: "").status == 2)
    }
}
