import ArgumentParser
import Foundation
import StratusEngine

/// `stratus export`: records out as JSON lines in the CloudKit Web Services shape.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write records as JSON lines in the CloudKit Web Services record shape.",
        discussion: """
            One record per line, with its zone, change tag and created / modified system fields; every live zone
            of the database (--db, default private) and every type unless --zone / --type narrow it. The first
            record that points at an asset carries its content as a data: URL (downloadURL), unless --no-assets.
            `stratus save --import FILE` reads the file back keeping everything, system fields included.
            Streams (memory stays flat); a progress bar is drawn on standard error when it is a terminal.
            """
    )

    @Option(help: "The store file (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "The database: public, private or shared.") var db: String = "private"
    @Option(help: "Only this zone (default: every zone).") var zone: String?
    @Option(help: "Only records of this type.") var type: String?
    @Option(help: "Write to this file instead of standard output.") var out: String?
    @Flag(help: "Do not embed asset content; assets are then only checksums and sizes.") var noAssets = false

    func run() throws {
        guard let scope = DatabaseScope(name: db) else { throw CommandFailure.usage("--db must be public, private or shared, not '\(db)'") }
        let database = try Store(path: store ?? StoreLocation.defaultPath).database(scope)
        let zoneID = zone.map { ZoneID(zoneName: $0) }
        let output: FileHandle
        if let out {
            guard FileManager.default.createFile(atPath: out, contents: nil), let handle = FileHandle(forWritingAtPath: out) else {
                throw CommandFailure.failed("cannot write \(out)")
            }
            output = handle
        } else {
            output = FileHandle.standardOutput
        }
        defer { if out != nil { try? output.close() } }
        let started = Date()
        var bar = ProgressBar(total: try database.exportCount(zone: zoneID, recordType: type), label: "export")
        let count = try database.exportRecords(zone: zoneID, recordType: type, embedAssets: !noAssets,
                                               write: { chunk in try output.write(contentsOf: chunk) },
                                               progress: { bar.update($0) })
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
    static let batchSize = 5000
    static let recordsPerTransaction = 100_000

    func run() throws {
        let database = try common.database()
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
        // Reading and decoding run on their own thread, a couple of batches ahead of the writer.
        let queue = BatchQueue(capacity: 2)
        let zoneID = common.zoneID
        let readHandle = handle
        let producer = Thread {
            var reader = RecordLinesReader(handle: readHandle, zoneID: zoneID)
            while !queue.isCancelled {
                do {
                    // Written batches come back to be freed here, off the writing thread.
                    _ = queue.takeWritten()
                    var batch = try reader.next(RecordImportRunner.batchSize)
                    batch.prepare()
                    queue.put(.batch(batch, bytes: reader.bytesRead, line: reader.lineNumber))
                    if batch.records.isEmpty { return }
                } catch {
                    queue.put(.failure("\(error)"))
                    return
                }
            }
        }
        producer.start()
        defer { queue.cancel() }
        var bar = ProgressBar(total: total, label: "import", unit: .bytes)
        let started = Date()
        let source = file == "-" ? "standard input" : file
        var bytes = 0
        var line = 0
        var count = 0
        var finished = false
        let before = { "\(count) records imported before it; importing the file again replaces them" }
        do {
            // A transaction per `recordsPerTransaction` records: each is all there or not at all,
            // and the write-ahead log stays small (one transaction of a million records spends
            // much of its time searching a log of gigabytes).
            while !finished {
                var inTransaction = 0
                var handed: ImportBatch?
                count += try database.importRecords(batches: {
                    if let written = handed.take() { queue.giveBack(written) }
                    guard inTransaction < RecordImportRunner.recordsPerTransaction else { return nil }
                    switch queue.take() {
                    case .failure(let message):
                        throw CommandFailure.failed("\(source), \(message) (\(before()))")
                    case .batch(let batch, let read, let last):
                        (bytes, line) = (read, last)
                        if batch.records.isEmpty { finished = true; return nil }
                        inTransaction += batch.records.count
                        handed = batch
                        return batch
                    }
                }, progress: { bar.update(bytes, records: count + $0) })
            }
        } catch let error as CloudKitError {
            bar.finish()
            throw CommandFailure.failed("\(error.code.name) (\(error.code.rawValue)): \(error.message) (in the batch ending at line \(line) of \(source); \(before()))")
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        if common.json {
            Output.json(.object([("imported", .integer(Int64(count)))]))
        } else {
            Output.line(ProgressBar.rate("imported", count, since: started))
        }
    }
}

/// A bounded hand-over of record batches from the reading thread to the writing one.
final class BatchQueue: @unchecked Sendable {
    enum Item {
        case batch(ImportBatch, bytes: Int, line: Int)
        case failure(String)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var written: [ImportBatch] = []
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    func put(_ item: Item) {
        condition.lock()
        while items.count >= capacity && !cancelled { condition.wait() }
        if !cancelled { items.append(item) }
        condition.broadcast()
        condition.unlock()
    }

    func take() -> Item {
        condition.lock()
        while items.isEmpty { condition.wait() }
        let item = items.removeFirst()
        condition.broadcast()
        condition.unlock()
        return item
    }

    /// Hands a written batch back to the reading thread, which frees it: freeing thousands of
    /// records took a sixth of the writer's time, and memory goes back to the arena it came from.
    func giveBack(_ batch: ImportBatch) {
        condition.lock()
        written.append(batch)
        condition.unlock()
    }

    /// The batches given back since the last call.
    func takeWritten() -> [ImportBatch] {
        condition.lock()
        defer { written.removeAll(); condition.unlock() }
        return written
    }

    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
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

    mutating func update(_ done: Int, records: Int? = nil) {
        guard isVisible, Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = Date()
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let count = unit == .records ? done : (records ?? 0)
        let elapsed = max(Date().timeIntervalSince(started), 0.001)
        let line = "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(format: "%3.0f%%  %d records  %.0f/s ", fraction * 100, count, Double(count) / elapsed)
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
