import Foundation
import GRDB
import StratusModel

/// The `asset` table: asset content by its SHA-256 checksum, stored once however many records
/// point at it.
enum AssetRows {
    /// Stores content in `db`'s transaction (content already there is kept as it is).
    @discardableResult
    static func insert(_ data: Data, in db: StoreTransaction) throws -> Asset {
        let checksum = SHA256.hexDigest(data)
        try db.sqlite.cachedStatement(sql: "INSERT OR IGNORE INTO asset (checksum, size, data) VALUES (?, ?, ?)")
            .execute(arguments: [checksum, data.count, data])
        return Asset(fileChecksum: checksum, size: Int64(data.count))
    }

    static func holds(checksum: String, in db: StoreTransaction) throws -> Bool {
        try Bool.fetchOne(db.sqlite.cachedStatement(sql: "SELECT 1 FROM asset WHERE checksum = ?"), arguments: [checksum]) ?? false
    }

    static func data(checksum: String, in db: StoreTransaction) throws -> Data? {
        try Data.fetchOne(db.sqlite.cachedStatement(sql: "SELECT data FROM asset WHERE checksum = ?"), arguments: [checksum])
    }
}
