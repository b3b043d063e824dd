import Foundation
import StratusCloud
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusSQLite
import StratusTerminal
import Testing

/// The Logs tab: the server's requests as they are logged, following the newest.
@Suite struct LogsTabTests {
    @Test func requestsShowAsTheyAreLoggedWithWhatTheySaved() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 120, height: 30))
        let store = harness.store
        harness.press(.char("8"))
        #expect(harness.screen().contains("No requests yet"))
        let alice = try store.createUser(alias: "alice")
        try store.appendToRequestLog([
            RequestLogEntry(time: Date(), user: alice.recordName, container: "iCloud.x", database: "private", endpoint: "records/modify",
                            status: 200, durationMicroseconds: 2_500, error: nil, detail: "saved 旅行-1, trip-2"),
            RequestLogEntry(time: Date(), user: nil, container: "iCloud.x", database: "public", endpoint: "records/modify",
                            status: 421, durationMicroseconds: 300, error: "AUTHENTICATION_REQUIRED: request needs authorization"),
        ])
        harness.pollLogs()
        let screen = harness.screen()
        #expect(screen.contains("records/modify"))
        #expect(screen.contains("saved 旅行-1, trip-2"))
        #expect(screen.contains("AUTHENTICATION_REQUIRED"))
        #expect(screen.contains("no user"))
        #expect(harness.state.logs.list.selected == 1, "the selection follows the newest")
        // Later requests arrive at the next poll.
        try store.appendToRequestLog([RequestLogEntry(time: Date(), user: nil, container: "iCloud.x", database: "public",
                                                      endpoint: "records/query", status: 200, durationMicroseconds: 900, error: nil)])
        harness.pollLogs()
        #expect(harness.state.logs.entries.map(\.endpoint) == ["records/modify", "records/modify", "records/query"])
        #expect(harness.state.logs.list.selected == 2)
        harness.press(.char("y"))
        #expect(harness.copied.withLock { $0 }.last?.contains("records/query") == true)
        harness.press(.char("x"))
        #expect(harness.state.logs.entries.isEmpty)
    }
}

/// The filter editor shows the query as a Web Services client would send it, and copies it.
@Suite struct FilterEditorWebServicesTests {
    @Test func theCheckedFilterComesWithItsFilterByJSON() throws {
        let harness = try Harness(size: Size(width: 120, height: 30))
        harness.press(.char("f"), .tab)
        harness.type("nights > 3")
        let check = try #require(harness.state.topModal.flatMap { modal -> FilterCheck? in
            if case .filterEditor(let editor) = modal { return editor.check }
            return nil
        })
        let web = try #require(check.ckws)
        #expect(web.contains(#""filterBy""#))
        #expect(web.contains(#""GREATER_THAN""#))
        #expect(web.contains(#""nights""#))
        #expect(harness.screen().contains("CKWS: {"))
        harness.press(.ctrl("y"))
        #expect(harness.copied.withLock { $0 }.last == web)
    }
}

/// The Schema tab compares the store's schema with a `.ckdb` file, saying what CloudKit would
/// refuse to deploy.
@Suite struct SchemaDiffViewTests {
    @Test func aFileWithATypeTheStoreLacksShowsARefusedRemoval() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 120, height: 30))
        let file = harness.directory.appendingPathComponent("production.ckdb")
        var document = try harness.store.exportSchema()
        document.recordTypes.append(RecordTypeDeclaration(name: "Legacy", grants: []))
        try document.text.write(to: file, atomically: true, encoding: .utf8)
        harness.press(.char("5"), .char("v"))
        guard case .textInput? = harness.state.topModal else {
            Issue.record("no path dialog")
            return
        }
        harness.press(.ctrl("u"))
        harness.type(file.path)
        harness.press(.enter)
        let diff = try #require(harness.state.schemaTab.diff)
        #expect(diff.changes.contains { $0.deployRefusal != nil && $0.description.contains("Legacy") })
        let screen = harness.screen()
        #expect(screen.contains("From production.ckdb to this store"))
        #expect(screen.contains("refused in production"))
        harness.press(.char("v"))
        #expect(harness.state.schemaTab.diff == nil, "v goes back to the schema")
        #expect(harness.screen().contains("QUERYABLE") || harness.screen().contains("record type / field"))
        // A file that is not a schema is an error in the status line, naming the line.
        try "DEFINE SCHEMA RECORD TYPE (".write(to: file, atomically: true, encoding: .utf8)
        harness.press(.char("v"), .ctrl("u"))
        harness.type(file.path)
        harness.press(.enter)
        #expect(harness.state.schemaTab.diff == nil)
        #expect(harness.state.status?.text.contains("production.ckdb:1:") == true)
    }
}

/// The Schema tab compares with another store, read without writing it.
@Suite struct SchemaDiffWithStoreTests {
    @Test func anotherStoresSchemaIsReadAsItIs() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 120, height: 30))
        let otherPath = harness.directory.appendingPathComponent("production.sqlite").path
        let other = try Store(path: otherPath, creatingWith: .production)
        _ = try other.importSchema(text: "DEFINE SCHEMA RECORD TYPE Legacy (title STRING);")
        let before = try FileManager.default.attributesOfItem(atPath: otherPath)[.modificationDate] as? Date
        harness.press(.char("5"), .char("v"), .ctrl("u"))
        harness.type(otherPath)
        harness.press(.enter)
        let diff = try #require(harness.state.schemaTab.diff)
        #expect(diff.changes.contains { $0.description.contains("Legacy") && $0.deployRefusal != nil })
        #expect(harness.screen().contains("From production.sqlite to this store"))
        #expect(try FileManager.default.attributesOfItem(atPath: otherPath)[.modificationDate] as? Date == before, "the other store is not written")
        #expect(throws: CloudKitError.self) { try Store.exportSchema(ofStoreAt: harness.directory.appendingPathComponent("nope.sqlite").path) }
    }
}
