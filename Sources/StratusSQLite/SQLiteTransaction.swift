import GRDB
import StratusEngine

/// One transaction on an SQLite store: the connection inside it and the statements prepared
/// for it. Every SQLite accessor holds one; ``store`` is the engine's view of it.
package struct SQLiteTransaction {
    /// The connection, inside its transaction (outside one only in
    /// ``SQLiteStoreFile/writeWithoutTransaction(_:)``, whose caller begins and commits).
    package let sqlite: GRDB.Database
    /// Statements prepared once for this transaction (``DirectStatement``'s literal SQL).
    let statements = HeldStatements()

    package init(sqlite: GRDB.Database) { self.sqlite = sqlite }

    var zones: SQLiteZoneStorage { SQLiteZoneStorage(db: self) }
    var records: SQLiteRecordStorage { SQLiteRecordStorage(db: self) }
    var changeFeed: SQLiteChangeFeedStorage { SQLiteChangeFeedStorage(db: self) }
    var schema: SQLiteSchemaStorage { SQLiteSchemaStorage(db: self) }
    var users: SQLiteUserStorage { SQLiteUserStorage(db: self) }
    var shares: SQLiteShareStorage { SQLiteShareStorage(db: self) }
    var subscriptions: SQLiteSubscriptionStorage { SQLiteSubscriptionStorage(db: self) }
    var faults: SQLiteFaultStorage { SQLiteFaultStorage(db: self) }
    var assets: SQLiteAssetStorage { SQLiteAssetStorage(db: self) }
    var server: SQLiteServerStorage { SQLiteServerStorage(db: self) }

    /// The engine's view of this transaction, for the engine code the backend calls (the
    /// catalog, the first user of a new store).
    var store: StoreTransaction {
        StoreTransaction(zones: zones, records: records, changeFeed: changeFeed, schema: schema, users: users, shares: shares,
                         subscriptions: subscriptions, faults: faults, assets: assets, server: server,
                         control: SQLiteTransactionControl(db: self), tables: SQLiteTableCopyStorage(db: self))
    }
}

extension StoreTransaction {
    /// The SQLite connection of a transaction on an SQLite store, for tests and tools that look
    /// at the tables themselves.
    package var sqlite: GRDB.Database {
        guard let control = control as? SQLiteTransactionControl else { preconditionFailure("not a transaction on an SQLite store") }
        return control.db.sqlite
    }
}
