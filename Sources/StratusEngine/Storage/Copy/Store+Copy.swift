import Foundation
import StratusCloud

extension Store {
    /// Copies every table of this store into `destination`, whatever the two backends, so the
    /// copy is this store: the same identity (which every change token carries), zone row ids,
    /// incarnations and sequences, records with their tags, times and users, deletions, schema,
    /// users, shares, subscriptions, notifications, faults, credentials, the request log and push
    /// tokens. A token taken on this store plays back on the copy exactly as here.
    ///
    /// This store is read in one snapshot; `destination` is written in one transaction, so a
    /// failure leaves it as it was. `destination` must hold nothing yet but a new store's first
    /// rows (see ``holdsData(_:)``): a copy replaces a store whole, never merges into one.
    ///
    /// - Returns: how many rows of each table were copied.
    /// - Throws: `invalidArguments` naming `destination` when it holds data; `internalError`
    ///   when a backend cannot copy tables.
    @discardableResult
    package func copy(to destination: Store, progress: (StoreCopyProgress) -> Void = { _ in }) throws -> [CopiedTable: Int] {
        let totals = try copyInOneTransaction(to: destination, progress: progress)
        destination.gatherPlannerStatisticsAfterBulkWrite()
        return totals
    }

    private func copyInOneTransaction(to destination: Store, progress: (StoreCopyProgress) -> Void) throws -> [CopiedTable: Int] {
        try read { source in
            let from = try Self.tables(of: source, at: path)
            var totals: [CopiedTable: Int] = [:]
            for table in CopiedTable.allCases { totals[table] = try from.count(table) }
            return try destination.write { db in
                let into = try Self.tables(of: db, at: destination.path)
                if try Self.holdsData(into) {
                    throw CloudKitError(.invalidArguments, "The store at \(destination.path) is not empty: a copy goes only into a new or empty store, "
                        + "and nothing was written. Name a location where there is no store yet.")
                }
                try db.prepareForBulkWrite(importing: true)
                try into.removeAllRows()
                try withoutActuallyEscaping(progress) { progress in
                    let writer = StoreCopyWriter(tables: into, db: db, totals: totals, progress: progress)
                    for table in CopiedTable.allCases {
                        try writer.copy(table, from: from)
                    }
                    try writer.finish()
                }
                return totals
            }
        }
    }

    /// Whether a store holds anything beyond the first rows every new store gets (its owner
    /// and the owner's `Users` record, the public default zone, the `Users` type): a record, a
    /// deletion, a zone made, a share, a subscription, another user, a credential.
    static func holdsData(_ tables: any TableCopyStorage) throws -> Bool {
        let dataTables: [CopiedTable] = [.tombstone, .share, .subscription, .notification, .asset, .fault, .serverCredential,
                                         .serverKey, .pushToken, .requestLog]
        for table in dataTables where try tables.count(table) > 0 { return true }
        let users = try tables.count(.user)
        if try users > 1 || tables.count(.record) > users { return true }
        var changed = false
        try tables.forEachRow(of: .databaseState) { row in
            if (row.last?.integer ?? 0) != 0 { changed = true }
        }
        return changed
    }

    private static func tables(of db: StoreTransaction, at location: String) throws -> any TableCopyStorage {
        guard let tables = db.tables else {
            throw CloudKitError(.internalError, "The store at \(location) is kept where its tables cannot be copied.")
        }
        return tables
    }
}
