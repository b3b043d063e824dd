import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// Held `field_value` rows that an ``IndexRowBuffer`` had to let go of before its transaction
/// ends, kept as sorted runs in a temporary file and merged into the table, in key order, when
/// the buffer flushes.
///
/// Inserting each full buffer at once merged its rows into a B-tree that the earlier ones had
/// filled, touching most of its pages every time: at a million records those merges were a third
/// of the import's writing thread, and writing their pages at each commit a quarter more. Merged
/// once, the rows go in as SQLite's own `INSERT ... SELECT` of sorted rows puts them, page after
/// page, and memory stays bounded by the buffer's limit. The file is unlinked as soon as it is
/// made: nothing is left behind, whatever becomes of the process.
final class IndexRowSpill {
    /// One sorted run: rows of one kind of one field.
    struct Run {
        var offset: Int
        var bytes: Int
        var count: Int
    }

    /// A field's runs by kind of value; SQLite orders numbers before text.
    struct FieldRuns {
        var integers: [Run] = []
        var reals: [Run] = []
        var texts: [Run] = []
        var folds = false
    }

    private let descriptor: Int32
    private var end = 0
    private var fields: [IndexRowBuffer.FieldKey: FieldRuns] = [:]

    /// - Parameter folder: where the file is made: the store's own folder, where the store and
    ///   its write-ahead log already grow (a temporary folder may be small, or held in memory);
    ///   nil for the system's temporary folder (a store in memory).
    init(in folder: String?) throws {
        let directory = folder ?? NSTemporaryDirectory()
        var template = Array((directory + "/.stratus-index-rows-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw IndexRowSpill.failure("cannot make a temporary file for its index rows in \(directory)") }
        // Not handed down to a process this one starts.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        // Unlinked at once: the space goes back when the descriptor closes, however the process ends.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The fields that have runs, in key order.
    var fieldKeys: [IndexRowBuffer.FieldKey] { fields.keys.sorted() }

    /// Writes one field's rows, sorted by ``HeldFieldRows/sort()``, as that field's next runs.
    func write(_ rows: HeldFieldRows, of field: IndexRowBuffer.FieldKey) throws {
        var runs = fields[field] ?? FieldRuns()
        runs.folds = rows.folds
        var writer = ByteWriter()
        func run(_ count: Int) throws -> Run {
            defer { writer.bytes.removeAll(keepingCapacity: true) }
            return try append(writer.bytes, count: count)
        }
        if !rows.integers.isEmpty {
            writer.bytes.reserveCapacity(rows.integers.count * 16)
            for (value, id) in rows.integers { writer.fixed64(UInt64(bitPattern: value)); writer.fixed64(UInt64(bitPattern: id)) }
            runs.integers.append(try run(rows.integers.count))
        }
        if !rows.reals.isEmpty {
            for (value, id) in rows.reals { writer.fixed64(value.bitPattern); writer.fixed64(UInt64(bitPattern: id)) }
            runs.reals.append(try run(rows.reals.count))
        }
        if !rows.textOrder.isEmpty {
            for index in rows.textOrder {
                rows.texts.withUTF8(at: index) { writer.string(utf8: $0) }
                writer.fixed64(UInt64(bitPattern: rows.texts.recordID(at: index)))
            }
            runs.texts.append(try run(rows.textOrder.count))
        }
        fields[field] = runs
    }

    /// Every field's runs, the fields in key order (what ``IndexRowChunker`` merges).
    var runsByField: [(IndexRowBuffer.FieldKey, FieldRuns)] { fieldKeys.map { ($0, fields[$0]!) } }

    private func append(_ bytes: [UInt8], count: Int) throws -> Run {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(end + written)) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw IndexRowSpill.failure("cannot write its index rows to a temporary file") }
            written += result
        }
        defer { end += bytes.count }
        return Run(offset: end, bytes: bytes.count, count: count)
    }

    /// The `count` bytes at `offset`.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw result == 0 ? IndexRowSpill.damaged("ended early") : IndexRowSpill.failure("cannot read its index rows back from their temporary file") }
            done += result
        }
        return buffer
    }

    /// An I/O failure, with the system's reason (a full disk, say).
    private static func failure(_ message: String) -> CloudKitError {
        let reason = String(cString: strerror(errno))
        return CloudKitError(.internalError, "The write \(message) (\(reason)); it was rolled back.")
    }

    static func damaged(_ what: String) -> CloudKitError {
        CloudKitError(.internalError, "The temporary file of index rows \(what); the write was rolled back.")
    }
}

/// A run's bytes, read back a slice at a time: a merge of many runs holds little of each.
struct RunReader {
    static let sliceBytes = 1 << 16

    let spill: IndexRowSpill
    private var next: Int
    private let end: Int
    private var slice: [UInt8] = []
    private var position = 0

    init(_ run: IndexRowSpill.Run, spill: IndexRowSpill) {
        self.spill = spill
        next = run.offset
        end = run.offset + run.bytes
    }

    var isAtEnd: Bool { position == slice.count && next == end }

    mutating func fixed64() throws -> UInt64 {
        try need(8)
        let value = slice.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: UInt64.self) }
        position += 8
        return UInt64(littleEndian: value)
    }

    /// A length-prefixed string's bytes (as ``ByteWriter/string(_:)`` writes them) into `text`.
    mutating func string(into text: inout [UInt8]) throws {
        var length = 0
        var shift = 0
        while true {
            try need(1)
            let byte = slice[position]
            position += 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
            guard shift < 35 else { throw IndexRowSpill.damaged("is damaged") }
        }
        guard length >= 0, length <= end - next + slice.count - position else { throw IndexRowSpill.damaged("is damaged") }
        try need(length)
        text.removeAll(keepingCapacity: true)
        text.append(contentsOf: slice[position..<position + length])
        position += length
    }

    /// Makes `count` unread bytes available at `position`.
    private mutating func need(_ count: Int) throws {
        guard slice.count - position < count else { return }
        guard next < end else { throw IndexRowSpill.damaged("ended early") }
        let size = min(max(RunReader.sliceBytes, count), end - next)
        slice = Array(slice[position...]) + (try spill.read(at: next, count: size))
        next += size
        position = 0
        guard slice.count >= count else { throw IndexRowSpill.damaged("ended early") }
    }
}

/// A run in key order; after ``advance()`` returned true, the cursor holds the row it read.
protocol RunCursor {
    var count: Int { get }
    mutating func advance() throws -> Bool
    /// Whether this cursor's row comes before `other`'s in the table's key order.
    func precedes(_ other: Self) -> Bool
}

struct NumberCursor: RunCursor {
    private var reader: RunReader
    private let real: Bool
    let count: Int
    private(set) var value: UInt64 = 0
    private(set) var id: Int64 = 0

    init(run: IndexRowSpill.Run, spill: IndexRowSpill, real: Bool) {
        reader = RunReader(run, spill: spill)
        self.real = real
        count = run.count
    }

    mutating func advance() throws -> Bool {
        guard !reader.isAtEnd else { return false }
        value = try reader.fixed64()
        id = Int64(bitPattern: try reader.fixed64())
        return true
    }

    func precedes(_ other: NumberCursor) -> Bool {
        if real {
            // By value: 0.0 and -0.0 are one key, as SQLite and the in-memory sort take them.
            let (a, b) = (Double(bitPattern: value), Double(bitPattern: other.value))
            return a == b ? id < other.id : a < b
        }
        return value == other.value ? id < other.id : Int64(bitPattern: value) < Int64(bitPattern: other.value)
    }
}

struct TextCursor: RunCursor {
    private var reader: RunReader
    let count: Int
    private(set) var text: [UInt8] = []
    private(set) var id: Int64 = 0

    init(run: IndexRowSpill.Run, spill: IndexRowSpill) {
        reader = RunReader(run, spill: spill)
        count = run.count
    }

    mutating func advance() throws -> Bool {
        guard !reader.isAtEnd else { return false }
        try reader.string(into: &text)
        id = Int64(bitPattern: try reader.fixed64())
        return true
    }

    /// SQLite's BINARY order (``UTF8Order``), then the record.
    func precedes(_ other: TextCursor) -> Bool {
        let order = text.withUnsafeBytes { a in
            other.text.withUnsafeBytes { b in
                let common = min(a.count, b.count)
                let bytes = common == 0 ? 0 : Int(memcmp(a.baseAddress!, b.baseAddress!, common))
                return bytes != 0 ? bytes : a.count - b.count
            }
        }
        return order != 0 ? order < 0 : id < other.id
    }
}

/// Runs merged into one key order through a binary heap of their cursors.
final class RunMerge<Cursor: RunCursor> {
    private var cursors: [Cursor] = []
    private var heap: [Int] = []
    private let total: Int

    init(_ runs: [Cursor]) throws {
        total = runs.reduce(0) { $0 + $1.count }
        for var cursor in runs {
            if try cursor.advance() { cursors.append(cursor) }
        }
        heap = Array(cursors.indices)
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    /// Hands every row to `body` in order (the cursor that holds it), until `body` returns false.
    func forEach(_ body: (Cursor) -> Bool) throws {
        var handed = 0
        while let top = heap.first {
            guard handed < total else { throw IndexRowSpill.damaged("holds more rows than it was given") }
            guard body(cursors[top]) else { return }
            handed += 1
            try pop()
        }
        guard handed == total else { throw IndexRowSpill.damaged("holds fewer rows than it was given") }
    }

    /// Moves past the smallest row.
    private func pop() throws {
        let top = heap[0]
        if try !cursors[top].advance() {
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
            guard !heap.isEmpty else { return }
        }
        siftDown(0)
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var child = left
            if left + 1 < heap.count, cursors[heap[left + 1]].precedes(cursors[heap[left]]) { child = left + 1 }
            guard cursors[heap[child]].precedes(cursors[heap[parent]]) else { return }
            heap.swapAt(parent, child)
            parent = child
        }
    }
}
