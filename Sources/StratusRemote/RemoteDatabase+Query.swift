import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine
import StratusPredicates

/// `records/query`: the predicate checked here by CloudKit's rules (there is no schema to check
/// it against: CKWS has no schema endpoint), sent as `filterBy` and `sortBy`.
extension RemoteDatabase {
    public func records(matching query: Query, inZoneWith zoneID: ZoneID, desiredKeys: [String]?, resultsLimit: Int?) throws -> QueryResultsPage {
        // FALSEPREDICATE has no filterBy: it matches nothing, without asking.
        guard let request = try request(for: query, inZoneWith: zoneID) else { return QueryResultsPage(records: [], cursor: nil) }
        return try page(request, zoneID: zoneID, marker: nil, desiredKeys: desiredKeys, resultsLimit: resultsLimit).page
    }

    /// The body of a `records/query` for `query`, checked by CloudKit's rules first; nil when
    /// it can match nothing.
    func request(for query: Query, inZoneWith zoneID: ZoneID) throws -> JSONValue? {
        let compiled: CompiledQuery
        switch PredicateCompiler.compile(format: query.predicateFormat, arguments: query.arguments, recordType: query.recordType,
                                         sorts: query.sortDescriptors) {
        case .success(let query): compiled = query
        case .failure(let diagnostics):
            throw CloudKitError(.invalidArguments, diagnostics.diagnostics.map(\.message).joined(separator: "; "), predicateDiagnostics: diagnostics)
        }
        guard let queryJSON = QueryJSON.encode(recordType: query.recordType, filter: compiled.filter, sorts: compiled.sorts) else { return nil }
        return .object([("zoneID", zoneJSON(zoneID)), ("query", queryJSON)])
    }

    public func records(continuingMatchFrom cursor: String, desiredKeys: [String]?, resultsLimit: Int?) throws -> QueryResultsPage {
        let request = markers.request(for: cursor) ?? .object([])
        let zoneID = try request["zoneID"].map { json in try decoded { () throws(RecordJSON.DecodingError) in try ZoneJSON.decodeZoneID(json, owner: nil) } }
        return try page(request, zoneID: zoneID.map { owned($0, as: nil) } ?? .default, marker: cursor, desiredKeys: desiredKeys,
                        resultsLimit: resultsLimit).page
    }

    public func lastRecords(matching query: Query, inZoneWith zoneID: ZoneID, desiredKeys: [String]?, resultsLimit: Int?) throws -> [Record] {
        throw RemoteDatabase.unavailable("reading a query's results from their end")
    }

    /// Web Services has no count: the front end counts by walking the result's pages.
    public func indexedCount(matching query: Query, inZoneWith zoneID: ZoneID) throws -> Int? { nil }

    /// Checks the predicate by CloudKit's rules alone: a remote container's schema is not known
    /// here, so field types come from the values compared.
    public func analyze(_ query: Query, now: Date) throws -> PredicateAnalysis {
        PredicateCompiler.analyze(format: query.predicateFormat, arguments: query.arguments, recordType: query.recordType,
                                  sorts: query.sortDescriptors, now: now)
    }

    /// One page of at most 200 records (CKWS's page); the marker it ends with is remembered with
    /// its query, so the next page can send both. `answered`: the records with what the answer
    /// said beside each (a share's short GUID, assets' download URLs).
    func page(_ request: JSONValue, zoneID: ZoneID, marker: String?, desiredKeys: [String]?,
              resultsLimit: Int?) throws -> (page: QueryResultsPage, answered: [AnsweredRecord]) {
        guard case .object(var body) = request else { return (QueryResultsPage(records: [], cursor: nil), []) }
        if let marker { body.append(("continuationMarker", .string(marker))) }
        body.append(("resultsLimit", .integer(Int64(min(resultsLimit ?? RemoteDatabase.batchLimit, RemoteDatabase.batchLimit)))))
        if let desiredKeys { body.append(("desiredKeys", .array(desiredKeys.map { .string($0) }))) }
        let answer = try records("records/query", .object(body), zone: zoneID)
        let answered = try items(answer.records, path: "records")
        let records = try answered.map { entry in
            guard case .saved(let record) = entry.change else {
                throw CloudKitError(.internalError, "\(client.endpoint.url) answered a deletion in a query's records",
                                    reason: .remoteUnreachable(url: client.endpoint.url))
            }
            return owned(record, zoneID: zoneID)
        }
        let next = answer.members["continuationMarker"]?.stringValue
        if let next { markers.remember(next, request: request) }
        return (QueryResultsPage(records: records, cursor: next), answered)
    }
}
