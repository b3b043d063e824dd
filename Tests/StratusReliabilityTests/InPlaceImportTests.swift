import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel
import StratusSQLite
import StratusTestSupport
import Testing

/// An import into a store without records writes its pages straight into the file under a
/// rollback journal (`LineImportProgress.inPlace`): the store it leaves must equal one filled
/// through the log, be in WAL mode again, survive a kill at any moment, and the path must not
/// be taken where another connection has the store open or the store holds records.
@Suite struct InPlaceImportTests {
    let zone = ZoneID(zoneName: "inplace")

    /// `count` export lines in the zone, with strings, numbers and lists to index.
    func lines(_ count: Int, bad line: Int? = nil) -> String {
        var random = SeededGenerator(seed: testSeed("in-place import"))
        let words = ["harbour", "mill", "café", "東京", "quiet", "corner", "🍜", "Straße"]
        return (1...count).map { index -> String in
            if index == line { return "{\"recordName\": " }
            let title = (0..<3).map { _ in words[random.below(words.count)] }.joined(separator: " ")
            let tags = (0..<random.below(3)).map { _ in "\"\(words[random.below(words.count)])\"" }.joined(separator: ",")
            let time = #""timestamp":\#(1_700_000_000_000 + index),"userRecordName":"_importer""#
            return #"{"recordName":"r\#(index)","recordType":"Item","recordChangeTag":"t\#(index)","zoneID":{"zoneName":"\#(zone.zoneName)"},"created":{\#(time)},"modified":{\#(time)},"fields":{"title":{"value":"\#(title) \#(index)","type":"STRING"},"n":{"value":\#(random.below(1000)),"type":"INT64"},"tags":{"value":[\#(tags)],"type":"STRING_LIST"}}}"#
        }.joined(separator: "\n") + "\n"
    }

    /// Imports `text` into the store at `path`; returns the count and whether it went in place.
    func importLines(_ text: String, into path: String, folder: TemporaryDirectory,
                     recordsPerTransaction: Int = 1_000_000) throws -> (count: Int, inPlace: Bool) {
        let file = try folder.write(Data(text.utf8), to: "lines-\(UUID().uuidString).jsonl")
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var inPlace: Bool?
        let count = try Store(path: path).database(.private).importRecords(
            lines: handle, recordsPerTransaction: recordsPerTransaction, batchSize: 300,
            progress: { progress in
                #expect(inPlace == nil || inPlace == progress.inPlace, "the way pages are written changed during the import")
                inPlace = progress.inPlace
            })
        return (count, inPlace ?? false)
    }

    func export(_ path: String) throws -> String {
        var text = Data()
        _ = try Store(path: path).database(.private).exportRecords(zone: zone, embedAssets: false, write: { text.append($0) })
        return String(decoding: text, as: UTF8.self)
    }

    /// What a read-only connection sees of the file: its journal mode and the records.
    func fileState(_ path: String) throws -> (journal: String, records: Int) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
             try Int.fetchOne(db, sql: "SELECT count(*) FROM record WHERE type_id NOT IN (SELECT id FROM record_type WHERE name = 'Users')") ?? -1)
        }
    }

    func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test func aNewStoreIsFilledInPlaceAndEqualsOneFilledThroughTheLog() throws {
        let folder = try TemporaryDirectory()
        let text = lines(2500)
        let inPlacePath = folder.path("in-place.sqlite"), loggedPath = folder.path("logged.sqlite")

        let inPlace = try importLines(text, into: inPlacePath, folder: folder)
        #expect(inPlace.count == 2500)
        #expect(inPlace.inPlace)

        // Another connection holding the store open keeps the import on the log.
        _ = try Store(path: loggedPath)
        let holder = try DatabaseQueue(path: loggedPath)
        try holder.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM record") }
        let logged = try importLines(text, into: loggedPath, folder: folder)
        #expect(logged.count == 2500)
        #expect(!logged.inPlace)
        #expect(fileSize(loggedPath + "-wal") > 0, "the logged import left no log")
        try holder.close()

        // Back in WAL mode, with no journal left, and the same store either way.
        #expect(try fileState(inPlacePath).journal == "wal")
        #expect(!FileManager.default.fileExists(atPath: inPlacePath + "-journal"))
        #expect(try integrityCheck(inPlacePath) == "ok")
        let exported = try export(inPlacePath)
        #expect(exported.split(separator: "\n").count == 2500)
        #expect(try exported == export(loggedPath))
        for predicate in ["self CONTAINS 'harbour'", "tags CONTAINS '東京'", "n < 100", "title BEGINSWITH 'café'"] {
            let query = Query(recordType: "Item", predicateFormat: predicate)
            let names = { (path: String) throws -> [String] in
                try allRecords(Store(path: path).database(.private), query: query, zone: self.zone).map(\.recordName).sorted()
            }
            let found = try names(inPlacePath)
            #expect(!found.isEmpty, "\(predicate) found nothing")
            #expect(try found == names(loggedPath), "\(predicate)")
        }
    }

    @Test func aStoreWithRecordsIsFilledThroughTheLog() throws {
        let folder = try TemporaryDirectory()
        let path = folder.storePath
        do {
            // Closed before the import: only the record it holds keeps the import on the log.
            let database = try Store(path: path).database(.private)
            try database.modifyRecordZones(saving: [zone])
            let saved = try database.modifyRecords(saving: [Record(recordType: "Item", recordID: RecordID(recordName: "first", zoneID: zone),
                                                                   fields: ["n": .int64(1)])])
            #expect(saved.partialFailure == nil)
        }
        let result = try importLines(lines(300), into: path, folder: folder)
        #expect(result.count == 300)
        #expect(!result.inPlace)
        #expect(try fileState(path).records == 301)
    }

    @Test func aFailedImportKeepsItsCommittedTransactionsAndTheLog() throws {
        let folder = try TemporaryDirectory()
        let path = folder.storePath
        #expect(throws: LineImportFailure.self) {
            try importLines(lines(700, bad: 651), into: path, folder: folder, recordsPerTransaction: 200)
        }
        // Transactions of 200 at batches of 300: the first three commits hold 600 records.
        let state = try fileState(path)
        #expect(state.journal == "wal")
        #expect(state.records == 600)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        #expect(try integrityCheck(path) == "ok")
        // The store now holds records: the next import goes through the log, and replaces them.
        let again = try importLines(lines(700), into: path, folder: folder)
        #expect(again.count == 700)
        #expect(!again.inPlace)
        #expect(try fileState(path).records == 700)
    }

    /// A bulk fill (`writeInBulk`, as the demo fills its store) goes in place in a new store:
    /// its log stays empty while the store is open, where a second fill, of a store that now
    /// holds records, goes through it.
    @Test func aBulkFillOfANewStoreGoesInPlace() throws {
        let folder = try TemporaryDirectory()
        let path = folder.storePath
        let store = try Store(path: path)
        let database = store.database(.private)
        try database.modifyRecordZones(saving: [zone])
        func fill(_ names: Range<Int>) throws {
            try database.writeInBulk(itemsPerTransaction: 500) { writer in
                var start = names.lowerBound
                while start < names.upperBound {
                    let records = (start..<min(start + 400, names.upperBound)).map { index in
                        Record(recordType: "Item", recordID: RecordID(recordName: "b\(index)", zoneID: zone),
                               fields: ["title": .string("harbour \(index)"), "n": .int64(Int64(index))])
                    }
                    let result = try writer.modifyRecords(saving: records)
                    #expect(result.partialFailure == nil)
                    start += records.count
                }
            }
        }
        try fill(0..<1500)
        #expect(fileSize(path + "-wal") == 0, "the fill of a new store went through the log")
        #expect(try fileState(path) == ("wal", 1500))
        try fill(1500..<2000)
        #expect(fileSize(path + "-wal") > 0, "the fill of a store with records did not go through the log")
        #expect(try fileState(path).records == 2000)
        let found = try allRecords(database, query: Query(recordType: "Item", predicateFormat: "self CONTAINS 'harbour' AND n >= 1400"), zone: zone)
        #expect(found.count == 600)
    }

    /// A store left with a hot rollback journal (its files copied while a transaction under a
    /// rollback journal had spilled pages into the file) opens: the transaction is rolled back,
    /// and the store is in WAL mode again.
    @Test func aStoreLeftWithAHotJournalOpensRolledBack() throws {
        let folder = try TemporaryDirectory()
        let original = folder.path("original.sqlite"), copy = folder.path("copy.sqlite")
        do {
            let database = try Store(path: original).database(.private)
            try database.modifyRecordZones(saving: [zone])
        }
        let writer = try DatabaseQueue(path: original)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA cache_size = 8")
            try db.execute(sql: "BEGIN IMMEDIATE")
            // Enough rows that the small cache spills pages into the file.
            for index in 0..<3000 {
                try db.execute(sql: "INSERT INTO zone (scope, owner, name) VALUES (1, 'someone', ?)",
                               arguments: ["z\(index)" + String(repeating: "x", count: 200)])
            }
            for suffix in ["", "-journal"] {
                try FileManager.default.copyItem(atPath: original + suffix, toPath: copy + suffix)
            }
            try db.execute(sql: "ROLLBACK")
        }
        try writer.close()
        #expect(FileManager.default.fileExists(atPath: copy + "-journal"))
        let zones = try Store(path: copy).database(.private).allRecordZones().map(\.zoneID.zoneName).sorted()
        #expect(zones == [ZoneID.defaultZoneName, zone.zoneName].sorted())
        #expect(try fileState(copy).journal == "wal")
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
        #expect(try integrityCheck(copy) == "ok")
    }

    /// A process opening a store that another is filling in place (a write transaction under a
    /// rollback journal) is told so, not left waiting without end or told of a permission.
    @Test func openingAStoreBeingFilledInPlaceSaysSo() throws {
        let folder = try TemporaryDirectory()
        let path = folder.storePath
        _ = try Store(path: path)
        let filler = try DatabaseQueue(path: path)
        defer { try? filler.close() }
        // GRDB closes no transaction across accesses: the other opening runs inside this one.
        try filler.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "INSERT INTO zone (scope, owner, name) VALUES (1, 'someone', 'filling')")
            defer { try? db.execute(sql: "ROLLBACK") }
            #expect(FileManager.default.fileExists(atPath: path + "-journal"))
            do {
                _ = try Store(path: path)
                Issue.record("the store opened while another process filled it")
            } catch let error as CloudKitError {
                #expect(error.code == .zoneBusy)
                #expect("\(error)".contains("being filled by an import in another process"), "\(error)")
            }
        }
    }

    /// Kills `stratus save --import` of a new store at moments spread over its run: the next
    /// open must find every record or none, SQLite must find nothing wrong, and the store must
    /// be in WAL mode again with no journal left.
    @Test func aKilledImportLeavesAllOrNothing() throws {
        let folder = try TemporaryDirectory("stratus-inplace-kill")
        let count = 6000
        let file = try folder.write(Data(lines(count).utf8), to: "lines.jsonl")
        var random = SeededGenerator(seed: testSeed("in-place kills"))

        func run(_ store: String, killAfter delay: Double?) throws -> Bool {
            let process = StratusBinary.process(["save", "--import", file.path], store: store)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if let delay {
                let deadline = Date().addingTimeInterval(delay)
                while process.isRunning, Date() < deadline { usleep(500) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { return true }
            #expect(process.terminationStatus == 0)
            return false
        }

        let clock = Date()
        #expect(try !run(folder.path("timed.sqlite"), killAfter: nil))
        let duration = Date().timeIntervalSince(clock)
        #expect(try fileState(folder.path("timed.sqlite")).records == count)

        var outcomes = (killed: 0, none: 0, all: 0)
        // Six rounds; on a machine whose speed changes under other load a kill can come too late
        // in every one, so rounds go on (at most six more, each killing sooner) until one lands.
        var round = 0
        while round < 6 || (outcomes.killed == 0 && round < 12) {
            defer { round += 1 }
            let store = folder.path("killed-\(round).sqlite")
            // Half the kills fall in the run's last fifth, where the pages go to the file.
            let late = round % 2 == 1 && round < 6
            let sooner = round < 6 ? 1.0 : pow(0.5, Double(round - 5))
            let delay = (late ? Double.random(in: 0.8...1.05, using: &random) : Double.random(in: 0.1...0.8, using: &random)) * duration * sooner
            if try run(store, killAfter: delay) { outcomes.killed += 1 }
            // Opening as a store rolls back what the kill left and turns WAL mode on again.
            _ = try Store(path: store)
            let state = try fileState(store)
            #expect(state.journal == "wal", "round \(round)")
            #expect(!FileManager.default.fileExists(atPath: store + "-journal"), "round \(round)")
            #expect(try integrityCheck(store) == "ok", "round \(round)")
            #expect(state.records == 0 || state.records == count, "round \(round): \(state.records) records")
            if state.records == 0 { outcomes.none += 1 } else { outcomes.all += 1 }
            // The store takes the import again and ends whole.
            if state.records == 0 {
                #expect(try !run(store, killAfter: nil))
                #expect(try fileState(store).records == count)
            }
        }
        #expect(outcomes.killed > 0, "no run was killed: \(outcomes)")
    }
}
