import Foundation
import StratusEngine

/// A temporary folder with a store path in it, removed at the end.
final class ScratchFolder {
    let url: URL

    init(_ label: String = "stratus-reliability") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var storePath: String { url.appendingPathComponent("store.sqlite").path }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        // A read-only folder or file would stop the removal: give permissions back first.
        if let items = FileManager.default.enumerator(atPath: url.path) {
            for case let item as String in items { chmod(url.appendingPathComponent(item).path, 0o755) }
        }
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs the built `stratus` binary.
enum Binary {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Killed by a signal rather than exiting.
        var signalled: Bool
    }

    /// The built `stratus`, beside the test executable (or `$STRATUS_BINARY`).
    static var url: URL {
        if let path = ProcessInfo.processInfo.environment["STRATUS_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testExecutable.deletingLastPathComponent().appendingPathComponent("stratus")
    }

    /// The environment the binary runs in: the tests', except that when the tests run with
    /// leak checking off, `scripts/sanitize address` passes the options that turn it back on
    /// for the binary in STRATUS_CHILD_ASAN_OPTIONS.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        if let options = environment["STRATUS_CHILD_ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = options }
        return environment
    }

    static func process(_ arguments: [String], store: String?) -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments + (store.map { ["--store", $0] } ?? [])
        var environment = Binary.environment
        environment["STRATUS_STORE"] = store ?? "/nonexistent/stratus-store.sqlite"
        process.environment = environment
        return process
    }

    /// Runs `stratus ARGS --store STORE` to the end and captures what it prints.
    @discardableResult
    static func run(_ arguments: [String], store: String?, stdin: String? = nil) throws -> Outcome {
        let process = process(arguments, store: store)
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        // Feed and drain on other threads so a large input or output never blocks the pipes.
        let feeder = Thread {
            if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
            try? input.fileHandleForWriting.close()
        }
        feeder.start()
        let errorData = Locked(Data())
        let drainer = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        drainer.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1000) }
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errorData.value, as: UTF8.self),
                       signalled: process.terminationReason == .uncaughtSignal)
    }

    /// Runs with `--json` and parses standard output.
    static func json(_ arguments: [String], store: String?, stdin: String? = nil) throws -> [String: Any] {
        let outcome = try run(arguments + ["--json"], store: store, stdin: stdin)
        guard outcome.status == 0 else {
            throw NSError(domain: "stratus", code: Int(outcome.status), userInfo: [NSLocalizedDescriptionKey: "stratus \(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.stderr)"])
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any] else {
            throw NSError(domain: "stratus", code: 0, userInfo: [NSLocalizedDescriptionKey: "not a JSON object: \(outcome.stdout)"])
        }
        return object
    }
}

/// A value set once by another thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    private var wasSet = false

    init(_ value: Value) { stored = value }

    func set(_ value: Value) { lock.withLock { stored = value; wasSet = true } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
    var value: Value { lock.withLock { stored } }
    var isSet: Bool { lock.withLock { wasSet } }
}

/// Plays a zone back from `token` (nil: the beginning) to the end, page by page.
func playBack(_ database: CloudDatabase, zone: ZoneID, since token: String?, pageSize: Int = 150)
    throws -> (changed: [Record], deleted: [String], token: String) {
    var changed: [Record] = []
    var deleted: [String] = []
    var next = token
    while true {
        let page = try database.recordZoneChanges(inZoneWith: zone, since: next, resultsLimit: pageSize)
        for change in page.changes {
            switch change {
            case .changed(let record): changed.append(record)
            case .deleted(let recordID, _): deleted.append(recordID.recordName)
            }
        }
        next = page.changeToken
        if !page.moreComing { return (changed, deleted, page.changeToken) }
    }
}

/// Every record of a zone, through queries a page at a time (by cursor).
func allRecords(_ database: CloudDatabase, type: String, zone: ZoneID) throws -> [Record] {
    var records: [Record] = []
    var page = try database.records(matching: Query(recordType: type, predicateFormat: "TRUEPREDICATE"), inZoneWith: zone, resultsLimit: 200)
    records += page.records
    while let cursor = page.cursor {
        page = try database.records(continuingMatchFrom: cursor, resultsLimit: 200)
        records += page.records
    }
    return records
}

extension Record {
    func int(_ key: String) -> Int64? {
        if case .int64(let value)? = fields[key] { return value }
        return nil
    }
}

/// The seed of a randomised test: `$STRATUS_SEED` to replay one, else a fresh one (printed).
func testSeed(_ name: String) -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["STRATUS_SEED"], let seed = UInt64(text) { return seed }
    let seed = UInt64.random(in: 1...UInt64(UInt32.max))
    print("\(name): seed \(seed) (replay with STRATUS_SEED=\(seed))")
    return seed
}
