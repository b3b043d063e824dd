import Foundation
import StratusCloud
import StratusModel

/// A CloudKit container as a front end reaches it: its databases as the acting user sees them,
/// its users and its schema. The dashboard talks to this and nothing below it, so the same tabs
/// work on a local store (``LocalCloudService``) and on a CloudKit Web Services endpoint.
public protocol CloudService: Sendable {
    /// Who acts; switching it switches every database handed out afterwards.
    var acting: ActingUser { get }
    /// One database as the acting user sees it.
    func database(_ scope: DatabaseScope) -> any CloudDatabaseService
    /// The container's users (Act As lists them).
    func users() throws -> [StoreUser]
    /// Every record type's schema, sorted by name.
    func recordTypes() throws -> [RecordTypeSchema]
    /// The container's environment.
    func environment() throws -> StoreEnvironment
    /// The schema as a `.ckdb` document: types, fields, indexes, roles and grants.
    func exportSchema() throws -> SchemaDocument
    /// An asset's bytes by checksum (nil when none are held): exports carry them, so what they
    /// write reads back into another store.
    func assetData(checksum: String) throws -> Data?
    /// What only a local store has (the fault plan, the request log, its file); nil elsewhere,
    /// so a tab that needs it says so instead of failing.
    var localStore: (any LocalStoreFeatures)? { get }
}
