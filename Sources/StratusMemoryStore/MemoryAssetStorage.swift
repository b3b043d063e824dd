import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// Asset content by its checksum in a memory store's tables.
struct MemoryAssetStorage: AssetStorage {
    let db: MemoryTransaction

    func insert(_ data: Data) throws -> Asset {
        let checksum = SHA256.hexDigest(data)
        if db.tables.assets[checksum] == nil { db.tables.assets[checksum] = data }
        return Asset(fileChecksum: checksum, size: Int64(data.count))
    }

    func holds(checksum: String) throws -> Bool { db.tables.assets[checksum] != nil }

    func data(checksum: String) throws -> Data? { db.tables.assets[checksum] }
}
