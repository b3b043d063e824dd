import Foundation
import StratusEngine
import Testing
import StratusTestSupport

@Suite(.onEveryBackend) struct RequestLogTests {
    private func entry(_ endpoint: String, status: Int = 200) -> RequestLogEntry {
        RequestLogEntry(time: Date(), user: "_u", container: "iCloud.x", database: "private", endpoint: endpoint,
                        status: status, durationMicroseconds: 1234, error: status == 200 ? nil : "BAD_REQUEST: no")
    }

    @Test func entriesComeBackInOrderAndFollowOn() throws {
        let temp = try TemporaryStore()
        try temp.store.appendToRequestLog([entry("records/query"), entry("zones/list", status: 400)])
        let all = try temp.store.requestLog()
        #expect(all.map(\.endpoint) == ["records/query", "zones/list"])
        #expect(all.last?.error == "BAD_REQUEST: no")
        #expect(all.first?.durationMicroseconds == 1234)
        try temp.store.appendToRequestLog([entry("records/modify")])
        #expect(try temp.store.requestLog(after: all.last!.id).map(\.endpoint) == ["records/modify"])
        #expect(try temp.store.requestLog(limit: 1).map(\.endpoint) == ["records/modify"])
    }

    @Test func onlyTheNewestTenThousandAreKept() throws {
        let temp = try TemporaryStore()
        for batch in 0..<11 {
            try temp.store.appendToRequestLog((0..<1000).map { entry("e\(batch * 1000 + $0)") })
        }
        let kept = try temp.store.requestLog(limit: 20_000)
        #expect(kept.count == 10_000)
        #expect(kept.first?.endpoint == "e1000")
        #expect(kept.last?.endpoint == "e10999")
    }
}

/// Bodies are kept apart from the log's entries, for the newest requests only.
@Suite(.onEveryBackend) struct RequestBodiesStorageTests {
    @Test func onlyTheNewestRequestsKeepTheirBodies() throws {
        let temp = try TemporaryStore()
        let total = Store.keptRequestBodies + 50
        for batch in 0..<(total / 50) {
            try temp.store.appendToRequestLog((0..<50).map { index in
                let number = batch * 50 + index
                return RequestLogEntry(time: Date(), user: "_u", container: "iCloud.x", database: "private", endpoint: "e\(number)",
                                       status: 200, durationMicroseconds: 1, error: nil,
                                       bodies: RequestBodies(request: "{\"n\": \(number)}", response: "東京 \(number)"))
            })
        }
        let entries = try temp.store.requestLog(limit: total)
        #expect(entries.count == total)
        #expect(entries.allSatisfy { $0.bodies == nil })
        let kept = try entries.filter { try temp.store.requestBodies(of: $0.id) != nil }
        #expect(kept.count == Store.keptRequestBodies)
        #expect(kept.first?.endpoint == "e50")
        let last = try #require(entries.last)
        #expect(try temp.store.requestBodies(of: last.id) == RequestBodies(request: "{\"n\": \(total - 1)}", response: "東京 \(total - 1)"))
    }
}
