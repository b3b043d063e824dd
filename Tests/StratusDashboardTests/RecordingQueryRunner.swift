import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusPredicates
import StratusCloud

/// The engine's query runner with a record of its calls, for tests that count how often the
/// dashboard runs a query or fetches a page. Every call goes to the engine.
///
/// The engine's cursors are opaque, so the dashboard is handed each one named by its place in
/// the result (`"50"`: the page after the first 50 records), as the tests say which pages were
/// asked for; the name is turned back into the engine's cursor on the way in.
final class RecordingQueryRunner: QueryRunner {
    let engine: any QueryRunner
    let runs = LockedValue<[QueryRequest]>([])
    /// Cursors `next` was called with, in order (by place in the result).
    let nextCursors = LockedValue<[String]>([])
    /// The engine's cursor for each query and place.
    private let engineCursors = LockedValue<[CursorKey: String]>([:])

    /// One place in one query's result (the page size and fields asked for do not matter).
    private struct CursorKey: Hashable {
        var recordType: String
        var filter: String
        var arguments: [String]
        var sort: [QuerySort]
        var zone: ZoneID
        var scope: DatabaseScope
        var position: Int

        init(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope, position: Int) {
            recordType = request.recordType
            filter = request.filter
            arguments = request.arguments
            sort = request.sort
            self.zone = zone
            self.scope = scope
            self.position = position
        }
    }

    init(engine: any QueryRunner) {
        self.engine = engine
    }

    func run(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryResultsPage {
        runs.withLock { $0.append(request) }
        return named(try engine.run(request, zone: zone, scope: scope), startingAt: 0, request, zone: zone, scope: scope)
    }

    func next(cursor: String, request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryResultsPage {
        nextCursors.withLock { $0.append(cursor) }
        guard let position = Int(cursor),
              let engineCursor = engineCursors.withLock({ $0[CursorKey(request, zone: zone, scope: scope, position: position)] }) else {
            return try engine.next(cursor: cursor, request: request, zone: zone, scope: scope)
        }
        return named(try engine.next(cursor: engineCursor, request: request, zone: zone, scope: scope), startingAt: position,
                     request, zone: zone, scope: scope)
    }

    func last(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> [Record] {
        try engine.last(request, zone: zone, scope: scope)
    }

    func count(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> Int? {
        try engine.count(request, zone: zone, scope: scope)
    }

    func check(filter: String, arguments: [String], recordType: String, learnedTypes: [String: FieldType]) -> FilterCheck {
        engine.check(filter: filter, arguments: arguments, recordType: recordType, learnedTypes: learnedTypes)
    }

    /// The page with its cursor named by the place it continues from.
    private func named(_ page: QueryResultsPage, startingAt start: Int, _ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) -> QueryResultsPage {
        guard let cursor = page.cursor else { return page }
        let position = start + page.records.count
        engineCursors.withLock { $0[CursorKey(request, zone: zone, scope: scope, position: position)] = cursor }
        return QueryResultsPage(records: page.records, cursor: String(position))
    }
}
