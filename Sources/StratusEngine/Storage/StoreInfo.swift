import Foundation
import GRDB
import StratusCloud

/// The one `store_info` row: identity, format, environment and owner of a store.
struct StoreInfo: Sendable {
    var uuid: UUID
    var formatVersion: Int
    var environment: StoreEnvironment
    var owner: String
    var schemaVersion: Int64

    static func load(_ db: StoreTransaction) throws -> StoreInfo? {
        guard let row = try Row.fetchOne(db.sqlite, sql: "SELECT uuid, format_version, environment, owner, schema_version FROM store_info WHERE id = 1") else {
            return nil
        }
        let bytes: Data = row["uuid"]
        guard bytes.count == 16 else { return nil }
        let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        return StoreInfo(
            uuid: uuid,
            formatVersion: row["format_version"],
            environment: StoreEnvironment(rawValue: row["environment"]) ?? .development,
            owner: row["owner"],
            schemaVersion: row["schema_version"]
        )
    }

    static func setEnvironment(_ environment: StoreEnvironment, in db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "UPDATE store_info SET environment = ? WHERE id = 1", arguments: [environment.rawValue])
    }

    /// The schema's version: it grows with every change to the schema tables.
    static func schemaVersion(in db: StoreTransaction) throws -> Int64 {
        try Int64.fetchOne(db.sqlite.cachedStatement(sql: "SELECT schema_version FROM store_info WHERE id = 1")) ?? 0
    }

    /// Moves the schema's version on (every process then reloads the schema) and returns it.
    static func advanceSchemaVersion(in db: StoreTransaction) throws -> Int64 {
        try db.sqlite.execute(sql: "UPDATE store_info SET schema_version = schema_version + 1 WHERE id = 1")
        return try schemaVersion(in: db)
    }

    static func uuidBytes(_ uuid: UUID) -> Data {
        withUnsafeBytes(of: uuid.uuid) { Data($0) }
    }
}
