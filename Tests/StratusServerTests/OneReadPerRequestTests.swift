import Foundation
import StratusCloud
import StratusEngine
import StratusModel
@testable import StratusPostgres
import StratusTestSupport
import Testing

/// A request that only reads makes all its reads of the store in one transaction, and asks
/// the schema's version once: counted on PostgreSQL, where each statement is a round trip.
@Suite struct OneReadPerRequestTests {
    @Test func aLookupOnPostgreSQLIsOneTransactionOfFewStatements() async throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try Store.postgres(url, creating: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let zone = ZoneID(zoneName: "Notes")
        try store.database(.private).modifyRecordZones(saving: [zone])
        _ = try store.database(.private).modifyRecords(saving: (0..<10).map { index in
            Record(recordType: "Note", recordID: RecordID(recordName: "n\(index)", zoneID: zone), fields: ["title": .string("note \(index)")])
        }).savedRecords()
        let apiToken = try store.makeAPIToken(container: ServerHarness.container)
        let webAuthToken = try store.makeWebAuthToken(container: ServerHarness.container, user: store.owner)
        let server = try await ServerHarness(source: { _ in .opened(store, container: nil) })
        let names = (0..<10).map { #"{"recordName": "n\#($0)"}"# }.joined(separator: ", ")
        let body = #"{"zoneID": {"zoneName": "Notes"}, "records": [\#(names)]}"#
        // The fewest statements of several lookups: the request log's flush, every 200 ms,
        // writes in between now and then. Each starts after the last one's entry is written
        // (on a loaded machine a lookup can take longer than the flush interval, so without
        // the wait every lookup met the previous one's flush).
        var fewest = Int.max
        for _ in 0..<6 {
            try await Task.sleep(for: .milliseconds(450))
            let before = backend.statementsSent
            let reply = try await server.call("private", "records/lookup", body, apiToken: apiToken, webAuthToken: webAuthToken)
            let sent = backend.statementsSent - before
            #expect(reply.status == 200)
            #expect(reply.records.count == 10)
            #expect(reply.records.compactMap { $0["recordName"] as? String } == (0..<10).map { "n\($0)" })
            fewest = min(fewest, sent)
        }
        await server.stop()
        // BEGIN, the schema's version (the environment and every catalog look), the zone, the
        // names, the caller's two share lists, COMMIT: seven. Read apart, the environment, the
        // records, the shares and the types took 15.
        #expect(fewest <= 8, "a lookup of 10 sent \(fewest) statements")
    }
}
