import Foundation
import StratusCloud
import StratusModel

/// Carries asset content inside exported record JSON, as `stratus export` does: the first time
/// an asset appears, its value gains a `downloadURL` holding the bytes as a `data:` URL. A file
/// written this way reads back into any store (`stratus save --import`) with its assets, where
/// a bare `fileChecksum` names bytes only the exporting store holds.
public struct AssetEmbedder {
    /// The asset's bytes by checksum (nil when the store no longer holds them).
    public typealias Reader = (String) throws -> Data?

    private let read: Reader
    private var written: Set<String> = []

    public init(read: @escaping Reader) { self.read = read }

    /// The record as exports write it (``RecordWriter``, the store's own names), with each
    /// asset's first appearance carrying its content.
    public mutating func write(_ record: Record, into out: inout JSONBytes) throws {
        try RecordWriter().write(record, into: &out) { asset in try downloadURL(asset) }
    }

    /// The record as one line of an export, without its newline.
    public mutating func line(_ record: Record) throws -> String {
        var out = JSONBytes(capacity: 512)
        try write(record, into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The `data:` URL of an asset the first time it appears, while the store holds its bytes.
    public mutating func downloadURL(_ asset: Asset) throws -> String? {
        guard written.insert(asset.fileChecksum).inserted, let data = try read(asset.fileChecksum) else { return nil }
        return "data:application/octet-stream;base64," + data.base64EncodedString()
    }
}
