import Foundation
import Testing
import StratusModel
import StratusCloud
import StratusPredicates
@testable import StratusEngine
@testable import StratusPostgres
import StratusTestSupport

/// A read call on PostgreSQL asks the fault plan, and reads the zone it names, in the statement
/// that opens its read, not in round trips of their own, and still meets a fault another
/// process armed.
@Suite struct PostgresReadFaultCheckTests {
    @Test func aQueryPageAsksThePlanInItsOpeningStatement() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try Store.postgres(url, creating: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let db = store.database(.private)
        let zone = ZoneID(zoneName: "Notes")
        try db.modifyRecordZones(saving: [zone])
        _ = try db.modifyRecords(saving: (0..<20).map { index in
            Record(recordType: "Note", recordID: RecordID(recordName: "n\(index)", zoneID: zone), fields: ["rank": .int64(Int64(index))])
        }).savedRecords()
        let query = Query(recordType: "Note", predicateFormat: "rank >= 5", sortDescriptors: [QuerySort("rank")])
        _ = try db.records(matching: query, inZoneWith: zone)

        let before = backend.statementsSent
        let page = try db.records(matching: query, inZoneWith: zone, resultsLimit: 10)
        let sent = backend.statementsSent - before
        #expect(page.records.map(\.recordID.recordName) == (5..<15).map { "n\($0)" })
        // BEGIN, one statement for the schema version, the plan and the zone, the page, COMMIT.
        // Asking the plan on its own first and the zone on its own made it six.
        #expect(sent == 4, "a query page sent \(sent) statements")

        // A zone the opening statement did not find is still no zone, and another user's is not
        // this caller's.
        for (database, name) in [(db, "Missing"), (store.database(.private, user: "_someoneElse"), "Notes")] {
            do {
                _ = try database.records(matching: query, inZoneWith: ZoneID(zoneName: name))
                Issue.record("a query in \(name) found a zone")
            } catch let error as CloudKitError {
                #expect(error.code == .zoneNotFound)
            }
        }

        let fetchedBefore = backend.statementsSent
        let fetched = try db.records(for: [RecordID(recordName: "n3", zoneID: zone)])
        #expect(fetched.count == 1 && (try? fetched[0].result.get()) != nil)
        #expect(backend.statementsSent - fetchedBefore <= 7, "a fetch of one sent \(backend.statementsSent - fetchedBefore) statements")
    }

    @Test func aPageWhoseFilterIsRecheckedOnEachRowIsOneStatementWhenTheRowsMatch() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try Store.postgres(url, creating: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let db = store.database(.private)
        let zone = ZoneID(zoneName: "Venues")
        try db.modifyRecordZones(saving: [zone])
        _ = try db.modifyRecords(saving: (0..<150).map { index in
            Record(recordType: "Venue", recordID: RecordID(recordName: "v\(index)", zoneID: zone),
                   fields: ["title": .string("Quiet Mill \(1_000 + index)")])
        }).savedRecords()
        // BEGINSWITH reads a range of the title index and checks each row's title again.
        let query = Query(recordType: "Venue", predicateFormat: "title BEGINSWITH 'Quiet'", sortDescriptors: [QuerySort("title")])
        _ = try db.records(matching: query, inZoneWith: zone, resultsLimit: 100)

        let before = backend.statementsSent
        let page = try db.records(matching: query, inZoneWith: zone, resultsLimit: 100)
        let sent = backend.statementsSent - before
        #expect(page.records.map(\.recordID.recordName) == (0..<100).map { "v\($0)" })
        #expect(page.cursor != nil)
        // BEGIN, the opening statement, the page's 100 rows and the one after, COMMIT. Asking
        // for 32 rows first made the page two statements.
        #expect(sent == 4, "a rechecked page sent \(sent) statements")
    }

    @Test func aFaultArmedByAnotherProcessFiresOnTheNextRead() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let reader = try Store.postgres(url, creating: true)
        let db = reader.database(.private)
        let zone = ZoneID(zoneName: "Notes")
        try db.modifyRecordZones(saving: [zone])
        _ = try db.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: "a", zoneID: zone), fields: ["rank": .int64(1)])])
        let query = Query(recordType: "Note", predicateFormat: "rank == 1")
        #expect(try db.records(matching: query, inZoneWith: zone).records.count == 1)

        // Another process (its own store, its own connections) arms a fault for one query.
        let other = try Store.postgres(url, creating: false)
        try other.addFault(Fault(kind: .zoneBusy, operation: .query, trigger: .once))
        do {
            _ = try db.records(matching: query, inZoneWith: zone)
            Issue.record("the armed fault did not fire")
        } catch let error as CloudKitError {
            #expect(error.code == .zoneBusy)
        }
        // It fired once and is spent: the same read goes through, and its firing is counted.
        #expect(try db.records(matching: query, inZoneWith: zone).records.count == 1)
        let fault = try #require(try other.faults().first)
        #expect(fault.fired == 1)
        #expect(fault.isSpent)

        // A fault armed for fetches fails the chosen record only, the others read in the same call.
        try other.addFault(Fault(kind: .partialFailure, operation: .fetch, recordNames: ["a"], trigger: .once))
        _ = try db.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: "b", zoneID: zone), fields: ["rank": .int64(2)])])
        let fetched = try db.records(for: [RecordID(recordName: "a", zoneID: zone), RecordID(recordName: "b", zoneID: zone)])
        if case .failure(let error) = fetched[0].result { #expect(error.code == .serviceUnavailable) } else { Issue.record("a was fetched") }
        #expect((try? fetched[1].result.get()) != nil)
        #expect((try? db.records(for: [RecordID(recordName: "a", zoneID: zone)])[0].result.get()) != nil)
    }
}
