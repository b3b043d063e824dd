import Foundation
import StratusCloud
import StratusEngine
@testable import StratusPostgres
import StratusTestSupport
import Testing

/// A PostgreSQL store made by an earlier Stratus is brought to this format when it opens; one
/// made by a newer Stratus is refused, saying so.
@Suite struct PostgresUpgradeTests {
    @Test func anEarlierStoreIsUpgradedAndANewerOneRefused() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let location = try PostgresLocation(url: url)
        do {
            let store = try Store.postgres(url, creating: true)
            try store.appendToRequestLog([Self.entry("before")])
        }
        // As the first PostgreSQL stores were: no table of request bodies.
        try Self.run(location, "DROP TABLE request_body;\nUPDATE store_info SET format_version = 1")
        let upgraded = try Store.postgres(url, creating: false)
        try upgraded.appendToRequestLog([Self.entry("after", bodies: RequestBodies(request: "{}", response: "東京"))])
        let last = try #require(try upgraded.requestLog().last)
        #expect(last.endpoint == "after")
        #expect(try upgraded.requestBodies(of: last.id)?.response == "東京")
        #expect(try upgraded.requestLog().map(\.endpoint) == ["before", "after"], "the rows it had are kept")

        try Self.run(location, "UPDATE store_info SET format_version = 99")
        #expect {
            _ = try Store.postgres(url, creating: false)
        } throws: { error in
            (error as? CloudKitError)?.code == .incompatibleVersion && "\(error)".contains("newer Stratus")
        }
    }

    static func entry(_ endpoint: String, bodies: RequestBodies? = nil) -> RequestLogEntry {
        RequestLogEntry(time: Date(), user: "_u", container: "iCloud.x", database: "private", endpoint: endpoint,
                        status: 200, durationMicroseconds: 1, error: nil, bodies: bodies)
    }

    static func run(_ location: PostgresLocation, _ script: String) throws {
        let link = try PostgresLink.connect(to: location)
        defer { link.close() }
        try link.script("SET search_path TO \"\(location.schema)\";\n" + script)
    }
}
