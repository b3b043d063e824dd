import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The `asset` table: asset content by its SHA-256 checksum, stored once however many records
/// point at it.
struct SQLiteAssetStorage: AssetStorage {
    let db: SQLiteTransaction

    /// Stores content in `db`'s transaction (content already there is kept as it is).
    @discardableResult
    func insert(_ data: Data) throws -> Asset {
        let checksum = SHA256.hexDigest(data)
        // Bound one by one, so the cached statement does not keep the content (see RecordRowWriter.update).
        let insert = try DirectStatement("INSERT OR IGNORE INTO asset (checksum, size, data) VALUES (?, ?, ?)", in: db)
        insert.bind(1, checksum)
        insert.bind(2, Int64(data.count))
        insert.bind(3, data)
        try insert.run()
        return Asset(fileChecksum: checksum, size: Int64(data.count))
    }

    func holds(checksum: String) throws -> Bool {
        try Bool.fetchOne(db.sqlite.cachedStatement(sql: "SELECT 1 FROM asset WHERE checksum = ?"), arguments: [checksum]) ?? false
    }

    func data(checksum: String) throws -> Data? {
        try Data.fetchOne(db.sqlite.cachedStatement(sql: "SELECT data FROM asset WHERE checksum = ?"), arguments: [checksum])
    }
}
