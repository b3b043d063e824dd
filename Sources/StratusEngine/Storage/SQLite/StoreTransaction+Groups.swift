import StratusCloud

/// The SQLite accessors of each storage group, as a transaction hands them out.
extension StoreTransaction {
    var assets: any AssetStorage { SQLiteAssetStorage(db: self) }
    var zones: any ZoneStorage { SQLiteZoneStorage(db: self) }
    var schema: any SchemaStorage { SQLiteSchemaStorage(db: self) }
    var faults: any FaultStorage { SQLiteFaultStorage(db: self) }
    var changeFeed: any ChangeFeedStorage { SQLiteChangeFeedStorage(db: self) }
    var users: any UserStorage { SQLiteUserStorage(db: self) }
    var shares: any ShareStorage { SQLiteShareStorage(db: self) }
    var server: any ServerStorage { SQLiteServerStorage(db: self) }
    var subscriptions: any SubscriptionStorage { SQLiteSubscriptionStorage(db: self) }
}

extension StoreTransaction {
    var records: any RecordStorage { SQLiteRecordStorage(db: self) }

    /// Readies the writer for a bulk write: an import (`importing`) or a bulk fill (see
    /// ``PageCache``).
    func prepareForBulkWrite(importing: Bool) throws {
        try PageCache.enlarge(self, toKiB: importing ? PageCache.importKiB : PageCache.bulkKiB)
    }
}
