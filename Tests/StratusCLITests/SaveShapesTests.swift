import Foundation
import Testing
import StratusCloud

/// `stratus save` on files shaped as iCloud hands them out.
@Suite(.serialized) struct SaveShapesTests {
    private static let owner = "_b321aaaaaaaaaaaaaaaaaaaaaaaaaaaa"

    @Test func aCapturedQueryResponseLoadsIntoTheDefaultZone() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        var records: [String] = []
        for index in 1...166 {
            records.append("""
                {"recordName": "R\(index)", "recordType": "Trip", "fields": {"title": {"value": "trip \(index)", "type": "STRING"},
                 "start": {"value": \(1_714_521_600_000 + index), "type": "TIMESTAMP"}},
                 "zoneID": {"zoneName": "_defaultZone", "ownerRecordName": "\(Self.owner)", "zoneType": "DEFAULT_ZONE"}}
                """)
        }
        let response = "{\n  \"records\": [\n" + records.joined(separator: ",\n") + "\n  ],\n  \"continuationMarker\": null\n}\n"
        for db in ["private", "public"] {
            let saved = try cli.run(["save", "--db", db], stdin: response)
            #expect(saved.status == 0, "\(saved.stderr)")
            #expect(saved.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("saved Trip") }.count == 166)
            let query = try cli.json(["query", "--db", db, "--type", "Trip", "--limit", "1000"])
            #expect((query["records"] as? [Any])?.count == 166)
        }
    }

    @Test func aChangesResponseNeedsItsZoneOrCreateZones() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let changes = """
            {"zones": [{"zoneID": {"zoneName": "Trips", "ownerRecordName": "\(Self.owner)", "zoneType": "REGULAR_CUSTOM_ZONE"},
              "records": [{"recordName": "T1", "recordType": "Trip", "fields": {"title": {"value": "Rome"}}},
                          {"recordName": "T0", "recordType": "Trip", "deleted": true}],
              "syncToken": "x", "moreComing": false}]}
            """
        let refused = try cli.run(["save"], stdin: changes)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("zone 'Trips', which the private database does not have. Add --create-zones"))
        #expect(try cli.run(["zones"]).stdout.contains("Trips") == false)

        let loaded = try cli.run(["save", "--create-zones"], stdin: changes)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout.contains("saved Trip T1"))
        #expect(loaded.stdout.contains("deleted T0 (it was not there)"))
        let fetched = try cli.json(["fetch", "--zone", "Trips", "T1"])
        #expect(((fetched["records"] as? [[String: Any]])?.first?["recordName"] as? String) == "T1")
    }

    @Test func aModifyRequestSavesAndDeletes() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["save"], stdin: #"{"recordName": "old", "recordType": "Note", "fields": {"text": {"value": "bye"}}}"#).status == 0)
        let modify = """
            {"operations": [
              {"operationType": "create", "record": {"recordName": "new", "recordType": "Note", "fields": {"text": {"value": "hi", "type": "stringType"}}}},
              {"operationType": "forceDelete", "record": {"recordName": "old"}}]}
            """
        let outcome = try cli.run(["save"], stdin: modify)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("deleted old\n"))
        let fetched = try cli.json(["fetch", "new", "old"])
        let items = try #require(fetched["records"] as? [[String: Any]])
        #expect(items.first?["recordName"] as? String == "new")
        #expect(items.last?["serverErrorCode"] as? String == "NOT_FOUND")
    }

    @Test func lookupErrorsAreSkippedAndBadEntriesNamed() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let lookup = #"{"records": [{"recordName": "a", "recordType": "Note"}, {"recordName": "b", "reason": "Record not found", "serverErrorCode": "NOT_FOUND"}]}"#
        let outcome = try cli.run(["save"], stdin: lookup)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("skipped b: it holds no record (NOT_FOUND: Record not found)"))
        let bad = try cli.run(["save"], stdin: #"{"records": [{"recordName": "a", "recordType": "Note"}, {"recordName": "c", "recordType": "Note", "fields": {"n": {"value": "x", "type": "INT64"}}}]}"#)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("error: records[1].fields.n.value: expected a value of type INT64"))
    }

    @Test func tagsFromICloudGetAHint() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let outcome = try cli.run(["save"], stdin: #"[{"recordName": "a", "recordType": "Note", "recordChangeTag": "lhz1"}]"#)
        #expect(outcome.status == 1)
        // Tagged records the store does not hold: one line pointing at the import path.
        #expect(outcome.stderr.contains("`stratus save --import FILE`"), "\(outcome.stderr)")
    }

    /// A response captured from iCloud, saved as the README once showed it: a snapshot, which
    /// `save` sends to `--import` in one line instead of failing record by record.
    @Test func aCapturedResponseWithChangeTagsIsLoadedWithImport() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let response = """
            {"zones": [{"zoneID": {"zoneName": "Trips", "ownerRecordName": "\(Self.owner)", "zoneType": "REGULAR_CUSTOM_ZONE"},
              "records": [{"recordName": "T1", "recordType": "Trip", "recordChangeTag": "lhz1", "fields": {"title": {"value": "Rome", "type": "STRING"}},
                           "created": {"timestamp": 1714521600000, "userRecordName": "\(Self.owner)", "deviceID": "2"},
                           "modified": {"timestamp": 1714521601000, "userRecordName": "\(Self.owner)", "deviceID": "2"}, "deleted": false}],
              "syncToken": "AAAA", "moreComing": false}]}
            """
        let file = cli.directory.appendingPathComponent("response.json")
        try Data(response.utf8).write(to: file)
        let saved = try cli.run(["save", file.path, "--create-zones"])
        #expect(saved.status == 1)
        let lines = saved.stderr.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count == 1, "\(saved.stderr)")
        #expect(saved.stderr.contains("`stratus save --import \(file.path)`"), "\(saved.stderr)")
        #expect(!saved.stderr.contains("no longer exists"))
        #expect(try cli.run(["zones"]).stdout.contains("Trips") == false, "nothing was saved")
        let imported = try cli.json(["save", "--import", file.path])
        #expect(imported["imported"] as? Int == 1)
    }

    @Test func anExportSavedPlainlyIntoAnotherStoreSaysToImportItAndMakesNoStore() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Trips"]).status == 0)
        let trips = (1...3).map { #"{"recordName": "t\#($0)", "recordType": "Trip", "fields": {"title": {"value": "trip \#($0)"}}}"# }
        #expect(try cli.run(["save", "--zone", "Trips"], stdin: trips.joined(separator: "\n")).status == 0)
        let file = cli.directory.appendingPathComponent("trips.jsonl").path
        #expect(try cli.run(["export", "--zone", "Trips", "--out", file]).status == 0)

        let target = cli.directory.appendingPathComponent("other.sqlite").path
        let plain = try cli.run(["save", file, "--create-zones", "--store", target], store: false)
        #expect(plain.status == 1)
        let lines = plain.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(plain.stderr)")
        #expect(plain.stderr.contains("holds records with change tags that this store does not have"), "\(plain.stderr)")
        #expect(plain.stderr.contains("`stratus save --import \(file)`"), "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target), "no store made for a save that could not happen")

        // Into an existing store that lacks them, the same one line, and nothing written.
        #expect(try cli.run(["zones", "create", "Trips", "--store", target], store: false).status == 0)
        let existing = try cli.run(["save", file, "--store", target], store: false)
        #expect(existing.status == 1)
        #expect(existing.stderr.split(separator: "\n").count == 1, "\(existing.stderr)")
        // Saved back into the store that holds them, the tags match: an update, as before.
        let again = try cli.run(["save", file])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try cli.run(["save", "--import", file, "--store", target], store: false).status == 0)
    }

    @Test func aResolveResponseIsNamedAsShareMetadataWithNoRecord() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let resolve = """
            {"results": [{"shortGUID": {"value": "0NEa3AEPXwK71VM4gHFnvh2kw", "shouldFetchRootRecord": true}, "containerIdentifier": "iCloud.com.example",
              "environment": "development", "databaseScope": "PRIVATE", "zoneID": {"zoneName": "Central", "ownerRecordName": "\(Self.owner)"},
              "share": {"recordName": "Share-1", "recordType": "cloudkit.share"}, "participantType": "OWNER", "participantStatus": "ACCEPTED"}]}
            """
        let outcome = try cli.run(["save"], stdin: resolve)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("records/resolve"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("holds no record to save"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("recordType: missing"))
    }
}

/// `stratus save --import` on the same shapes: captured pretty-printed responses, deletions.
@Suite(.serialized) struct ImportShapesTests {
    @Test func aCapturedChangesResponseImportsWithItsDeletions() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["save", "--zone", "Trips", "--create-zones"], stdin: #"{"recordName": "T0", "recordType": "Trip", "fields": {"title": {"value": "old"}}}"#).status == 0)
        let owner = "_b321aaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        let response = """
            {
              "zones": [
                {
                  "zoneID": {"zoneName": "Trips", "ownerRecordName": "\(owner)", "zoneType": "REGULAR_CUSTOM_ZONE"},
                  "records": [
                    {"recordName": "T1", "recordType": "Trip", "recordChangeTag": "lhz1",
                     "fields": {"title": {"value": "Rome"}},
                     "created": {"timestamp": 1714521600000, "userRecordName": "\(owner)", "deviceID": "2"},
                     "modified": {"timestamp": 1714521601000, "userRecordName": "\(owner)", "deviceID": "2"}},
                    {"recordName": "T0", "recordType": "Trip", "deleted": true},
                    {"recordName": "T9", "deleted": true},
                    {"recordName": "T2", "recordType": "Trip", "fields": {"title": {"value": "gone"}}},
                    {"recordName": "T2", "deleted": true}
                  ],
                  "syncToken": "AAAA",
                  "moreComing": false
                }
              ]
            }
            """
        let file = cli.directory.appendingPathComponent("changes.json")
        try Data(response.utf8).write(to: file)
        let imported = try cli.json(["save", "--import", file.path])
        #expect(imported["imported"] as? Int == 1)
        #expect(imported["deleted"] as? Int == 3)
        let fetched = try cli.json(["fetch", "--zone", "Trips", "T1", "T0", "T2"])
        let items = try #require(fetched["records"] as? [[String: Any]])
        #expect(items[0]["recordChangeTag"] as? String == "lhz1")
        #expect((items[0]["created"] as? [String: Any])?["userRecordName"] as? String == owner)
        #expect(items[1]["serverErrorCode"] as? String == "NOT_FOUND")
        #expect(items[2]["serverErrorCode"] as? String == "NOT_FOUND")
        let text = try cli.run(["save", "--import", file.path])
        #expect(text.stdout.contains("imported 1 records") && text.stdout.contains("; deleted 3"))
    }

    @Test func aBrokenDocumentIsStillNamedByLine() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let bad = try cli.run(["save", "--import"], stdin: "{\n  \"records\": [\n    {\"recordName\": \"a\",\n")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("malformed JSON"))
    }
}
