import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// Asset content by checksum in a PostgreSQL store.
struct PostgresAssetStorage: AssetStorage {
    let db: PostgresTransaction

    func insert(_ data: Data) throws -> Asset {
        let checksum = SHA256.hexDigest(data)
        try db.link.run("INSERT INTO asset (checksum, size, data) VALUES ($1, $2, $3) ON CONFLICT (checksum) DO NOTHING", [checksum, data.count, data])
        return Asset(fileChecksum: checksum, size: Int64(data.count))
    }

    func holds(checksum: String) throws -> Bool { try !db.link.rows("SELECT 1 FROM asset WHERE checksum = $1", [checksum]).isEmpty }

    func data(checksum: String) throws -> Data? { try db.link.rows("SELECT data FROM asset WHERE checksum = $1", [checksum]).first?.data(0) }
}
