import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing

/// Read-only stores: every read works (fetch, query, changes, tokens), every write is refused
/// with a message naming the file and why it is read-only, and the file is left as it was.
extension BadInputTests {
    @Test(.enabled(if: BadInputTests.canRunWithoutWriteAccess, "running as root without setpriv"))
    func readOnlyStoreFile() throws {
        let path = try readOnlyCopy(in: "ro-file", fileMode: 0o444, folderMode: 0o777)
        let fetched = try expectReads(path)
        log("a read-only store (chmod 444): reading", "stratus fetch r1 --zone z --store \(path)", fetched.status, fetched.stdout)
        try expectWriteRefused(path, input: "a read-only store (chmod 444): writing", reason: "the file is not writable")
        try expectUnchanged(path)
    }

    @Test(.enabled(if: BadInputTests.canRunWithoutWriteAccess, "running as root without setpriv"))
    func readOnlyStoreInAReadOnlyFolder() throws {
        // No -shm file beside the store and no right to make one: Stratus opens it immutable.
        let path = try readOnlyCopy(in: "ro-folder", fileMode: 0o444, folderMode: 0o555)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let fetched = try expectReads(path)
        log("a read-only store in a read-only folder: reading", "stratus fetch r1 --zone z --store \(path)", fetched.status, fetched.stdout)
        try expectWriteRefused(path, input: "a read-only store in a read-only folder: writing", reason: "the file is not writable")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("ro-folder")) == ["store.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "reading a read-only store changed it")

        // The file itself writable, its folder not: SQLite could not make the -wal file a write needs.
        let writableFile = try readOnlyCopy(in: "ro-folder-only", fileMode: 0o666, folderMode: 0o555)
        #expect(try runWithoutWriteAccess(["fetch", "r1", "--zone", "z"], store: writableFile).stdout.contains("keep 1"))
        try expectWriteRefused(writableFile, input: "a writable store in a read-only folder: writing",
                               reason: "its folder \(folder.path("ro-folder-only")) is not writable")
        try expectUnchanged(path)
        try expectUnchanged(writableFile)
    }

    /// A read-only folder holding a -wal file with changes not yet folded into the store: readable
    /// when the -shm file is there too; refused (not read without them) when it is not.
    @Test func readOnlyFolderWithChangesInTheWAL() throws {
        let live = folder.path("live.sqlite")
        try checkpointedCopy(of: store, to: live)
        for name in ["wal-and-shm", "wal-only"] {
            try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
        }
        do {
            let opened = try Store(path: live)
            try opened.file.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "r4", zoneID: ZoneID(zoneName: "z")))
            record["s"] = .string("only in the WAL")
            _ = try opened.database(.private).modifyRecords(saving: [record])
            // Copied while the store is open, so its last change is still in the -wal file.
            for (suffix, folders) in [("", ["wal-and-shm", "wal-only"]), ("-wal", ["wal-and-shm", "wal-only"]), ("-shm", ["wal-and-shm"])] {
                for name in folders { try FileManager.default.copyItem(atPath: live + suffix, toPath: folder.path(name) + "/store.sqlite" + suffix) }
            }
        }
        for name in ["wal-and-shm", "wal-only"] {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path(name)) { chmod(folder.path(name) + "/" + file, 0o444) }
            chmod(folder.path(name), 0o555)
        }
        let withShm = try runWithoutWriteAccess(["fetch", "r4", "--zone", "z"], store: folder.path("wal-and-shm") + "/store.sqlite")
        #expect(withShm.status == 0, "\(withShm.stderr)")
        #expect(withShm.stdout.contains("only in the WAL"), "\(withShm.stdout)")

        let walOnly = folder.path("wal-only") + "/store.sqlite"
        let refused = try runWithoutWriteAccess(["fetch", "r4", "--zone", "z"], store: walOnly)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("its latest changes are still in store.sqlite-wal"), "\(refused.stderr)")
        log("a read-only folder whose store has changes only in its -wal file", "stratus fetch r4 --zone z --store \(walOnly)",
            refused.status, refused.stderr)
        // Nothing lost: with write access back, the change in the -wal file is there.
        for name in ["wal-and-shm", "wal-only"] {
            chmod(folder.path(name), 0o755)
            chmod(folder.path(name) + "/store.sqlite", 0o644)
            let path = folder.path(name) + "/store.sqlite"
            #expect(try integrityCheck(path) == "ok")
            #expect(try StratusBinary.run(["fetch", "r4", "--zone", "z"], store: path).stdout.contains("only in the WAL"), "\(name)")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "a read-only bind mount needs root"),
          .enabled(if: BadInputTests.canBindMount, "cannot bind-mount here"),
          .enabled(if: BadInputTests.canRemountReadOnly, "cannot remount read-only here"))
    func storeOnAReadOnlyFileSystem() throws {
        let source = folder.path("ro-source"), mountPoint = folder.path("ro-mount")
        for path in [source, mountPoint] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        try checkpointedCopy(of: store, to: source + "/store.sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source + "/store.sqlite"))
        try #require(try Self.mount(["--bind", source, mountPoint]), "cannot bind-mount here")
        defer { _ = try? Self.mount(["-u", mountPoint]) }
        try #require(try Self.mount(["-o", "remount,ro,bind", mountPoint]), "cannot remount read-only here")
        let path = mountPoint + "/store.sqlite"

        // Through the engine, as the dashboard uses it: every read works. (Closed at the end of
        // the block, so the file system can be unmounted.)
        do {
            let opened = try Store(path: path)
            #expect(opened.isReadOnly)
            let database = opened.database(.private)
            let zone = ZoneID(zoneName: "z")
            #expect(try allRecords(database, type: "Item", zone: zone).count == 3)
            #expect(try database.records(for: [RecordID(recordName: "r1", zoneID: zone)])[0].result.isSuccess == true)
            #expect(try playBack(database, zone: zone, since: nil).changed.count == 3)
            #expect(try playBack(database, zone: zone, since: database.currentToken(for: zone)).changed.count == 0)
            #expect(try !opened.recordTypes().isEmpty)
            // Every write is refused, saying why.
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "r9", zoneID: zone))
            record["n"] = .int64(9)
            do {
                _ = try database.modifyRecords(saving: [record])
                Issue.record("expected an error")
            } catch {
                #expect((error as? CloudKitError)?.code == .permissionFailure, "\(error)")
                #expect("\(error)".contains("is read-only (it is on a read-only file system)"), "\(error)")
                log("a store on a read-only file system (API): writing", "database.modifyRecords(saving: [r9])", 1, "\(error)")
            }
            #expect(throws: (any Error).self) { try database.modifyRecordZones(saving: [ZoneID(zoneName: "w")]) }
            #expect(throws: (any Error).self) { try opened.putAsset(Data("asset".utf8)) }
        }

        // Through the binary.
        let fetched = try expectReads(path, asOtherUser: false)
        log("a store on a read-only file system: reading", "stratus fetch r1 --zone z --store \(path)", fetched.status, fetched.stdout)
        try expectWriteRefused(path, input: "a store on a read-only file system: writing", reason: "it is on a read-only file system", asOtherUser: false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: source + "/store.sqlite")) == bytes, "reading a read-only store changed it")
    }

    // MARK: - Helpers

    /// A copy of the test's store in folder `name`, with those permissions.
    func readOnlyCopy(in name: String, fileMode: mode_t, folderMode: mode_t) throws -> String {
        // Root ignores file permissions; the binary then runs as nobody, through setpriv.
        // The tests that call this are enabled only when it can (canRunWithoutWriteAccess).
        try #require(Self.canRunWithoutWriteAccess, "running as root without setpriv")
        let directory = folder.path(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/store.sqlite"
        try checkpointedCopy(of: store, to: path)
        chmod(path, fileMode)
        chmod(directory, folderMode)
        return path
    }

    /// Runs `stratus ARGS --store PATH` as a user who may not write PATH: the test's own user, or
    /// nobody when the tests run as root.
    func runWithoutWriteAccess(_ arguments: [String], store path: String, stdin: String? = nil) throws -> ProcessOutcome {
        guard geteuid() == 0 else { return try StratusBinary.run(arguments, store: path, stdin: stdin) }
        return try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                     ["--reuid=65534", "--regid=65534", "--clear-groups", StratusBinary.url.path] + arguments + ["--store", path],
                                     stdin: stdin.map { Data($0.utf8) })
    }

    /// Fetch, query, changes and changes since a token all work; returns the fetch.
    @discardableResult
    func expectReads(_ path: String, asOtherUser: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessOutcome {
        let run = { (arguments: [String]) in
            asOtherUser ? try self.runWithoutWriteAccess(arguments, store: path) : try StratusBinary.run(arguments, store: path)
        }
        let fetched = try run(["fetch", "r1", "--zone", "z"])
        #expect(fetched.status == 0, "\(fetched.stderr)", sourceLocation: sourceLocation)
        #expect(fetched.stdout.contains("keep 1"), "\(fetched.stdout)", sourceLocation: sourceLocation)
        let queried = try run(["query", "--type", "Item", "--zone", "z"])
        #expect(queried.status == 0, "\(queried.stderr)", sourceLocation: sourceLocation)
        #expect(queried.stdout.contains("keep 3"), "\(queried.stdout)", sourceLocation: sourceLocation)
        let changes = try run(["changes", "--zone", "z", "--json"])
        #expect(changes.status == 0, "\(changes.stderr)", sourceLocation: sourceLocation)
        let token = (try JSONSerialization.jsonObject(with: Data(changes.stdout.utf8)) as? [String: Any])?["syncToken"] as? String
        let since = try run(["changes", "--zone", "z", "--since", try #require(token, "\(changes.stdout)", sourceLocation: sourceLocation)])
        #expect(since.status == 0, "\(since.stderr)", sourceLocation: sourceLocation)
        return fetched
    }

    /// A save and a zone creation both fail with permissionFailure, naming the file and `reason`.
    func expectWriteRefused(_ path: String, input: String, reason: String, asOtherUser: Bool = true,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = { (arguments: [String], stdin: String?) in
            asOtherUser ? try self.runWithoutWriteAccess(arguments, store: path, stdin: stdin) : try StratusBinary.run(arguments, store: path, stdin: stdin)
        }
        let saved = try run(["save", "--zone", "z"], #"{"recordName":"r9","recordType":"Item","fields":{}}"#)
        #expect(saved.status == 1, "\(saved.stderr)", sourceLocation: sourceLocation)
        #expect(saved.stderr.contains("permissionFailure (10): The store at \(path) is read-only (\(reason))"), "\(saved.stderr)", sourceLocation: sourceLocation)
        log(input, "stratus save --zone z --store \(path)", saved.status, saved.stderr)
        let zoned = try run(["zones", "create", "w"], nil)
        #expect(zoned.status == 1, "\(zoned.stderr)", sourceLocation: sourceLocation)
        #expect(zoned.stderr.contains("permissionFailure (10)"), "\(zoned.stderr)", sourceLocation: sourceLocation)
    }

    /// With write access back, the copy is sound and holds exactly the records saved before.
    func expectUnchanged(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        chmod(directory, 0o755)
        chmod(path, 0o644)
        #expect(try integrityCheck(path) == "ok", sourceLocation: sourceLocation)
        #expect(try snapshot(path, sourceLocation: sourceLocation) == before, "the records of the read-only store changed", sourceLocation: sourceLocation)
    }

    // MARK: - What the machine allows (the conditions of the tests' traits)

    /// Whether the binary can run as a user who may not write a store: the tests' own user, or
    /// nobody (through setpriv) when the tests run as root.
    static var canRunWithoutWriteAccess: Bool {
        geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    /// Whether a folder can be bind-mounted here: tried on a scratch folder.
    static var canBindMount: Bool { BindMount.works(readOnly: false) }

    /// Whether a bind mount can be remounted read-only here: tried on a scratch folder.
    static var canRemountReadOnly: Bool { BindMount.works(readOnly: true) }

    /// Runs mount(8) (or umount(8) with `-u`); true when it succeeded.
    static func mount(_ arguments: [String]) throws -> Bool {
        arguments.first == "-u" ? BindMount.unmount(arguments[1]) : BindMount.mount(arguments)
    }
}
