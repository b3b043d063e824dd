import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

extension CloudDatabase {
    /// Records per page when the caller sets no limit.
    public static let defaultQueryLimit = CloudKitLimits.defaultQueryLimit
    /// The most records one page returns.
    public static let maximumQueryLimit = CloudKitLimits.maximumQueryLimit

    /// Runs a query in one zone, as `CKDatabase.records(matching:inZoneWith:desiredKeys:resultsLimit:)`.
    ///
    /// The predicate is checked under CloudKit's rules against the type's schema (fields, types,
    /// QUERYABLE / SORTABLE / SEARCHABLE indexes) before anything runs; a refused predicate is
    /// `invalidArguments (12)` carrying every diagnostic with its place in the format string.
    public func records(
        matching query: Query, inZoneWith zoneID: ZoneID = .default,
        desiredKeys: [String]? = nil, resultsLimit: Int? = nil
    ) throws -> QueryResultsPage {
        try run(query, zoneID: zoneID, now: Date(), position: nil, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
    }

    /// The next page of a query, from the cursor of the previous page (made by this store, in
    /// this or any other process).
    public func records(continuingMatchFrom cursor: String, desiredKeys: [String]? = nil, resultsLimit: Int? = nil) throws -> QueryResultsPage {
        let decoded = try QueryCursor.decode(cursor, storeID: store.storeID)
        guard decoded.scope == scope else {
            throw CloudKitError(.invalidArguments, "The cursor belongs to a query of the \(decoded.scope.name) database, not the \(scope.name) database.")
        }
        return try run(decoded.query, zoneID: decoded.zoneID, now: decoded.now, position: decoded.position,
                       desiredKeys: desiredKeys, resultsLimit: resultsLimit)
    }

    /// The last `resultsLimit` records of a query's whole result, in the result's order: a
    /// query run from its end, so a client can show where a large result ends without paging
    /// through it. Checked, planned and filtered for the caller exactly as ``records(matching:inZoneWith:desiredKeys:resultsLimit:)``.
    public func lastRecords(matching query: Query, inZoneWith zoneID: ZoneID = .default,
                            desiredKeys: [String]? = nil, resultsLimit: Int? = nil) throws -> [Record] {
        try run(query, zoneID: zoneID, now: Date(), position: nil, desiredKeys: desiredKeys, resultsLimit: resultsLimit, fromEnd: true).records
    }

    /// Parses and checks a predicate for `recordType` against the store's schema without
    /// running it: the filter editor and `stratus check` call this on every change.
    public func analyze(_ query: Query, now: Date = Date()) throws -> PredicateAnalysis {
        let schema = try store.read { db in try store.catalog(db).type(named: query.recordType)?.schema }
        return PredicateCompiler.analyze(format: query.predicateFormat, arguments: query.arguments, recordType: query.recordType,
                                         schema: schema, sorts: query.sortDescriptors, now: now)
    }

    private func run(_ query: Query, zoneID: ZoneID, now: Date, position: QueryCursor.Position?,
                     desiredKeys: [String]?, resultsLimit: Int?, fromEnd: Bool = false) throws -> QueryResultsPage {
        let limit = min(max(resultsLimit ?? CloudDatabase.defaultQueryLimit, 1), CloudDatabase.maximumQueryLimit)
        return try readAfterFaults(FaultCall(operation: .query, scope: scope, zoneNames: [zoneID.zoneName]), zone: zoneID) { _, db in
            let catalog = try store.catalog(db)
            guard let type = catalog.type(named: query.recordType) else {
                if query.recordType == "Users" || RecordValidator.identifierProblem(query.recordType, what: "record type name") != nil {
                    _ = try CloudDatabase.compile(query, schema: nil, now: now)
                }
                throw CloudKitError(.unknownItem, "Did not find record type: '\(query.recordType)'. Save a record of that type first (development) or declare it in the schema.",
                                    reason: .unknownRecordType(query.recordType))
            }
            let compiled = try CloudDatabase.compile(query, schema: type.schema, now: now)
            let gate = AccessGate(self, db: db, catalog: catalog)
            let zone = try gate.zone(zoneID)
            let plan = QueryPlanner(type: type).plan(compiled)
            let storage = try db.records.queryStorage(zoneRowID: zone.id, type: type)
            var executor = QueryExecutor(storage: storage, zoneRowID: zone.id, type: type, query: compiled, plan: plan, limit: limit)
            executor.visible = try gate.readFilter(zone: zone, typeName: query.recordType)
            executor.lookaheadStamp = LookaheadStamp(zoneRowID: zone.id, incarnation: zone.incarnation, changeSequence: zone.changeSequence,
                                                     schemaVersion: catalog.version)
            let (loaded, next) = fromEnd ? (try executor.runTail(), nil) : try executor.run(after: position)
            let records = try loaded.map { try $0.stored.record(zoneID: zoneID, typeName: query.recordType, desiredKeys: desiredKeys, decodedFields: $0.fields) }
            let cursor = next.map { QueryCursor(scope: scope, zoneID: zoneID, query: query, now: now, position: $0).encoded(storeID: store.storeID) }
            return QueryResultsPage(records: records, cursor: cursor)
        }
    }

    static func compile(_ query: Query, schema: RecordTypeSchema?, now: Date) throws -> CompiledQuery {
        switch PredicateCompiler.compile(format: query.predicateFormat, arguments: query.arguments, recordType: query.recordType,
                                         schema: schema, sorts: query.sortDescriptors, now: now) {
        case .success(let compiled):
            return compiled
        case .failure(let diagnostics):
            let message = diagnostics.diagnostics.map(\.message).joined(separator: "; ")
            throw CloudKitError(.invalidArguments, message, predicateDiagnostics: diagnostics)
        }
    }
}
