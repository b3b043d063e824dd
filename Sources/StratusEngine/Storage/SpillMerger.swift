import Foundation
import StratusModel

/// Merges an ``IndexRowSpill``'s sorted runs on a helper thread, field after field, into chunks
/// of rows ready to bind (``SpillChunk``), while the writing thread inserts the chunk before.
///
/// The writer inserts a large import's held index rows alone, at the import's end, when the
/// reading thread has finished and its core is free: merging the runs and folding the strings'
/// case there took 1.4 s of that stretch's 7 at a million records.
final class SpillMerger: @unchecked Sendable {
    /// Chunks merged ahead of the writer: enough to keep it busy, little memory.
    private static let capacity = 4

    private let condition = NSCondition()
    private var ready: [SpillChunk] = []
    private var failure: Error?
    private var finished = false
    private var cancelled = false
    /// Touched by the helper thread only, once it starts; let go of before it says it has
    /// finished, so the file closes with the writer's last reference, not some time after.
    private var spill: IndexRowSpill?
    private let fields: [(IndexRowBuffer.FieldKey, IndexRowSpill.FieldRuns)]

    /// Starts merging `fields`' runs, in the order given (key order).
    init(merging fields: [(IndexRowBuffer.FieldKey, IndexRowSpill.FieldRuns)], of spill: IndexRowSpill) {
        self.spill = spill
        self.fields = fields
        let thread = Thread { [self] in
            var failure: Error?
            do {
                try mergeAll(self.spill)
            } catch {
                failure = error
            }
            self.spill = nil
            finish(failure)
        }
        thread.start()
    }

    /// The next chunk in key order, or nil after the last; throws what stopped the merge once
    /// the chunks merged before it are taken.
    func next() throws -> SpillChunk? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        guard ready.isEmpty else {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the helper at its next chunk (the writer failed, or has taken everything).
    func cancel() {
        condition.lock()
        cancelled = true
        ready.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func mergeAll(_ spill: IndexRowSpill?) throws {
        guard let spill else { return }
        for (field, runs) in fields {
            for (kind, list) in [(SpillChunk.Kind.integers, runs.integers), (.reals, runs.reals)] where !list.isEmpty {
                var chunk = SpillChunk(field: field, kind: kind, folds: false)
                let merge = try RunMerge(list.map { NumberCursor(run: $0, spill: spill, real: kind == .reals) })
                try merge.forEach { cursor in
                    chunk.values.append(cursor.value)
                    chunk.ids.append(cursor.id)
                    return chunk.ids.count < SpillChunk.rows || hand(&chunk)
                }
                guard hand(&chunk) else { return }
            }
            guard !runs.texts.isEmpty else { continue }
            var chunk = SpillChunk(field: field, kind: .texts, folds: runs.folds)
            let merge = try RunMerge(runs.texts.map { TextCursor(run: $0, spill: spill) })
            try merge.forEach { cursor in
                chunk.append(text: cursor.text, id: cursor.id)
                return chunk.ids.count < SpillChunk.rows || hand(&chunk)
            }
            guard hand(&chunk) else { return }
        }
    }

    /// Hands a full (or last) chunk over and starts `chunk` anew; false once cancelled.
    private func hand(_ chunk: inout SpillChunk) -> Bool {
        let full = chunk
        chunk = SpillChunk(field: full.field, kind: full.kind, folds: full.folds)
        guard !full.ids.isEmpty else { return !isCancelled }
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= SpillMerger.capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        ready.append(full)
        condition.broadcast()
        return true
    }

    private var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    private func finish(_ error: Error?) {
        condition.lock()
        failure = error
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Up to ``rows`` merged rows of one kind of one field, in key order, held as the statements
/// bind them: numbers as bit patterns, strings as one buffer of UTF-8 with each row's end, and a
/// folding field's keys made already.
struct SpillChunk {
    enum Kind { case integers, reals, texts }

    /// A whole number of ``ChunkedInsert`` statements.
    static let rows = ChunkedInsert.rowsPerChunk * 32

    let field: IndexRowBuffer.FieldKey
    let kind: Kind
    let folds: Bool
    /// Numbers' bit patterns (integers and reals alike).
    var values: [UInt64] = []
    var ids: [Int64] = []
    private var text: [UInt8] = []
    private var textEnds: [Int] = []
    /// A folding field's keys: each row's range in `folded`, or a start of -1 where the text
    /// is its own key (``CaseFolding/isOwnKey(utf8:)``).
    private var folded: [UInt8] = []
    private var foldedStarts: [Int] = []
    private var foldedEnds: [Int] = []

    init(field: IndexRowBuffer.FieldKey, kind: Kind, folds: Bool) {
        self.field = field
        self.kind = kind
        self.folds = folds
    }

    mutating func append(text bytes: [UInt8], id: Int64) {
        text.append(contentsOf: bytes)
        textEnds.append(text.count)
        ids.append(id)
        guard folds else { return }
        if CaseFolding.isOwnKey(utf8: bytes) {
            foldedStarts.append(-1)
            foldedEnds.append(-1)
        } else {
            foldedStarts.append(folded.count)
            folded.append(contentsOf: CaseFolding.key(String(decoding: bytes, as: UTF8.self)).utf8)
            foldedEnds.append(folded.count)
        }
    }

    /// Inserts the rows through `numbers` (value, record id) or `strings` (value, record id,
    /// folded key), whose shared zone and field are bound.
    func insert(numbers: ChunkedInsert, strings: ChunkedInsert) throws {
        switch kind {
        case .integers:
            try numbers.insert(count: ids.count) { row, statement, first in
                statement.bind(first, Int64(bitPattern: values[row]))
                statement.bind(first + 1, ids[row])
            }
        case .reals:
            try numbers.insert(count: ids.count) { row, statement, first in
                statement.bind(first, Double(bitPattern: values[row]))
                statement.bind(first + 1, ids[row])
            }
        case .texts:
            try text.withUnsafeBufferPointer { text in
                try folded.withUnsafeBufferPointer { folded in
                    try strings.insert(count: ids.count) { row, statement, first in
                        let own = UnsafeBufferPointer(rebasing: text[(row == 0 ? 0 : textEnds[row - 1])..<textEnds[row]])
                        statement.bind(first, utf8: own)
                        statement.bind(first + 1, ids[row])
                        if !folds {
                            statement.bindNull(first + 2)
                        } else if foldedStarts[row] < 0 {
                            statement.bind(first + 2, utf8: own)
                        } else {
                            statement.bind(first + 2, utf8: UnsafeBufferPointer(rebasing: folded[foldedStarts[row]..<foldedEnds[row]]))
                        }
                    }
                }
            }
        }
    }
}
