extension CloudKitError {
    /// What a failure is, beyond its code, in values a front end can act on: the command line's
    /// advice, the dashboard's status line and the server's answer switch on it, so rewording
    /// `message` for people never changes what they do (ARCHITECTURE.md, decision 8).
    public enum Reason: Hashable, Sendable {
        /// Nothing beyond what the code says; most errors.
        case general
        /// No live zone of this name in the database (as the caller sees it).
        case zoneNotFound(zoneName: String, database: DatabaseScope)
        /// A zone of the shared database named without its owner, which names a shared zone.
        case sharedZoneNeedsOwner(zoneName: String)
        /// No record type of this name in the schema.
        case unknownRecordType(String)
        /// No user with this alias or user record name in the store.
        case unknownUser(String)
        /// No subscription with this ID in the database.
        case unknownSubscription(subscriptionID: String, database: DatabaseScope)
        /// Nothing is at the store's path, and the command does not make stores.
        case storeNotFound(path: String)
        /// The store's path names a folder.
        case storePathIsFolder(path: String)
        /// The file at the store's path is not an SQLite database.
        case fileIsNotADatabase(path: String)
        /// Changes were asked of the default zone, which keeps no change feed in CloudKit.
        case defaultZoneHasNoChangeFeed
        /// A save would make a record type a production schema does not declare.
        case typeNotCreatableInProduction(recordType: String)
        /// A query subscription with none of the create, update and delete firings.
        case subscriptionFiresOnNothing(subscriptionID: String)
        /// A schema import would remove fields or types that hold data; `forceAllowed` when
        /// importing with force would go ahead and delete it (development stores only).
        case schemaImportLosesData(forceAllowed: Bool)
        /// A store was opened asking for another environment than the one it was made with.
        case environmentFixedAtCreation(existing: StoreEnvironment)
        /// The store's fault plan made this error on purpose.
        case fault(id: Int64)
        /// No remote of this name is configured.
        case unknownRemote(String)
        /// A remote container needs its user to sign in (again): no session, or it expired.
        case remoteSignInRequired(remote: String)
        /// A remote container refused the API token or the server-to-server key.
        case remoteCredentialRejected(remote: String)
        /// A remote container holds no credentials for the database asked of it.
        case remoteCredentialMissing(remote: String)
        /// A remote container could not be reached (no connection, no answer, not CKWS).
        case remoteUnreachable(url: String)
        /// Something CloudKit Web Services has no call for (a local store's history, its counts
        /// of records by type): what a remote container cannot answer.
        case notAvailableRemotely(feature: String)
    }
}
