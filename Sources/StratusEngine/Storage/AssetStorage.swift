import Foundation
import StratusCloud
import StratusModel

/// Asset content kept by its SHA-256 checksum, stored once however many records point at it.
package protocol AssetStorage {
    /// Stores content in this transaction (content already there is kept as it is).
    @discardableResult
    func insert(_ data: Data) throws -> Asset

    /// Whether the store holds content with this checksum.
    func holds(checksum: String) throws -> Bool

    /// The content with this checksum, or nil.
    func data(checksum: String) throws -> Data?
}
