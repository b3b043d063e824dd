import Foundation
import StratusModel
import StratusCloud
import StratusCKWS

/// Reads records from JSON lines (what `exportRecords` writes) a chunk at a time, so a file
/// of any size streams through in constant memory. A line may also hold an array of records.
///
/// Asset values that carry their content as a `data:` URL in `downloadURL` (as exports embed
/// it) have the content checked against the asset's checksum and handed over with the batch
/// (``ImportBatch/assets``), so the import writes it in its own transaction.
public struct RecordLinesReader {
    /// A line that is not a record.
    public struct Failure: Error, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    private let handle: FileHandle
    private let zoneID: ZoneID
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var pending: [Record] = []
    private var assets: [Data] = []
    private var assetChecksums: Set<String> = []
    /// Records the input deletes, in order; a record saved again later in the input leaves it.
    private var deletions: [RecordID] = []
    /// Entries that hold no record (a lookup's per-record errors), skipped.
    public private(set) var skippedEntries = 0
    /// Whether any line held something: a first line that is not JSON on its own may start a
    /// pretty-printed document.
    private var sawContent = false
    /// Bytes consumed so far (for progress).
    public private(set) var bytesRead = 0
    /// The number of the last line read.
    public private(set) var lineNumber = 0

    /// - Parameters:
    ///   - handle: the input, read to its end a chunk at a time.
    ///   - zoneID: the zone of records whose line names none.
    public init(handle: FileHandle, zoneID: ZoneID = .default) {
        self.handle = handle
        self.zoneID = zoneID
    }

    /// The next record, or nil at the end of the input. Asset content embedded in it is kept
    /// for ``takeAssets()`` (``next(_:)`` hands it over with the batch).
    public mutating func next() throws -> Record? {
        while pending.isEmpty {
            guard let line = try nextLine() else { return nil }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            // Most lines are one record as an export writes it, with no asset content: read
            // straight into the record. Anything else goes through the tree below.
            if !RecordLinesReader.mayEmbedAssets(line),
               let record = line.withUnsafeBufferPointer({ RecordJSON.decodeRestored(utf8: $0, zoneID: zoneID) }) {
                sawContent = true
                if !deletions.isEmpty { deletions.removeAll { $0 == record.recordID } }
                return record
            }
            var documents: [JSONValue]
            var mayEmbedAssets = true
            do {
                documents = [try JSONParser.parse(utf8: line)]
                mayEmbedAssets = RecordLinesReader.mayEmbedAssets(line)
            } catch {
                // A document spread over lines (a CKWS response as captured, pretty-printed):
                // read it whole.
                guard !sawContent, let first = line.first(where: { $0 != 0x20 && $0 != 0x09 }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
                    throw Failure(line: lineNumber, message: "malformed JSON at column \(error.column): \(error.message)")
                }
                documents = try wholeDocument(startingWith: line)
            }
            sawContent = true
            for document in documents {
                let objects: [JSONValue]
                if case .array(let items) = document { objects = items } else { objects = [document] }
                for object in objects {
                    if mayEmbedAssets, !RecordDocument.isWrapper(object) { try storeEmbeddedAssets(object) }
                    var entries: [RecordDocument.Entry]
                    do {
                        entries = try RecordDocument.entries(in: object, zoneID: zoneID, restoring: true)
                    } catch {
                        throw Failure(line: lineNumber, message: error.description)
                    }
                    // Taken out of the array in order (moved, not copied: a record holds a
                    // dozen references).
                    entries.reverse()
                    while let entry = entries.popLast() {
                        switch entry {
                        case .save(let record):
                            if !deletions.isEmpty { deletions.removeAll { $0 == record.recordID } }
                            pending.append(record)
                        case .delete(let recordID, _):
                            pending.removeAll { $0.recordID == recordID }
                            deletions.append(recordID)
                        case .skipped:
                            skippedEntries += 1
                        }
                    }
                }
            }
            pending.reverse()
        }
        return pending.popLast()
    }

    /// The rest of the input, from `line` on, as JSON values (one or several, as `save`
    /// reads a file); line numbers then count to the end of the input.
    private mutating func wholeDocument(startingWith line: ArraySlice<UInt8>) throws -> [JSONValue] {
        var bytes = Array(line)
        bytes.append(0x0A)
        while let next = try nextLine() {
            bytes.append(contentsOf: next)
            bytes.append(0x0A)
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else { throw Failure(line: lineNumber, message: "the input is not UTF-8 text") }
        do {
            return try JSONParser.parseSequence(text)
        } catch {
            throw Failure(line: lineNumber, message: "malformed JSON: \(error)")
        }
    }

    /// Up to `count` records (fewer only at the end; none at the end) and the asset content
    /// they embed.
    public mutating func next(_ count: Int) throws -> ImportBatch {
        var records: [Record] = []
        records.reserveCapacity(count)
        while records.count < count, let record = try next() { records.append(record) }
        // The end of the input: the deletions go with the last, empty batch.
        let deleting = records.isEmpty ? deletions : []
        return ImportBatch(records: records, assets: takeAssets(), deletions: deleting)
    }

    /// The embedded asset content read since the last call (each checksum once per reader).
    public mutating func takeAssets() -> [Data] {
        defer { assets.removeAll() }
        return assets
    }

    private mutating func nextLine() throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = nextNewline() {
                let line = buffer[start..<newline]
                bytesRead += newline + 1 - start
                start = newline + 1
                lineNumber += 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                bytesRead += buffer.count - start
                start = buffer.count
                lineNumber += 1
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            if try readChunk() == 0 { atEnd = true }
        }
    }

    /// The bytes read from the input at a time.
    private static let chunkSize = 4 << 20

    /// Reads up to ``chunkSize`` bytes onto the end of the buffer, straight into memory it has
    /// held since the first chunk; the count read, 0 at the end of the input.
    ///
    /// `FileHandle.read(upToCount:)` hands back each chunk in new memory, which the kernel
    /// must find and clear before copying into it, and which was then copied again onto the
    /// buffer: a third of the reading thread's time in an import, for a copy that takes a
    /// hundredth of it.
    private mutating func readChunk() throws -> Int {
        let kept = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        let descriptor = handle.fileDescriptor
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { bytes in
                read(descriptor, bytes.baseAddress! + kept, Self.chunkSize)
            }
        } while count < 0 && errno == EINTR
        let failure = errno
        buffer.removeLast(Self.chunkSize - max(count, 0))
        guard count >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        return count
    }

    /// The index of the first line feed from `start` on: `memchr`, which reads many bytes at a
    /// time, where a byte-by-byte search took a twentieth of the reading thread.
    private func nextNewline() -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            guard start < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + start, 0x0A, bytes.count - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Whether a line may carry asset content: an embedded asset's `downloadURL` is a `data:`
    /// URL, so a line without those bytes (and without an escape that could spell them) has
    /// none, and its fields need not be looked through one by one.
    private static let dataScheme = Array("data:".utf8)

    static func mayEmbedAssets(_ line: ArraySlice<UInt8>) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            if memchr(base, Int32(UInt8(ascii: "\\")), bytes.count) != nil { return true }
            return dataScheme.withUnsafeBufferPointer { scheme in
                var from = 0
                while bytes.count - from >= scheme.count,
                      let found = memchr(base + from, Int32(scheme[0]), bytes.count - from - scheme.count + 1) {
                    let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + at, scheme.baseAddress!, scheme.count) == 0 { return true }
                    from = at + 1
                }
                return false
            }
        }
    }

    private mutating func storeEmbeddedAssets(_ record: JSONValue) throws {
        guard case .object(let fields)? = record["fields"] else { return }
        for (name, field) in fields {
            guard let type = field["type"]?.stringValue, type == "ASSET" || type == "ASSET_LIST", let value = field["value"] else { continue }
            let items: [JSONValue]
            if case .array(let list) = value { items = list } else { items = [value] }
            for item in items {
                guard let url = item["downloadURL"]?.stringValue, url.hasPrefix("data:"),
                      let comma = url.firstIndex(of: ","), let checksum = item["fileChecksum"]?.stringValue else { continue }
                guard url[..<comma].hasSuffix(";base64"), let data = Data(base64Encoded: String(url[url.index(after: comma)...])) else {
                    throw Failure(line: lineNumber, message: "fields.\(name): the asset's downloadURL is not a base64 data: URL")
                }
                guard !assetChecksums.contains(checksum) else { continue }
                guard SHA256.hexDigest(data) == checksum else {
                    throw Failure(line: lineNumber, message: "fields.\(name): the asset's content does not match its fileChecksum \(checksum)")
                }
                assetChecksums.insert(checksum)
                assets.append(data)
            }
        }
    }
}
