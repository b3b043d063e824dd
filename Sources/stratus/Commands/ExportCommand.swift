import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusStores
import StratusRemote

/// `stratus export`: records out as JSON lines in the CloudKit Web Services shape.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write records as JSON lines in the CloudKit Web Services record shape, as one JSON document, or as CSV.",
        discussion: """
            One record per line, with its zone, change tag and created / modified system fields; every live zone \
            of the database (--db, default private) and every type unless --zone / --type narrow it. The first \
            record that points at an asset carries its content as a data: URL (downloadURL), unless --no-assets. \
            `stratus save --import FILE` reads the file back keeping everything, system fields included.
            --format json writes one {"records": [...]} document (the CKWS response shape, which `stratus save` reads);
            --format csv writes a header of recordName, recordType, zoneName and field:TYPE columns and a row per record \
            (names, types and fields only: no change tags or times), which `stratus save --format csv` reads.
            Streams (memory stays flat); a progress bar is drawn on standard error when it is a terminal.
            --remote NAME exports from a remote container instead, through its query: --type is needed (CloudKit Web \
            Services has no schema call to list the types), every zone unless --zone, every page; assets are downloaded \
            and embedded unless --no-assets. --format csv and --user are for a local store only.
            """
    )

    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "A remote container (see `stratus remote`) in place of --store: its records of --type, through its query.")
    var remote: String?
    @Option(help: "The database: public, private or shared.") var db: String = "private"
    @Option(help: "Only this zone (default: every zone).") var zone: String?
    @Option(help: "Only records of this type.") var type: String?
    @Option(help: "The user who exports: an alias, a user record name or 'none' (default: the store's owner); only what they may read leaves.")
    var user: String?
    @Option(help: "Write to this file instead of standard output.") var out: String?
    @Flag(help: "Do not embed asset content; assets are then only checksums and sizes.") var noAssets = false
    @Option(help: "jsonl (one record per line, the default), json (one {\"records\": [...]} document) or csv.")
    var format: ExportFormat = .jsonl

    func run() throws {
        guard let scope = DatabaseScope(name: db) else { throw CommandFailure.usage("--db must be public, private or shared, not '\(db)'") }
        if let remote { return try exportRemote(remote, scope: scope) }
        let opened = try StoreLocation.open(store ?? StoreLocation.defaultPath, ifMissing: .refuse)
        let database = opened.database(scope, caller: try user.map { try opened.caller(named: $0) } ?? .user(opened.owner))
        // A zone of the shared database is named with its owner: the one who shared that name.
        let zoneID = try zone.map { name in
            scope == .shared ? try database.allRecordZones().first { $0.zoneID.zoneName == name }?.zoneID ?? ZoneID(zoneName: name) : ZoneID(zoneName: name)
        }
        let output = try openOutput()
        defer { if out != nil { try? output.close() } }
        let started = Date()
        var bar = ProgressBar(total: try database.exportCount(zone: zoneID, recordType: type), label: "export")
        var shaper = try ExportShaper(format: format, recordTypes: { try database.store.recordTypes() }, recordType: type) {
            try output.write(contentsOf: $0)
        }
        let count = try database.exportRecords(zone: zoneID, recordType: type, embedAssets: !noAssets && format != .csv,
                                               write: { chunk in try shaper.write(chunk) },
                                               progress: { bar.update($0) })
        try shaper.finish()
        bar.finish()
        if out != nil || bar.isVisible {
            Output.warn(ProgressBar.rate("exported", count, since: started))
        }
    }

    /// Standard output, or the `--out` file made empty.
    private func openOutput() throws -> FileHandle {
        guard let out else { return FileHandle.standardOutput }
        guard FileManager.default.createFile(atPath: out, contents: nil), let handle = FileHandle(forWritingAtPath: out) else {
            throw CommandFailure.failed("cannot write \(out)")
        }
        return handle
    }

    /// `--remote`: one type's records through the remote's query (see ``RemoteRecordExporter``).
    private func exportRemote(_ name: String, scope: DatabaseScope) throws {
        if store != nil { throw CommandFailure.usage("give --store or --remote, not both") }
        if user != nil { throw CommandFailure.usage("--user acts as a user of a local store; a remote acts as its signed-in user (`stratus remote login`)") }
        if format == .csv { throw CommandFailure.usage("--format csv works on a local store only (it reads the schema); leave out --remote") }
        guard let type else {
            throw CommandFailure.usage("export --remote needs --type: CloudKit Web Services has no schema call to list a container's record types")
        }
        let service = try RemoteCommand.service(named: name)
        guard let database = service.database(scope) as? RemoteDatabase else {
            throw CommandFailure.failed("remote '\(name)' is not a CloudKit Web Services container")
        }
        let zones = try zone.map { [ZoneID(zoneName: $0)] } ?? RemoteRecordExporter.zones(of: database)
        let output = try openOutput()
        defer { if out != nil { try? output.close() } }
        let started = Date()
        var bar = ProgressBar(total: 0, label: "export")
        var shaper = try ExportShaper(format: format, recordTypes: { [] }, recordType: type) { try output.write(contentsOf: $0) }
        var exporter = RemoteRecordExporter(database: database, service: service, recordType: type, embedAssets: !noAssets)
        let count = try exporter.export(zones: zones, write: { try shaper.write($0) }, progress: { bar.update($0) })
        try shaper.finish()
        bar.finish()
        if out != nil || bar.isVisible {
            Output.warn(ProgressBar.rate("exported", count, since: started))
        }
    }
}

/// `stratus save --import FILE`: records back in with their system fields, in batches.
struct RecordImportRunner {
    let common: CommonOptions
    let file: String

    func run() throws {
        let handle: FileHandle
        var total = 0
        if file == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: file) else { throw CommandFailure.usage("cannot read \(file)") }
            handle = opened
            total = ((try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? Int) ?? 0
        }
        defer { if file != "-" { try? handle.close() } }
        // Made only once the file opened: a mistyped file name leaves no new store behind.
        let database = try common.database(ifMissing: .create)
        var bar = ProgressBar(total: total, label: "import", unit: .bytes)
        let started = Date()
        let source = file == "-" ? "standard input" : file
        let count: Int
        var deleted = 0
        do {
            count = try database.importRecords(lines: handle, zoneID: try common.zoneID(), progress: {
                bar.update($0.bytes, records: $0.records, note: $0.committing ? "writing index rows, committing" : nil)
                deleted = $0.deleted
            })
        } catch let failure as LineImportFailure {
            bar.finish()
            let before = "\(failure.recordsBefore) records imported before it; importing the file again replaces them"
            switch failure.underlying {
            case let error as CloudKitError:
                throw CommandFailure.failed("\(error) (in the batch ending at line \(failure.line) of \(source); \(before))")
            case let error as RecordLinesReader.Failure:
                throw CommandFailure.failed("\(source), \(error) (\(before))")
            case let error:
                throw CommandFailure.failed("\(source), line \(failure.line): \(error) (\(before))")
            }
        }
        bar.finish()
        if common.json {
            Output.json(.object([("imported", .integer(Int64(count))), ("deleted", .integer(Int64(deleted)))]))
        } else {
            Output.line(ProgressBar.rate("imported", count, since: started) + (deleted > 0 ? "; deleted \(deleted)" : ""))
        }
    }
}

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
struct ProgressBar {
    enum Unit { case records, bytes }

    let total: Int
    let label: String
    let unit: Unit
    let isVisible = isatty(STDERR_FILENO) == 1
    private var lastDraw = Date.distantPast
    private let started = Date()

    init(total: Int, label: String, unit: Unit = .records) {
        self.total = total
        self.label = label
        self.unit = unit
    }

    /// `note`: what the work is doing now, drawn at once (a stretch with no progress to show).
    mutating func update(_ done: Int, records: Int? = nil, note: String? = nil) {
        guard isVisible, note != nil || Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = Date()
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let count = unit == .records ? done : (records ?? 0)
        let elapsed = max(Date().timeIntervalSince(started), 0.001)
        let line = "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(format: "%3.0f%%  %d records  %.0f/s ", fraction * 100, count, Double(count) / elapsed)
            + (note.map { " \($0) ...\u{1B}[K" } ?? "")
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard isVisible else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    static func rate(_ verb: String, _ count: Int, since started: Date) -> String {
        let seconds = Date().timeIntervalSince(started)
        return "\(verb) \(count) records" + String(format: " in %.2f s (%.0f records/s)", seconds, seconds > 0 ? Double(count) / seconds : 0)
    }
}
