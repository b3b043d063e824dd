import Foundation
import StratusModel
@testable import StratusEngine

/// Asset content held in memory by its checksum, with no SQL: a second implementation of
/// ``AssetStorage`` for ``AssetStorageSeamTests``.
final class InMemoryAssetStorage: AssetStorage {
    private var contents: [String: Data] = [:]

    func insert(_ data: Data) throws -> Asset {
        let checksum = SHA256.hexDigest(data)
        if contents[checksum] == nil { contents[checksum] = data }
        return Asset(fileChecksum: checksum, size: Int64(data.count))
    }

    func holds(checksum: String) throws -> Bool { contents[checksum] != nil }

    func data(checksum: String) throws -> Data? { contents[checksum] }
}
