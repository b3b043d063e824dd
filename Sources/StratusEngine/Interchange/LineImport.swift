import Foundation
import StratusCloud

extension CloudDatabase {
    /// Restores records from JSON lines (what `exportRecords` writes), as `stratus save --import`
    /// does: one thread reads and decodes batches, up to eight ahead, so it keeps going while a
    /// transaction's end writes its held index rows and commits (a second or more), and this
    /// one writes them with ``importRecords(batches:progress:)``, a transaction per
    /// `recordsPerTransaction` records. Preparing a batch (``ImportBatch/prepare()``) falls to
    /// whichever thread would otherwise wait.
    /// Each transaction is all there or not at all. A million records go in one: its index rows
    /// are merged into their tables once, at its end (the SQLite backend spills them to files), where transactions of a
    /// hundred thousand merged them ten times (31 s against 41 s at a million). Larger inputs
    /// commit every million records. The write-ahead log grows to about the store's size
    /// meanwhile, unless the store held no records: then the pages go straight into the file
    /// (``LineImportProgress/inPlace``), half the bytes written.
    ///
    /// - Parameters:
    ///   - handle: the JSON lines to read, to their end.
    ///   - zoneID: the zone of records whose line names none.
    ///   - recordsPerTransaction: records committed together (each transaction all or nothing).
    ///   - batchSize: records read and handed over at a time. A thousand, not five: the writer
    ///     waits for the first batch, and a smaller one fits the CPU's caches while the other
    ///     thread works on it (100k records: 1.70-1.78 s against 1.86 s; 1M: 17.2 s against
    ///     18.3 s, and a 222 MiB peak against 311).
    ///   - progress: called after each batch with the records written so far.
    /// - Returns: how many records were written.
    /// - Throws: ``LineImportFailure``, saying where the input went wrong and how many records
    ///   the transactions before it wrote.
    @discardableResult
    public func importRecords(
        lines handle: FileHandle, zoneID: ZoneID = .default, recordsPerTransaction: Int = 1_000_000, batchSize: Int = 1000,
        progress: (LineImportProgress) -> Void = { _ in }
    ) throws -> Int {
        precondition(recordsPerTransaction > 0 && batchSize > 0, "transactions and batches hold at least one record")
        let queue = ImportBatchQueue(capacity: 8)
        // The writer says which zone and type row ids it met; the reading thread then makes
        // those records' full-text rows, work the writer (which sets the pace) no longer does.
        let scopes = ImportScopes()
        // The reading thread reads its own duplicate of the descriptor: after a failure this
        // call returns (and the caller may close `handle`) while that thread finishes a read.
        let own = FileHandle(fileDescriptor: dup(handle.fileDescriptor), closeOnDealloc: true)
        let producer = Thread {
            var reader = RecordLinesReader(handle: own, zoneID: zoneID)
            while !queue.isCancelled {
                do {
                    // Written batches come back to be freed here, off the writing thread.
                    _ = queue.takeWritten()
                    var batch = try reader.next(batchSize)
                    // Prepared here while the writer has batches waiting; handed over as read
                    // when it has none, so it prepares them itself instead of idling. The two
                    // threads share the preparing as their loads go (JSON heavy or index heavy).
                    if queue.hasWaiting { batch.prepare(scopes: scopes) }
                    queue.put(.batch(batch, LineImportProgress(bytes: reader.bytesRead, line: reader.lineNumber, records: 0)))
                    if batch.records.isEmpty { break }
                } catch {
                    queue.put(.failure(error, line: reader.lineNumber))
                    break
                }
            }
            // The batches the writer has yet to give back are freed here too, as it goes.
            queue.freeWrittenUntilCancelled()
        }
        producer.start()
        defer { queue.cancel() }
        var position = LineImportProgress(bytes: 0, line: 0, records: 0)
        var finished = false
        var deletions: [RecordID] = []
        do {
            // A new store's pages go straight into its file: see Store.writingInPlaceWhenEmpty.
            try store.writingInPlaceWhenEmpty { inPlace in
                position.inPlace = inPlace
                while !finished {
                    var inTransaction = 0
                    /// The transaction's records are all handed over: what is left is writing its
                    /// index rows and committing (seconds at a million records), said as such.
                    func ending() -> ImportBatch? {
                        var now = position
                        now.records += inTransaction
                        now.committing = true
                        progress(now)
                        return nil
                    }
                    position.records += try importRecords(batches: {
                        guard inTransaction < recordsPerTransaction else { return ending() }
                        switch queue.take() {
                        case .failure(let error, let line):
                            position.line = line
                            throw error
                        case .batch(let batch, let read):
                            (position.bytes, position.line) = (read.bytes, read.line)
                            if batch.records.isEmpty {
                                finished = true
                                deletions = batch.deletions
                                return ending()
                            }
                            inTransaction += batch.records.count
                            return batch
                        }
                    }, progress: { written in
                        var now = position
                        now.records += written
                        progress(now)
                    }, indexRowLimit: RecordImporter.indexRowLimit, scopes: scopes, written: queue.giveBack)
                }
                // Deletions go through the one delete path (tombstones, cascades), 400 at a time; a
                // record already absent counts as deleted, as a replayed change feed expects.
                var start = 0
                while start < deletions.count {
                    let batch = Array(deletions[start..<min(start + CloudDatabase.maximumBatchSize, deletions.count)])
                    let result = try modifyRecords(deleting: batch, atomically: false)
                    for item in result.deleteResults {
                        if case .failure(let error) = item.result, error.code != .unknownItem { throw error }
                    }
                    start += batch.count
                    position.deleted = start
                    progress(position)
                }
            }
        } catch {
            throw LineImportFailure(underlying: error, line: position.line, recordsBefore: position.records)
        }
        return position.records
    }
}

/// How far a ``CloudDatabase/importRecords(lines:zoneID:recordsPerTransaction:batchSize:progress:)`` got.
public struct LineImportProgress: Sendable {
    /// Bytes of input read.
    public var bytes: Int
    /// The last line read (for a failure: the line of the bad record, or the last line of the batch it was in).
    public var line: Int
    /// Records written.
    public var records: Int
    /// Records deleted (entries with `"deleted": true` and delete operations), after the writes.
    public var deleted: Int = 0
    /// The transaction's records are written; its index rows are being written and it commits.
    public var committing = false
    /// The records go straight into the store's file, under a rollback journal, not through the
    /// write-ahead log: the store held no records, and no other connection had it open.
    public var inPlace = false
}

/// Why a line import stopped, and where.
public struct LineImportFailure: Error, CustomStringConvertible {
    /// A ``RecordLinesReader/Failure`` (a line that is not a record), a `CloudKitError` (a
    /// record the store refuses) or an I/O error.
    public var underlying: Error
    public var line: Int
    /// Records the transactions before the failing one wrote; they stay.
    public var recordsBefore: Int
    public var description: String { "line \(line): \(underlying)" }
}

/// A bounded hand-over of prepared batches from the reading thread to the writing one, and of
/// written batches back to be freed where they were made.
final class ImportBatchQueue: @unchecked Sendable {
    enum Item {
        case batch(ImportBatch, LineImportProgress)
        case failure(Error, line: Int)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var written: [ImportBatch] = []
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Whether a batch is waiting for the writer.
    var hasWaiting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !items.isEmpty
    }

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
        condition.broadcast()
        condition.unlock()
    }

    /// Frees the batches given back until the queue is cancelled (the writer is done), for the
    /// reading thread once it has read everything: the writer's last batches would otherwise be
    /// freed by the writer, after its commit, while the caller waits.
    func freeWrittenUntilCancelled() {
        while true {
            condition.lock()
            while written.isEmpty && !cancelled { condition.wait() }
            let batches = written, done = cancelled
            written.removeAll()
            condition.unlock()
            // Freed here, outside the lock.
            _ = consume batches
            if done { return }
        }
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
