import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTerminal
import StratusTestSupport
import Testing

/// Every bad input of docs/bad-input.md, given to the real binary (or, where the binary cannot
/// be made to meet it, to the engine): each is answered with a clear error, and the records
/// already in the store are all still there, unchanged.
///
/// With `STRATUS_BAD_INPUT_LOG=FILE` every case appends what the user saw to FILE, which is
/// how the table in docs/bad-input.md was made. Serialized, as the tests always ran, so the
/// cases reach that file whole and in order.
///
/// A class, so that `deinit` checks after each test that nothing was lost.
@Suite(.serialized) final class BadInputTests {
    let folder: TemporaryDirectory
    var store: String { folder.storePath }
    /// The records saved before each test, as `stratus query --json` printed them.
    var before: [String] = []

    init() throws {
        folder = try TemporaryDirectory("stratus-bad-input")
        #expect(try StratusBinary.run(["zones", "create", "z"], store: store).status == 0)
        let records = (1...3).map { #"{"recordName":"r\#($0)","recordType":"Item","fields":{"n":{"value":\#($0),"type":"INT64"},"s":{"value":"keep \#($0)","type":"STRING"}}}"# }
        let saved = try StratusBinary.run(["save", "--zone", "z"], store: store, stdin: records.joined(separator: "\n"))
        #expect(saved.status == 0, "\(saved.stderr)")
        before = try snapshot()
        #expect(before.count == 3)
    }

    deinit {
        // Nothing lost: the store opens, is sound, and holds exactly what it held.
        if FileManager.default.fileExists(atPath: store) {
            do { #expect(try integrityCheck(store) == "ok") } catch { Issue.record(error) }
            do { #expect(try snapshot() == before, "the records saved before the bad input changed") } catch { Issue.record(error) }
        }
    }

    /// The records of the store at `path` (default: the test's), one JSON line each, sorted.
    func snapshot(_ path: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let outcome = try StratusBinary.run(["query", "--type", "Item", "--zone", "z", "--all", "--json"], store: path ?? store)
        #expect(outcome.status == 0, "\(outcome.stderr)", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return (object?["records"] as? [[String: Any]] ?? []).map {
            String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }.sorted()
    }

    /// Runs `stratus ARGS`, checks the exit status and that the message contains `expected`,
    /// and logs the case for the documentation.
    @discardableResult
    func expect(_ input: String, _ arguments: [String], stdin: String? = nil, storePath: String? = nil, status: Int32 = 1,
                contains expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessOutcome {
        let path = storePath ?? store
        let outcome = try StratusBinary.run(arguments, store: path, stdin: stdin)
        #expect(outcome.status == status, "\(input): \(outcome.stderr)", sourceLocation: sourceLocation)
        let said = outcome.stderr.isEmpty ? outcome.stdout : outcome.stderr
        #expect(said.contains(expected), "\(input): expected '\(expected)' in:\n\(said)", sourceLocation: sourceLocation)
        #expect(!outcome.signalled, "\(input): the binary crashed", sourceLocation: sourceLocation)
        log(input, "stratus " + (arguments + ["--store", path]).map(shellQuoted).joined(separator: " "), outcome.status, said, stdin: stdin)
        return outcome
    }

    func log(_ input: String, _ command: String, _ status: Int32, _ said: String, stdin: String? = nil) {
        guard let logFile = ProcessInfo.processInfo.environment["STRATUS_BAD_INPUT_LOG"] else { return }
        let clean = { (text: String) in
            text.replacingOccurrences(of: self.folder.url.path, with: "DIR")
                .replacingOccurrences(of: FileManager.default.temporaryDirectory.path, with: "/tmp")
        }
        var stdinNote = ""
        if let stdin { stdinNote = stdin.count > 200 ? " (stdin: \(stdin.count) bytes)" : " <<< \(stdin)" }
        let entry: [String: Any] = ["input": input, "command": clean(command) + stdinNote, "status": Int(status),
                                    "output": clean(said.trimmingCharacters(in: .whitespacesAndNewlines))]
        let data = (try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys])) ?? Data()
        if let handle = FileHandle(forWritingAtPath: logFile) ?? {
            _ = FileManager.default.createFile(atPath: logFile, contents: nil)
            return FileHandle(forWritingAtPath: logFile)
        }() {
            handle.seekToEndOfFile()
            handle.write(data + Data("\n".utf8))
            try? handle.close()
        }
    }

    func shellQuoted(_ word: String) -> String {
        if word.count > 120 { return "'\(word.prefix(40))…'" }
        return word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:=,".contains($0) }) ? word : "'\(word.replacingOccurrences(of: "'", with: "'\\''"))'"
    }

    // MARK: - Records

    @Test func malformedJSON() throws {
        try expect("malformed JSON", ["save", "--zone", "z"], stdin: #"{"recordName": "r9", "recordType": "Item", "fields": {"#,
                   contains: "error: standard input: malformed JSON at line 1, column 55")
        try expect("JSON that is not a record", ["save", "--zone", "z"], stdin: "[1, 2]", contains: "record 1 of 2")
        try expect("a number too large for a DOUBLE", ["save", "--zone", "z"],
                   stdin: #"{"recordName":"r9","recordType":"Item","fields":{"x":{"value":1e999,"type":"DOUBLE"}}}"#, contains: "is out of range")
        try expect("a malformed line in an import", ["save", "--import", "-", "--zone", "z"],
                   stdin: #"{"recordName": "r7", "recordType": "Item", "fields": {}}"# + "\n" + #"{"recordName": "r8", "#,
                   contains: "line 2: malformed JSON")
        try expect("an import record of the wrong type", ["save", "--import", "-", "--zone", "z"],
                   stdin: #"{"recordName":"r9","recordType":"Item","fields":{"n":{"value":"five","type":"STRING"}}}"#,
                   contains: "0 records imported before it")
        try Data([0x7B, 0x22, 0xE9, 0x22, 0x7D]).write(to: URL(fileURLWithPath: folder.path("latin1.json")))
        try expect("input that is not UTF-8", ["save", "--zone", "z", folder.path("latin1.json")], contains: "is not UTF-8 text")
    }

    @Test func valueOfTheWrongType() throws {
        try expect("a value that is not its declared type", ["save", "--zone", "z"],
                   stdin: #"{"recordName":"r9","recordType":"Item","fields":{"n":{"value":"five","type":"INT64"}}}"#, contains: "INT64")
        try expect("a value of another type than the schema's field", ["save", "--zone", "z"],
                   stdin: #"{"recordName":"r9","recordType":"Item","fields":{"n":{"value":"five","type":"STRING"}}}"#, contains: "invalidArguments (12)")
        try expect("an unknown field type", ["save", "--zone", "z"],
                   stdin: #"{"recordName":"r9","recordType":"Item","fields":{"n":{"value":1,"type":"INT32"}}}"#, contains: "INT32")
        try expect("changing a record's type", ["save", "--zone", "z", "--policy", "all-keys"],
                   stdin: #"{"recordName":"r1","recordType":"Other","fields":{}}"#, contains: "cannot change its type")
    }

    /// Regression: a TIMESTAMP of 9223372036854775807 ms crashed `stratus save` (the date did not
    /// convert back to Int64 milliseconds). Such dates now saturate and round-trip.
    @Test func timestampPastInt64Milliseconds() throws {
        let far = #"{"recordName":"far","recordType":"Far","fields":{"d":{"value":9223372036854775807,"type":"TIMESTAMP"},"e":{"value":-9223372036854775808,"type":"TIMESTAMP"}}}"#
        let saved = try StratusBinary.run(["save", "--zone", "z", "--json"], store: store, stdin: far)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(!saved.signalled)
        let fetched = try StratusBinary.run(["fetch", "far", "--zone", "z", "--json"], store: store)
        #expect(fetched.stdout.contains("9223372036854775807"), "\(fetched.stdout)")
        #expect(fetched.stdout.contains("-9223372036854775808"), "\(fetched.stdout)")

        // Regression (found by the record-json fuzzer): a date with a long fraction of a second
        // killed `stratus save` with SIGFPE inside ICU's date parser.
        let long = #"{"recordName":"long","recordType":"Far","fields":{"d":{"value":"2024-05-01T00:00:00.1230000000000000000000000000000000000000000000000000000000000000000Z","type":"TIMESTAMP"}}}"#
        let parsed = try StratusBinary.run(["save", "--zone", "z", "--json"], store: store, stdin: long)
        #expect(parsed.status == 0, "\(parsed.stderr)")
        #expect(!parsed.signalled)
        #expect(parsed.stdout.contains("1714521600123"), "\(parsed.stdout)")
    }

    @Test func unknownZoneOrDatabase() throws {
        try expect("an unknown zone (save)", ["save", "--zone", "nope"],
                   stdin: #"{"recordName":"r9","recordType":"Item","fields":{}}"#, contains: "zoneNotFound (26)")
        try expect("an unknown zone (changes)", ["changes", "--zone", "nope"], contains: "zoneNotFound (26): Zone 'nope' does not exist")
        try expect("an unknown zone (query)", ["query", "--type", "Item", "--zone", "nope"], contains: "zoneNotFound (26)")
        try expect("an unknown database", ["zones", "--db", "nope"], status: 2, contains: "--db must be public, private or shared, not 'nope'")
        try expect("a custom zone in the public database", ["zones", "create", "x", "--db", "public"], contains: "Custom zones can only be made in the private database")
        try expect("an unknown record type", ["query", "--type", "Nope", "--zone", "z"], contains: "Did not find record type: 'Nope'")
    }

    @Test func recordOverOneMegabyte() throws {
        let big = String(repeating: "x", count: 1_100_000)
        try expect("a record over 1 MB", ["save", "--zone", "z"],
                   stdin: #"{"recordName":"r9","recordType":"Item","fields":{"s":{"value":"\#(big)","type":"STRING"}}}"#,
                   contains: "limitExceeded (27): Record 'r9' is 1100")
    }

    @Test func batchOver400() throws {
        // The engine refuses a batch over 400 items, as CloudKit does...
        let database = try Store(path: store).database(.private)
        let records = (0..<401).map { Record(recordType: "Item", recordID: RecordID(recordName: "b\($0)", zoneID: ZoneID(zoneName: "z"))) }
        do {
            _ = try database.modifyRecords(saving: records)
            Issue.record("expected an error")
        } catch {
            #expect((error as? CloudKitError)?.code == .limitExceeded)
            #expect("\(error)" == "limitExceeded (27): A batch holds 401 items; the limit is 400. Split it into smaller batches.")
            log("a batch over 400 (API)", "database.modifyRecords(saving: 401 records)", 1, "\(error)")
        }
        // ... and `stratus save` splits a longer input into batches of 400 (each all-or-nothing
        // with --atomic): here a 401st record that fails leaves the first 400 saved.
        let lines = (0..<401).map { #"{"recordName":"b\#($0)","recordType":"Item","fields":{"n":{"value":\#($0 == 400 ? "\"x\"" : "1"),"type":"\#($0 == 400 ? "STRING" : "INT64")"}}}"# }
        let outcome = try expect("401 records given to stratus save", ["save", "--zone", "z", "--atomic"], stdin: lines.joined(separator: "\n"),
                                 contains: "error: partialFailure (2): 1 of 401 records were not saved.")
        #expect(outcome.stdout.contains("saved Item b399"))
        #expect(try StratusBinary.run(["delete", "--zone", "z"] + (0..<400).map { "b\($0)" }, store: store).status == 0)
    }

    // MARK: - Tokens and cursors

    @Test func damagedOrForeignTokensAndCursors() throws {
        let token = try StratusBinary.run(["token", "--zone", "z"], store: store).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try expect("a token that is not base64url", ["changes", "--zone", "z", "--since", "not a token!"], contains: "is damaged (it is not base64url text)")
        try expect("a truncated token", ["changes", "--zone", "z", "--since", String(token.prefix(10))], contains: "is damaged (it is too short)")
        var flipped = Array(token)
        flipped[12] = flipped[12] == "A" ? "B" : "A"
        try expect("a token with one character changed", ["changes", "--zone", "z", "--since", String(flipped)], contains: "its checksum does not match")

        let other = try TemporaryDirectory("stratus-bad-input-other")
        #expect(try StratusBinary.run(["zones", "create", "z"], store: other.storePath).status == 0)
        let foreign = try StratusBinary.run(["token", "--zone", "z"], store: other.storePath).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try expect("a token of another store", ["changes", "--zone", "z", "--since", foreign], contains: "of another store")

        #expect(try StratusBinary.run(["zones", "create", "y"], store: store).status == 0)
        try expect("a token of another zone", ["changes", "--zone", "y", "--since", token], contains: "belongs to 'z', not 'y'")
        let databaseToken = try StratusBinary.run(["token", "--database"], store: store).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try expect("a database token given as a zone token", ["changes", "--zone", "z", "--since", databaseToken],
                   contains: "This is a database change token, not a zone change token")
        try expect("a token of a zone deleted and made again", ["changes", "--zone", "y", "--since",
                                                               try recreatedZoneToken("y")], contains: "changeTokenExpired (21)")

        let page = try StratusBinary.json(["query", "--type", "Item", "--zone", "z", "--limit", "1"], store: store)
        let cursor = try #require(page["continuationMarker"] as? String)
        try expect("a damaged cursor", ["query", "--type", "Item", "--zone", "z", "--cursor", String(cursor.dropLast(3))], contains: "query cursor is damaged")
        let otherRecords = #"{"recordName":"o1","recordType":"Item","fields":{}}"# + "\n" + #"{"recordName":"o2","recordType":"Item","fields":{}}"#
        #expect(try StratusBinary.run(["save", "--zone", "z"], store: other.storePath, stdin: otherRecords).status == 0)
        let foreignCursor = try #require(try StratusBinary.json(["query", "--type", "Item", "--zone", "z", "--limit", "1"], store: other.storePath)["continuationMarker"] as? String)
        try expect("a cursor of another store", ["query", "--type", "Item", "--zone", "z", "--cursor", foreignCursor], contains: "of another store")
        try expect("a change token given as a cursor", ["query", "--type", "Item", "--zone", "z", "--cursor", token], contains: "This is a zone change token, not a query cursor")
    }

    /// A token of zone `name`, after which the zone is deleted and made again.
    func recreatedZoneToken(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let token = try StratusBinary.run(["token", "--zone", name], store: store).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try StratusBinary.run(["zones", "delete", name], store: store).status == 0, sourceLocation: sourceLocation)
        #expect(try StratusBinary.run(["zones", "create", name], store: store).status == 0, sourceLocation: sourceLocation)
        return token
    }

    // MARK: - Store files

    @Test func filesThatAreNotStores() throws {
        let text = folder.path("notes.txt")
        try "just some notes\n".write(toFile: text, atomically: true, encoding: .utf8)
        try expect("a text file as --store", ["zones"], storePath: text, contains: "is not a Stratus store: it is not an SQLite database")
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "just some notes\n", "the file was changed")

        // Another program's SQLite database is refused and left exactly as it was (not even
        // switched to WAL mode).
        let foreign = folder.path("other.db")
        try makeForeignDatabase(foreign)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: foreign))
        try expect("another program's SQLite database", ["zones"], storePath: foreign, contains: "an SQLite database but not a Stratus store; refusing to touch it")
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == bytes, "the foreign database was changed")
        #expect(!FileManager.default.fileExists(atPath: foreign + "-wal"))

        let directory = folder.path("a-folder")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try expect("a folder as --store", ["zones"], storePath: directory, contains: "is a folder, not a store file")
    }

    @Test func truncatedStores() throws {
        // A checkpointed copy of the store, cut short.
        let copy = folder.path("copy.sqlite")
        #expect(try StratusBinary.run(["export", "--zone", "z", "--out", folder.path("export.jsonl")], store: store).status == 0)
        try checkpointedCopy(of: store, to: copy)
        let size = try #require(FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int)
        for (label, length) in [("a store cut to half its size", size / 2), ("a store cut to its first 50 bytes", 50)] {
            let cut = folder.path("cut-\(length).sqlite")
            try FileManager.default.copyItem(atPath: copy, toPath: cut)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: cut))
            try handle.truncate(atOffset: UInt64(length))
            try handle.close()
            try expect(label, ["query", "--type", "Item", "--zone", "z"], storePath: cut, contains: "badDatabase (24)")
            let saved = try StratusBinary.run(["save", "--zone", "z"], store: cut, stdin: #"{"recordName":"x","recordType":"Item","fields":{}}"#)
            #expect(saved.status == 1, "a damaged store accepted a write")
        }
    }

    @Test func storeMadeByANewerVersion() throws {
        let newer = folder.path("newer.sqlite")
        try checkpointedCopy(of: store, to: newer)
        try setFormatVersion(99, in: newer)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: newer))
        try expect("a store made by a newer version", ["zones"], storePath: newer,
                   contains: "incompatibleVersion (18): This store was made by a newer Stratus (store format 99; this build reads up to")
        #expect(try Data(contentsOf: URL(fileURLWithPath: newer)) == bytes, "the newer store was changed")
    }

    @Test func fullDiskInTheEngine() throws {
        let database = try Store(path: store).database(.private)
        // SQLite stops growing the file at max_page_count, exactly as on a full disk (SQLITE_FULL).
        try database.store.file.pool.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages + 8)")
        }
        let big = (0..<20).map { index -> Record in
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "big\(index)", zoneID: ZoneID(zoneName: "z")))
            record["s"] = .string(String(repeating: "x", count: 50_000))
            return record
        }
        do {
            _ = try database.modifyRecords(saving: big)
            Issue.record("expected an error")
        } catch {
            #expect((error as? CloudKitError)?.code == .quotaExceeded, "\(error)")
            log("a full disk (API, PRAGMA max_page_count)", "database.modifyRecords(saving: 20 records of 50 KB)", 1, "\(error)")
        }
        #expect(try database.records(for: [RecordID(recordName: "big0", zoneID: ZoneID(zoneName: "z"))])[0].result.isSuccess == false, "a record of the failed batch was written")
    }

    // A 1 MB tmpfs is a real full disk; only root may mount one.
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"),
          .enabled(if: BadInputTests.canMountATmpfs, "cannot mount a tmpfs here"))
    func fullDiskThroughTheBinary() throws {
        let mountPoint = try TemporaryDirectory("stratus-full-disk")
        try #require(try Self.mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.url.path]), "cannot mount a tmpfs here")
        defer { _ = try? Self.mount(["-u", mountPoint.url.path]) }
        let path = mountPoint.storePath
        #expect(try StratusBinary.run(["zones", "create", "z"], store: path).status == 0)
        #expect(try StratusBinary.run(["save", "--zone", "z"], store: path, stdin: #"{"recordName":"first","recordType":"Item","fields":{}}"#).status == 0)
        let lines = (0..<8).map { #"{"recordName":"big\#($0)","recordType":"Item","fields":{"s":{"value":"\#(String(repeating: "x", count: 200_000))","type":"STRING"}}}"# }
        try expect("a full disk (1 MB tmpfs)", ["save", "--zone", "z"], stdin: lines.joined(separator: "\n"), storePath: path,
                   contains: "quotaExceeded (25): The disk holding")
        // Nothing was written, what was there is still there, and small writes go on.
        let fetched = try StratusBinary.run(["fetch", "first", "big0", "--zone", "z", "--json"], store: path)
        #expect(fetched.stdout.contains("\"first\""))
        #expect(fetched.stdout.contains("NOT_FOUND"), "\(fetched.stdout)")
        #expect(try integrityCheck(path) == "ok")
    }

    // MARK: - Other input

    @Test func otherBadArguments() throws {
        try expect("an input file that does not exist", ["save", folder.path("missing.json"), "--zone", "z"], status: 2, contains: "cannot read")
        try expect("a predicate that does not parse", ["query", "--type", "Item", "--zone", "z", "--filter", "n >"], contains: "^")
        try expect("a predicate CloudKit refuses", ["check", "name MATCHES 'a.*'"], contains: "MATCHES")
        try expect("a bad --arg", ["query", "--type", "Item", "--zone", "z", "--filter", "n == %@", "--arg", "int:abc"], status: 2, contains: "int:abc")
        try expect("too few --arg values", ["query", "--type", "Item", "--zone", "z", "--filter", "n == %@"], contains: "%@")
        try expect("a bad --environment", ["zones", "--environment", "staging"], status: 2, contains: "--environment must be development or production")
        try expect("a bad --policy", ["save", "--zone", "z", "--policy", "force"], stdin: "", status: 2, contains: "--policy must be")
        try expect("--limit 0", ["changes", "--zone", "z", "--limit", "0"], status: 2, contains: "--limit must be at least 1")
    }

    // MARK: - Themes (the dashboard's; the small-terminal case belongs to the dashboard's tests)

    @Test func themeFilesWithErrors() throws {
        let themes = try TemporaryDirectory("stratus-bad-themes")
        let cases: [(String, String, String)] = [
            ("broken", #"{"slots": {"text": {"fg": "red"}"#, "broken.json"),
            ("unknown-slot", #"{"slots": {"txet": {"fg": "red"}}}"#, "txet"),
            ("bad-colour", #"{"slots": {"text": {"fg": "reddish"}}}"#, "reddish"),
            ("loop", #"{"extends": "loop"}"#, "loop"),
            ("not-object", #"[1, 2]"#, "one JSON object"),
        ]
        for (name, text, _) in cases { try text.write(toFile: themes.path("\(name).json"), atomically: true, encoding: .utf8) }
        let loader = ThemeLoader(directory: themes.url.path)
        for (name, _, expected) in cases {
            let (theme, error) = loader.loadOrDefault(named: name)
            let message = try #require(error, "\(name) loaded without an error").description
            #expect(message.contains(expected), "\(name): \(message)")
            #expect(theme == .builtInDefault, "a broken theme falls back to the default")
            log("a theme file with errors (\(name))", "ThemeLoader.loadOrDefault(named: \"\(name)\")", 0, "Theme not loaded: \(message); using the default.")
        }
        let missing = loader.loadOrDefault(named: "nope")
        #expect(missing.error != nil)
        log("a theme that does not exist", "ThemeLoader.loadOrDefault(named: \"nope\")", 0, "Theme not loaded: \(missing.error!.description); using the default.")
    }

    // MARK: - Helpers

    /// Whether a tmpfs can be mounted here: tried on a scratch folder, and unmounted.
    static var canMountATmpfs: Bool {
        guard geteuid() == 0, let probe = try? TemporaryDirectory("stratus-mount-probe") else { return false }
        return withExtendedLifetime(probe) {
            guard (try? mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe.url.path])) == true else { return false }
            _ = try? mount(["-u", probe.url.path])
            return true
        }
    }

    func makeForeignDatabase(_ path: String) throws {
        try withGRDBQueue(path) { try $0("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me');") }
    }

    func setFormatVersion(_ version: Int, in path: String) throws {
        try withGRDBQueue(path) { try $0("UPDATE store_info SET format_version = \(version)") }
    }

    func checkpointedCopy(of source: String, to destination: String) throws {
        try withGRDBQueue(source) { try $0("PRAGMA wal_checkpoint(TRUNCATE)") }
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { return true } else { return false } }
}
