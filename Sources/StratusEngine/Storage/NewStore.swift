import Foundation
import StratusCloud
import StratusModel

/// What every backend writes into a store it makes, in the engine's words: the store's info
/// (a new identity and owner) and, once the backend has its tables and the public default
/// zone, the `Users` type and the owner as the first user.
package enum NewStore {
    /// The alias the store's owner gets.
    package static let ownerAlias = "owner"

    /// A new store's info: a fresh identity and owner, in `environment` (default development).
    package static func info(formatVersion: Int, environment: StoreEnvironment?) -> StoreInfo {
        StoreInfo(uuid: UUID(), formatVersion: formatVersion, environment: environment ?? .development,
                  owner: "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(), schemaVersion: 0)
    }

    /// Adds the `Users` type and the owner (with their `Users` record and private default zone).
    package static func addFirstRows(owner: String, in db: StoreTransaction) throws {
        var catalog = try SchemaCatalog.load(db, version: 0)
        _ = try catalog.addType("Users", systemIndexes: RecordTypeSchema.developmentSystemIndexes, in: db)
        try catalog.addField(SchemaField(name: "roles", type: .list(.int64), indexes: []), toType: "Users", in: db)
        try db.users.insert(recordName: owner, alias: ownerAlias)
    }
}
