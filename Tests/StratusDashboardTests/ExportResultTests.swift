import Foundation
import Testing
import StratusEngine
import StratusSQLite
import StratusTestSupport
import StratusModel
import StratusTerminal
@testable import StratusDashboard
import StratusCloud
import StratusCKWS

/// `X`: the current result to a file, on the real engine: every page of a query (not only the
/// loaded rows), the fetched records, a playback; JSON lines that read back as records, or CSV;
/// Esc cancels and leaves no file.
@Suite struct ExportResultTests {
    private func export(_ harness: Harness, to path: String) {
        harness.press(.char("X"))
        harness.press(.ctrl("u"))
        harness.type(path)
        harness.press(.enter)
    }

    @Test func theWholeQueryResultAsJSONLinesAndCSV() throws {
        let harness = try Harness(size: Size(width: 120, height: 30))
        harness.state.query.pageSize = 10
        harness.press(.char("r"))
        let total = try harness.matchingCount()
        #expect(total > harness.state.query.loadedCount, "more records match than the first page holds")
        let path = harness.directory.appendingPathComponent("trips 旅行.jsonl").path
        export(harness, to: path)
        #expect(harness.state.status?.text == "Exported \(total.formatted()) records to \(path).")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == total)
        let first = try JSONParser.parse(String(lines[0]))
        #expect(first["recordType"]?.stringValue == "Trip")
        #expect(first["recordChangeTag"] != nil)
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))

        let csvPath = harness.directory.appendingPathComponent("trips.csv").path
        export(harness, to: csvPath)
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(csv.count == total + 1)
        #expect(csv[0].hasPrefix("recordName,recordType,zoneName,"))
        #expect(csv[0].contains("title:STRING"))
    }

    @Test func anExportReadsBackIntoANewStoreWithItsAssetsAndCSVHasOneLineARecord() throws {
        let harness = try Harness(size: Size(width: 120, height: 30))
        harness.press(.char("r"))
        let total = try harness.matchingCount()
        let path = harness.directory.appendingPathComponent("trips.jsonl").path
        export(harness, to: path)
        #expect(harness.state.status?.text == "Exported \(total.formatted()) records to \(path).")

        // Read back the way `stratus save --import` reads it, into a store that never held them.
        let other = try TemporaryDirectory("stratus-readback")
        defer { other.remove() }
        let target = try Store(path: other.storePath)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        let travel = ZoneID(zoneName: "Travel")
        #expect(try target.database(.private).importRecords(lines: handle, zoneID: travel) == total)
        let original = try harness.database.recordZoneChanges(inZoneWith: travel, resultsLimit: 400).changes.compactMap { change -> Record? in
            if case .changed(let record) = change, record.recordType == "Trip" { return record }
            return nil
        }
        let covers = original.compactMap { record -> (String, Asset)? in
            guard case .asset(let asset)? = record["cover"] else { return nil }
            return (record.recordName, asset)
        }
        #expect(!covers.isEmpty, "the demo's trips have covers")
        for (name, asset) in covers.prefix(5) {
            let copy = try target.database(.private).record(for: RecordID(recordName: name, zoneID: travel))
            guard case .asset(let copied)? = copy["cover"] else { Issue.record("\(name) lost its cover"); continue }
            #expect(copied.fileChecksum == asset.fileChecksum)
            #expect(try target.assetData(checksum: copied.fileChecksum) == harness.store.assetData(checksum: asset.fileChecksum))
        }

        let csvPath = harness.directory.appendingPathComponent("trips.csv").path
        export(harness, to: csvPath)
        let text = try String(contentsOfFile: csvPath, encoding: .utf8)
        #expect(!text.contains("\r\n\n") && !text.contains("\n\n"), "no blank line after a row")
        #expect(text.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == total + 1)
    }

    @Test func badPathsAreRefusedInTheDialog() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.press(.char("r"))
        export(harness, to: harness.directory.appendingPathComponent("no/such/folder/x.jsonl").path)
        guard case .textInput(let input)? = harness.state.topModal else {
            Issue.record("the dialog closed on a bad path")
            return
        }
        #expect(input.error?.contains("does not exist") == true)
        harness.press(.escape)
        harness.press(.char("X"), .ctrl("u"))
        harness.type(harness.directory.path)
        harness.press(.enter)
        #expect(harness.screen().contains("is a folder"))
    }

    @Test func escCancelsAndLeavesNothing() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.press(.char("r"))
        harness.autoRun = false
        let path = harness.directory.appendingPathComponent("cancelled.jsonl").path
        export(harness, to: path)
        #expect(harness.state.jobs.contains { $0.kind == .export })
        harness.press(.escape)
        #expect(harness.state.status?.text == "Cancelled the export; nothing was written.")
        harness.runPending()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    }

    @Test func fetchedRecordsAndAPlayback() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        let travel = ZoneID(zoneName: "Travel")
        let names = try harness.database.recordZoneChanges(inZoneWith: travel, resultsLimit: 3).changes.map(\.recordID.recordName)
        harness.press(.char("2"), .char("i"))
        harness.type(names.joined(separator: " "))
        harness.press(.enter)
        let fetched = harness.directory.appendingPathComponent("fetched.jsonl").path
        export(harness, to: fetched)
        #expect(try String(contentsOfFile: fetched, encoding: .utf8).split(separator: "\n").count == 3)

        let victim = try #require(names.first)
        try harness.database.deleteRecord(withID: RecordID(recordName: victim, zoneID: travel))
        harness.press(.char("3"))
        let played = harness.directory.appendingPathComponent("changes.jsonl").path
        export(harness, to: played)
        let lines = try String(contentsOfFile: played, encoding: .utf8).split(separator: "\n").map(String.init)
        let playback = try harness.database.recordZoneChanges(inZoneWith: travel, resultsLimit: 10_000)
        #expect(lines.count == playback.changes.count)
        #expect(lines.contains(#"{"recordName":"\#(victim)","deleted":true}"#))
        #expect(harness.state.status?.text.contains("deletion") == true)
    }
}

/// `Ctrl-X`: every record the filter matches deleted, counted first, asked, in batches;
/// stopping keeps what was deleted.
@Suite struct BulkDeleteTests {
    @Test func deletesWhatTheFilterMatchesAfterAsking() throws {
        let harness = try Harness(recordCount: 3_000, size: Size(width: 120, height: 30))
        harness.state.query.filter = "nights > 3"
        harness.press(.char("r"))
        let before = try harness.matchingCount("nights > 3")
        let others = try harness.matchingCount("nights <= 3")
        #expect(before > CloudDatabase.maximumBatchSize, "more than one batch")
        harness.press(.ctrl("x"))
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("no confirmation: \(harness.state.status?.text ?? "")")
            return
        }
        #expect(confirm.title == "Delete \(before.formatted()) records")
        #expect(confirm.message.contains("Trip records matching nights > 3 in Travel"))
        harness.press(.char("n"))
        #expect(try harness.matchingCount("nights > 3") == before, "no: nothing deleted")
        harness.press(.ctrl("x"), .char("y"))
        #expect(harness.state.status?.text.hasPrefix("Deleted ") == true, "\(harness.state.status?.text ?? "")")
        #expect(try harness.matchingCount("nights > 3") == 0)
        #expect(try harness.matchingCount("nights <= 3") == others, "records the filter does not match stay")
        #expect(harness.state.query.loadedCount == 0, "the query ran again")
    }

    @Test func aCountedResultIsAskedAboutAtOnce() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.state.query.pageSize = 10
        harness.press(.char("r"))
        harness.runMapping()
        let count = try #require(harness.state.query.matchCount)
        harness.autoRun = false
        harness.press(.ctrl("x"))
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("no confirmation without a second count")
            return
        }
        #expect(confirm.title == "Delete \(count.formatted()) records")
        #expect(harness.pending.isEmpty, "nothing counted again")
    }

    @Test func escStopsAndSaysWhatWasDeleted() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.press(.char("r"))
        let before = try harness.matchingCount("TRUEPREDICATE")
        harness.press(.ctrl("x"), .char("y"))
        let deleted = before - (try harness.matchingCount("TRUEPREDICATE"))
        #expect(deleted == before)
        // Now with the work held: Esc before it runs deletes nothing and says so.
        try harness.database.save(Record(recordType: "Trip", recordID: RecordID(recordName: "kept", zoneID: ZoneID(zoneName: "Travel")),
                                         fields: ["title": .string("残る 🧳")]))
        harness.press(.char("r"))
        harness.autoRun = false
        harness.press(.ctrl("x"))
        harness.runPending()
        harness.press(.char("y"))
        harness.press(.escape)
        #expect(harness.state.status?.text.hasPrefix("Stopping the bulk delete after the batch under way") == true)
        harness.runPending()
        #expect(harness.state.status?.text == "Stopped the bulk delete: 0 records were deleted and stay deleted.")
        #expect(try harness.matchingCount("TRUEPREDICATE") == 1)
    }

    /// Esc while a batch is under way: that batch still goes, and the final count says so.
    @Test func escDuringABatchCountsTheBatchThatFinishesAfterIt() throws {
        let harness = try Harness(records: Fixtures.trips(1_300), size: Size(width: 120, height: 30))
        harness.press(.char("r"))
        harness.runMapping()
        let before = try harness.matchingCount("TRUEPREDICATE")
        #expect(before > 3 * CloudDatabase.maximumBatchSize)
        harness.autoRun = false
        harness.press(.ctrl("x"), .char("y"))
        let effect = try #require(harness.pending.first { if case .bulkDelete = $0 { return true }; return false })
        harness.pending = []
        guard case .bulkDelete(let job, _, _, _) = effect else { return }
        // The first batch's progress reaches the screen; Esc comes while the second is deleted,
        // so the runner learns of it only after that batch (at its second progress).
        let box = LockedValue<[DashboardMessage]>([])
        let runner = harness.runner
        runner.execute(effect) { message in
            box.withLock { $0.append(message) }
            if case .bulkDeleteProgress = message, box.withLock({ $0.count }) == 2 { runner.perform(.cancel(job: job)) { _ in } }
        }
        let arrived = box.withLock { $0 }
        harness.send(arrived[0])
        #expect(harness.state.status?.text.hasPrefix("Deleted \(CloudDatabase.maximumBatchSize) of") == true)
        harness.press(.escape)
        for message in arrived.dropFirst() { harness.send(message) }
        harness.autoRun = true
        harness.runPending()
        harness.runMapping()
        let left = try harness.matchingCount("TRUEPREDICATE")
        let deleted = before - left
        #expect(deleted == 2 * CloudDatabase.maximumBatchSize, "the batch under way at Esc went too")
        #expect(harness.state.status?.text == "Stopped the bulk delete: \(deleted.formatted()) records were deleted and stay deleted.")
        #expect(harness.state.query.matchCount == left, "the header counts what is left")
        // Undo puts back exactly what went.
        harness.press(.char("U"))
        #expect(try harness.matchingCount("TRUEPREDICATE") == before)
    }
}
