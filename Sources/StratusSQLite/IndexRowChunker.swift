import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// Turns an ``IndexRowBuffer``'s held rows into chunks of rows ready to bind
/// (``IndexRowChunk``), in key order, on a helper thread, while the writing thread inserts the
/// chunk before: the runs of an ``IndexRowSpill`` merged, or the rows still held sorted.
///
/// The writer inserts an import's held index rows alone, at the import's end, when the reading
/// thread has finished and its core is free: merging the runs and folding the strings' case
/// there took 1.4 s of that stretch's 7 at a million records, and sorting, folding and reading
/// the strings to bind a fifth of it at 100,000.
final class IndexRowChunker: @unchecked Sendable {
    /// Chunks made ahead of the writer: enough to keep it busy, little memory.
    private static let capacity = 4

    private let condition = NSCondition()
    private var ready: [IndexRowChunk] = []
    private var failure: Error?
    private var finished = false
    private var cancelled = false
    /// Where the rows come from, touched by the helper thread only once it starts. It lets go
    /// of them (a sorter stopped first) before it says it has finished, so a spill's file closes
    /// with the writer's last reference and no held rows outlive the insert.
    private var spill: IndexRowSpill?
    private var sorter: HeldRowsSorter?

    /// Starts merging `spill`'s runs.
    convenience init(merging spill: IndexRowSpill) {
        self.init(spill: spill, sorter: nil)
    }

    /// Starts packing the fields `sorter` sorts (rows held in memory), in its order, as it
    /// hands them over.
    convenience init(sorting sorter: HeldRowsSorter) {
        self.init(spill: nil, sorter: sorter)
    }

    private init(spill: IndexRowSpill?, sorter: HeldRowsSorter?) {
        self.spill = spill
        self.sorter = sorter
        let thread = Thread { [self] in
            var failure: Error?
            do {
                if let spill = self.spill.take() { try chunk(spill) }
                if let sorter = self.sorter.take() { try chunk(sorter) }
            } catch {
                failure = error
            }
            finish(failure)
        }
        thread.start()
    }

    /// Inserts every row, field after field, through `numbers` (value, record id) and `strings`
    /// (value, record id, folded key); `startingField` binds a field's zone and field as the
    /// statements' shared columns before its rows.
    func insertAll(numbers: ChunkedInsert, strings: ChunkedInsert, startingField: (IndexRowBuffer.FieldKey) -> Void) throws {
        defer { cancel() }
        var current: IndexRowBuffer.FieldKey?
        while let chunk = try next() {
            if chunk.field != current {
                startingField(chunk.field)
                current = chunk.field
            }
            try chunk.insert(numbers: numbers, strings: strings)
        }
    }

    /// The next chunk in key order, or nil after the last; throws what stopped the merge once
    /// the chunks merged before it are taken.
    private func next() throws -> IndexRowChunk? {
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

    /// Stops the helper at its next chunk (the writer failed, or has taken everything) and
    /// waits until it has let go of the rows, so a spill's file is closed when the insert
    /// returns or throws. On success the helper has finished already.
    private func cancel() {
        condition.lock()
        cancelled = true
        ready.removeAll()
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Merges each field's runs.
    private func chunk(_ spill: IndexRowSpill) throws {
        for (field, runs) in spill.runsByField {
            for (kind, list) in [(IndexRowChunk.Kind.integers, runs.integers), (.reals, runs.reals)] where !list.isEmpty {
                var chunk = IndexRowChunk(field: field, kind: kind, folds: false)
                try RunMerge(list.map { NumberCursor(run: $0, spill: spill, real: kind == .reals) }).forEach { cursor in
                    chunk.append(value: cursor.value, id: cursor.id)
                    return handWhenFull(&chunk)
                }
                guard hand(&chunk) else { return }
            }
            guard !runs.texts.isEmpty else { continue }
            var chunk = IndexRowChunk(field: field, kind: .texts, folds: runs.folds)
            try RunMerge(runs.texts.map { TextCursor(run: $0, spill: spill) }).forEach { cursor in
                cursor.text.withUnsafeBufferPointer { chunk.append(utf8: $0, id: cursor.id) }
                return handWhenFull(&chunk)
            }
            guard hand(&chunk) else { return }
        }
    }

    /// Packs each field's rows as `sorter` hands them over, sorted a field or more ahead on its
    /// own thread: sorted here, between packing one field and the next, the writer waited for
    /// every field's sort (0.3 s of a 100,000-record import's 2.7).
    private func chunk(_ sorter: HeldRowsSorter) throws {
        defer { sorter.cancel() }
        for (index, field) in sorter.keys.enumerated() {
            let rows = sorter.take(index)
            // SQLite orders numbers before text; a field holds one type, so this is key order.
            var chunk = IndexRowChunk(field: field, kind: .integers, folds: false)
            for (value, id) in rows.integers {
                chunk.append(value: UInt64(bitPattern: value), id: id)
                guard handWhenFull(&chunk) else { return }
            }
            guard hand(&chunk) else { return }
            chunk = IndexRowChunk(field: field, kind: .reals, folds: false)
            for (value, id) in rows.reals {
                chunk.append(value: value.bitPattern, id: id)
                guard handWhenFull(&chunk) else { return }
            }
            guard hand(&chunk) else { return }
            chunk = IndexRowChunk(field: field, kind: .texts, folds: rows.folds)
            for position in rows.textOrder {
                rows.texts.withUTF8(at: position) { chunk.append(utf8: $0, id: rows.texts.recordID(at: position)) }
                guard handWhenFull(&chunk) else { return }
            }
            guard hand(&chunk) else { return }
        }
    }

    /// Hands `chunk` over once it holds ``IndexRowChunk/rows`` rows; false once cancelled.
    private func handWhenFull(_ chunk: inout IndexRowChunk) -> Bool {
        chunk.ids.count < IndexRowChunk.rows || hand(&chunk)
    }

    /// Hands a full (or last) chunk over and starts `chunk` anew; false once cancelled.
    private func hand(_ chunk: inout IndexRowChunk) -> Bool {
        let full = chunk
        chunk = IndexRowChunk(field: full.field, kind: full.kind, folds: full.folds)
        guard !full.ids.isEmpty else { return !isCancelled }
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= IndexRowChunker.capacity && !cancelled { condition.wait() }
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
struct IndexRowChunk {
    enum Kind { case integers, reals, texts }

    /// A whole number of ``ChunkedInsert`` statements.
    static let rows = ChunkedInsert.rowsPerChunk * 32

    let field: IndexRowBuffer.FieldKey
    let kind: Kind
    let folds: Bool
    /// Numbers' bit patterns (integers and reals alike).
    private(set) var values: [UInt64] = []
    private(set) var ids: [Int64] = []
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

    mutating func append(value: UInt64, id: Int64) {
        values.append(value)
        ids.append(id)
    }

    mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>, id: Int64) {
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
            // The chunk's bytes stay put until every insert of it has run: bound where they lie.
            try text.withUnsafeBufferPointer { text in
                try folded.withUnsafeBufferPointer { folded in
                    try strings.insert(count: ids.count) { row, statement, first in
                        let own = UnsafeBufferPointer(rebasing: text[(row == 0 ? 0 : textEnds[row - 1])..<textEnds[row]])
                        statement.bind(first, borrowing: own)
                        statement.bind(first + 1, ids[row])
                        if !folds {
                            statement.bindNull(first + 2)
                        } else if foldedStarts[row] < 0 {
                            statement.bind(first + 2, borrowing: own)
                        } else {
                            statement.bind(first + 2, borrowing: UnsafeBufferPointer(rebasing: folded[foldedStarts[row]..<foldedEnds[row]]))
                        }
                    }
                }
            }
        }
    }
}
