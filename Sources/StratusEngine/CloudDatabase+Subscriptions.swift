import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

extension CloudDatabase {
    /// The most notifications one read returns when the caller sets no limit.
    public static let defaultNotificationLimit = CloudKitLimits.defaultNotificationLimit

    // MARK: - Subscriptions

    /// Saves and deletes subscriptions of this user in this database, as
    /// `CKDatabase.modifySubscriptions(saving:deleting:)`: all or nothing, in one transaction.
    /// Saving a subscription whose ID exists replaces it.
    ///
    /// - Throws: `invalidArguments (12)` for a kind this database does not allow (query
    ///   subscriptions in the shared database; zone and database subscriptions in the public
    ///   database; zone subscriptions on the default zone), a query subscription without a
    ///   "fires on" option, more than 3 desired keys, or a predicate CloudKit would refuse
    ///   (with its diagnostics); `unknownItem (11)` for an unknown record type or a subscription
    ///   to delete that does not exist; `zoneNotFound (26)` for a zone that does not exist. With
    ///   several failures, `partialFailure (2)` holds each by subscription ID.
    @discardableResult
    public func modifySubscriptions(saving: [Subscription] = [], deleting: [String] = []) throws -> [Subscription] {
        guard caller.userRecordName != nil else {
            throw CloudKitError(.notAuthenticated, "Subscriptions belong to a signed-in user; this request acts as no user.")
        }
        return try store.write { db in
            let catalog = try store.catalog(db)
            var errors: [String: CloudKitError] = [:]
            var seen: Set<String> = []
            for subscription in saving {
                guard seen.insert(subscription.subscriptionID).inserted else {
                    errors[subscription.subscriptionID] = CloudKitError(.invalidArguments, "Subscription '\(subscription.subscriptionID)' appears more than once in one request.")
                    continue
                }
                do {
                    try check(subscription, catalog: catalog, in: db)
                } catch let error as CloudKitError {
                    errors[subscription.subscriptionID] = error
                }
            }
            var rowsToDelete: [Int64] = []
            for subscriptionID in deleting {
                if let row = try db.subscriptions.find(subscriptionID, scope: scope, owner: user) {
                    rowsToDelete.append(row.id)
                } else {
                    errors[subscriptionID] = CloudKitError(.unknownItem, "Subscription '\(subscriptionID)' does not exist in the \(scope.name) database.",
                                                           reason: .unknownSubscription(subscriptionID: subscriptionID, database: scope))
                }
            }
            if errors.count == 1, let only = errors.first?.value { throw only }
            if !errors.isEmpty {
                throw CloudKitError(.partialFailure, "\(errors.count) subscriptions failed; nothing was saved or deleted.", partialErrors: errors)
            }
            for rowID in rowsToDelete { try db.subscriptions.delete(rowID: rowID) }
            for subscription in saving { try db.subscriptions.save(subscription, scope: scope, owner: user) }
            return saving
        }
    }

    /// Saves one subscription.
    @discardableResult
    public func save(_ subscription: Subscription) throws -> Subscription {
        try modifySubscriptions(saving: [subscription])[0]
    }

    /// Deletes one subscription.
    public func deleteSubscription(withID subscriptionID: String) throws {
        try modifySubscriptions(deleting: [subscriptionID])
    }

    /// This user's subscriptions in this database, by ID, as `CKDatabase.allSubscriptions()`.
    public func allSubscriptions() throws -> [Subscription] {
        try store.read { db in try db.subscriptions.all(scope: scope, owner: user).map(\.subscription) }
    }

    /// One subscription, as `CKDatabase.subscription(for:)`; `unknownItem (11)` when there is none.
    public func subscription(for subscriptionID: String) throws -> Subscription {
        guard let row = try store.read({ db in try db.subscriptions.find(subscriptionID, scope: scope, owner: user) }) else {
            throw CloudKitError(.unknownItem, "Subscription '\(subscriptionID)' does not exist in the \(scope.name) database.",
                                reason: .unknownSubscription(subscriptionID: subscriptionID, database: scope))
        }
        return row.subscription
    }

    private func check(_ subscription: Subscription, catalog: SchemaCatalog, in db: StoreTransaction) throws {
        let id = subscription.subscriptionID
        if id.isEmpty || id.utf8.count > 255 {
            throw CloudKitError(.invalidArguments, "A subscription ID must be 1 to 255 bytes long.")
        }
        if let keys = subscription.notificationInfo?.desiredKeys, keys.count > NotificationInfo.maximumDesiredKeys {
            throw CloudKitError(.invalidArguments, "Subscription '\(id)' asks for \(keys.count) desired keys (\(keys.joined(separator: ", "))); CloudKit's limit is \(NotificationInfo.maximumDesiredKeys).")
        }
        switch subscription.kind {
        case .query(let recordType, let format, let arguments, let options, let zoneID):
            guard scope != .shared else {
                throw CloudKitError(.invalidArguments, "Query subscriptions are not supported in the shared database (CloudKit's rule); use a database subscription there.")
            }
            guard !options.isDisjoint(with: .firesOnAnyChange) else {
                throw CloudKitError(.invalidArguments, "Query subscription '\(id)' fires on nothing: give at least one of firesOnRecordCreation, firesOnRecordUpdate, firesOnRecordDeletion.",
                                    reason: .subscriptionFiresOnNothing(subscriptionID: id))
            }
            if let zoneID { _ = try gate(db).zone(zoneID) }
            guard let type = catalog.type(named: recordType) else {
                if RecordValidator.identifierProblem(recordType, what: "record type name") != nil {
                    try compile(format, arguments, recordType: recordType, schema: nil)
                }
                throw CloudKitError(.unknownItem, "Did not find record type: '\(recordType)'. Save a record of that type first (development) or declare it in the schema.",
                                    reason: .unknownRecordType(recordType))
            }
            try compile(format, arguments, recordType: recordType, schema: type.schema)
        case .recordZone(let zoneID, _):
            guard scope != .public else {
                throw CloudKitError(.invalidArguments, "Zone subscriptions are not supported in the public database (CloudKit's rule); use a query subscription there.")
            }
            guard !zoneID.isDefault else {
                throw CloudKitError(.invalidArguments, "Zone subscriptions are not supported on the default zone (CloudKit's rule); subscribe to a custom zone, or use a query subscription.")
            }
            _ = try gate(db).zone(zoneID)
        case .database:
            guard scope != .public else {
                throw CloudKitError(.invalidArguments, "Database subscriptions are not supported in the public database (CloudKit's rule); use a query subscription there.")
            }
        }
    }

    private func compile(_ format: String, _ arguments: [PredicateArgument], recordType: String, schema: RecordTypeSchema?) throws {
        if case .failure(let diagnostics) = PredicateCompiler.compile(format: format, arguments: arguments, recordType: recordType, schema: schema) {
            let message = diagnostics.diagnostics.map(\.message).joined(separator: "; ")
            throw CloudKitError(.invalidArguments, message, predicateDiagnostics: diagnostics)
        }
    }

    // MARK: - Notifications

    /// The notifications this user receives in this database after the one with ID `notificationID`
    /// (from the first when nil), oldest first. Notifications of changes made by this value's
    /// `device` are left out, as CloudKit does not deliver them to the originating device, unless
    /// `includingOwnDevice`.
    ///
    /// - Throws: `unknownItem (11)` for an unknown notification ID.
    public func notifications(after notificationID: String? = nil, limit: Int? = nil, unreadOnly: Bool = false,
                              includingOwnDevice: Bool = false) throws -> [CloudNotification] {
        try store.read { db in
            var sequence: Int64 = 0
            if let notificationID {
                guard let found = try db.subscriptions.notificationSequence(of: notificationID) else {
                    throw CloudKitError(.unknownItem, "There is no notification '\(notificationID)' in this store.")
                }
                sequence = found
            }
            return try db.subscriptions.fetchNotifications(scope: scope, owner: user, after: sequence, excludingDevice: includingOwnDevice ? nil : device, unreadOnly: unreadOnly, limit: max(1, limit ?? CloudDatabase.defaultNotificationLimit))
        }
    }

    /// As `notifications(after:)`, from a position in the notification order (`CloudNotification.sequence`).
    public func notifications(afterSequence sequence: Int64, limit: Int? = nil, unreadOnly: Bool = false,
                              includingOwnDevice: Bool = false) throws -> [CloudNotification] {
        try store.read { db in
            try db.subscriptions.fetchNotifications(scope: scope, owner: user, after: sequence, excludingDevice: includingOwnDevice ? nil : device, unreadOnly: unreadOnly, limit: max(1, limit ?? CloudDatabase.defaultNotificationLimit))
        }
    }

    /// A notification's position in the store's order (`CloudNotification.sequence`);
    /// `unknownItem (11)` for an unknown ID.
    public func sequence(ofNotification notificationID: String) throws -> Int64 {
        guard let sequence = try store.read({ db in try db.subscriptions.notificationSequence(of: notificationID) }) else {
            throw CloudKitError(.unknownItem, "There is no notification '\(notificationID)' in this store.")
        }
        return sequence
    }

    /// Marks notifications read, as `CKMarkNotificationsReadOperation`; unknown IDs are ignored.
    public func markNotificationsRead(_ notificationIDs: [String]) throws {
        guard !notificationIDs.isEmpty else { return }
        try store.write { db in
            try db.subscriptions.markNotificationsRead(notificationIDs, owner: user)
        }
    }
}
