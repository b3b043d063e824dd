import Foundation
import StratusModel

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
    /// Bytes consumed so far (for progress).
    public private(set) var bytesRead = 0
    /// The number of the last line read.
    public private(set) var lineNumber = 0

    /// - Parameter zoneID: the zone of records whose line names none.
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
            let json: JSONValue
            do {
                json = try JSONParser.parse(utf8: line)
            } catch {
                throw Failure(line: lineNumber, message: "malformed JSON at column \(error.column): \(error.message)")
            }
            let objects: [JSONValue]
            if case .array(let items) = json { objects = items } else { objects = [json] }
            for object in objects {
                try storeEmbeddedAssets(object)
                do {
                    pending.append(try RecordJSON.decode(object, zoneID: zoneID))
                } catch {
                    throw Failure(line: lineNumber, message: error.description)
                }
            }
            pending.reverse()
        }
        return pending.popLast()
    }

    /// Up to `count` records (fewer only at the end; none at the end) and the asset content
    /// they embed.
    public mutating func next(_ count: Int) throws -> ImportBatch {
        var records: [Record] = []
        records.reserveCapacity(count)
        while records.count < count, let record = try next() { records.append(record) }
        return ImportBatch(records: records, assets: takeAssets())
    }

    /// The embedded asset content read since the last call (each checksum once per reader).
    public mutating func takeAssets() -> [Data] {
        defer { assets.removeAll() }
        return assets
    }

    private mutating func nextLine() throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
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
            let chunk = try handle.read(upToCount: 4 << 20) ?? Data()
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
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
