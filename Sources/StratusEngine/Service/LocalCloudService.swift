import Foundation
import StratusCloud
import StratusModel

/// The ``CloudService`` of a local store: its databases through the engine, acting as the
/// chosen user from one device.
public struct LocalCloudService: CloudService {
    public let store: Store
    public let acting: ActingUser
    /// The device calls come from: notifications of its own changes are not delivered back to
    /// it (CloudKit's rule), so a live panel shows other processes' changes.
    public let device: String

    public init(store: Store, acting: ActingUser = ActingUser(), device: String = CloudDatabase.defaultDevice) {
        self.store = store
        self.acting = acting
        self.device = device
    }

    public func database(_ scope: DatabaseScope) -> any CloudDatabaseService {
        // The fault plan reaches the dashboard only through faults that name it.
        store.database(scope, caller: acting.caller ?? .user(store.owner), device: device).reached(through: .dashboard)
    }

    public func users() throws -> [StoreUser] { try store.users() }

    public func recordTypes() throws -> [RecordTypeSchema] { try store.recordTypes() }

    public func environment() throws -> StoreEnvironment { try store.environment }

    public func exportSchema() throws -> SchemaDocument { try store.exportSchema() }

    public func assetData(checksum: String) throws -> Data? { try store.assetData(checksum: checksum) }

    public var localStore: (any LocalStoreFeatures)? { LocalStoreFile(store: store) }
}

/// A local store's own features, for ``LocalCloudService/localStore``.
struct LocalStoreFile: LocalStoreFeatures {
    let store: Store

    var path: String { store.path }

    var isReadOnly: Bool { store.isReadOnly }

    func faults() throws -> [Fault] { try store.faults() }

    func addFault(_ fault: Fault) throws -> Fault { try store.addFault(fault) }

    func clearFaults(id: Int64?) throws -> Int { try store.clearFaults(id: id) }

    func faultEvents(after id: Int64?, limit: Int) throws -> [FaultEvent] { try store.faultEvents(after: id, limit: limit) }

    func requestLog(after id: Int64?, limit: Int) throws -> [RequestLogEntry] { try store.requestLog(after: id, limit: limit) }
    func requestBodies(of id: Int64) throws -> RequestBodies? { try store.requestBodies(of: id) }

    func watch(_ topics: Set<StoreTopic>, polling: Duration) -> StoreWatch { store.watch(topics, polling: polling) }

    func exportSchema(ofStoreAt path: String) throws -> SchemaDocument {
        // The store's own file is read through the store; another one without opening it.
        if URL(fileURLWithPath: path).standardizedFileURL == URL(fileURLWithPath: store.path).standardizedFileURL {
            return try store.exportSchema()
        }
        return try store.exportSchema(ofOtherStoreAt: path)
    }

    func importSchema(_ document: SchemaDocument, dryRun: Bool) throws -> SchemaImportResult {
        try store.importSchema(document, dryRun: dryRun)
    }
}

/// The engine's database is the local ``CloudDatabaseService``.
extension CloudDatabase: CloudDatabaseService {}
