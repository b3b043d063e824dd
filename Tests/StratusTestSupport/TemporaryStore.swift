import Foundation
import StratusCloud
import StratusEngine
import StratusMemoryStore
import StratusPostgres
import StratusSQLite

/// A store in a fresh temporary folder, removed when the value goes away: what most engine
/// tests start from. It is opened on ``TestBackend/current``: an SQLite file in the folder, a
/// memory store named after one, or a fresh schema on the tests' PostgreSQL server (dropped
/// when the value goes away).
public final class TemporaryStore {
    /// The folder the store is in (other files a test makes can go there too).
    public let folder: TemporaryDirectory
    public let store: Store
    /// The store's PostgreSQL URL and the lease that drops its schema once every store on it
    /// is gone (a test may keep only the store's database), when it is on PostgreSQL.
    private let postgres: (url: String, lease: TestPostgres.Lease)?

    /// Makes a store at `store.sqlite` in a new folder (on ``TestBackend/current``), in
    /// `environment` when given.
    public init(environment: StoreEnvironment? = nil) throws {
        folder = try TemporaryDirectory("stratus-test")
        switch TestBackend.current {
        case .sqlite:
            store = try Store(path: folder.storePath, creatingWith: environment)
            postgres = nil
        case .memory:
            store = try Store.inMemory(named: folder.storePath, creatingWith: environment)
            postgres = nil
        case .postgres:
            let url = try TestPostgres.freshStoreURL()
            let lease = TestPostgres.Lease(url: url)
            store = try Store.postgres(url, creating: true, environment: environment)
            (store.backend as? PostgresBackend)?.lease = lease
            postgres = (url, lease)
        }
    }

    /// Another handle on the same store, as another process opens it: the file or the URL
    /// again, or (in memory, where no other process can reach it) a second `Store` over the same
    /// tables.
    public func reopened() throws -> Store {
        switch TestBackend.current {
        case .sqlite: try Store(path: path)
        case .memory: Store(backend: store.backend)
        case .postgres:
            try {
                let store = try Store.postgres(postgres?.url ?? path, creating: false)
                (store.backend as? PostgresBackend)?.lease = postgres?.lease
                return store
            }()
        }
    }

    /// The folder the store is in.
    public var directory: URL { folder.url }
    public var path: String { store.path }
    public var privateDB: CloudDatabase { store.database(.private) }

    /// A custom zone in the private database.
    public func zone(_ name: String) throws -> ZoneID {
        let zoneID = ZoneID(zoneName: name)
        try privateDB.modifyRecordZones(saving: [zoneID])
        return zoneID
    }
}
