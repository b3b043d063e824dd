import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// Every subscription of a store, compiled and grouped the way the write path looks them up:
/// query subscriptions by (database, record type), zone and database subscriptions by database.
///
/// Built once per (subscription version, schema version) and shared by every write in the
/// process, so a save evaluates only the subscriptions on its record's type and compiles nothing.
struct SubscriptionIndex: Sendable {
    struct Entry: Sendable {
        var rowID: Int64
        var owner: String
        var subscription: Subscription
        /// Query subscriptions: the predicate as the evaluator runs it; nil when it no longer
        /// compiles against the schema (such a subscription does not fire).
        var filter: QueryFilter?
        /// The predicate uses `now()`: the write path compiles it again with the transaction's time.
        var usesNow = false
    }

    /// The query subscriptions on one record type, with their guards.
    struct QueryGroup: Sendable {
        var entries: [Entry] = []
        var guards = SubscriptionGuards(filters: [], indexable: [])
    }

    struct Scoped: Sendable {
        var queries: [String: QueryGroup] = [:]
        var zones: [Entry] = []
        var databases: [Entry] = []

        var isEmpty: Bool { queries.isEmpty && zones.isEmpty && databases.isEmpty }
    }

    var version: Int64
    var schemaVersion: Int64
    var scopes: [DatabaseScope: Scoped]

    static func build(version: Int64, catalog: SchemaCatalog, in db: StoreTransaction) throws -> SubscriptionIndex {
        var index = SubscriptionIndex(version: version, schemaVersion: catalog.version, scopes: [:])
        let now = Date()
        for row in try db.subscriptions.everyScope() {
            var entry = Entry(rowID: row.id, owner: row.owner, subscription: row.subscription, filter: nil)
            var scoped = index.scopes[row.scope] ?? Scoped()
            switch row.subscription.kind {
            case .query(let recordType, let format, let arguments, _, _):
                let schema = catalog.type(named: recordType)?.schema
                entry.filter = compile(format, arguments, recordType: recordType, schema: schema, now: now)
                if let filter = entry.filter {
                    // A filter that changes with the time it was compiled at uses now().
                    entry.usesNow = compile(format, arguments, recordType: recordType, schema: schema, now: .distantPast) != filter
                }
                scoped.queries[recordType, default: QueryGroup()].entries.append(entry)
            case .recordZone:
                scoped.zones.append(entry)
            case .database:
                scoped.databases.append(entry)
            }
            index.scopes[row.scope] = scoped
        }
        for (scope, scoped) in index.scopes {
            for (recordType, group) in scoped.queries {
                index.scopes[scope]?.queries[recordType]?.guards = SubscriptionGuards(
                    filters: group.entries.map(\.filter), indexable: group.entries.map { !$0.usesNow })
            }
        }
        return index
    }

    static func compile(_ format: String, _ arguments: [PredicateArgument], recordType: String, schema: RecordTypeSchema?,
                        now: Date) -> QueryFilter? {
        if case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: arguments, recordType: recordType,
                                                                    schema: schema, now: now) {
            return compiled.filter
        }
        return nil
    }

    // MARK: - The process-wide cache

    private static let cache = LockedValue<[String: SubscriptionIndex]>([:])

    /// The subscriptions of `scope` as this transaction sees them, or nil when the store has
    /// none (one read of one row).
    static func current(store: Store, scope: DatabaseScope, catalog: SchemaCatalog, in db: StoreTransaction) throws -> Scoped? {
        guard let (version, count) = try db.subscriptions.state(), count > 0 else { return nil }
        let key = store.path + "\u{0}" + store.storeID.uuidString
        if let cached = cache.withLock({ $0[key] }), cached.version == version, cached.schemaVersion == catalog.version {
            return cached.scopes[scope].flatMap { $0.isEmpty ? nil : $0 }
        }
        let built = try build(version: version, catalog: catalog, in: db)
        cache.withLock { $0[key] = built }
        return built.scopes[scope].flatMap { $0.isEmpty ? nil : $0 }
    }
}
