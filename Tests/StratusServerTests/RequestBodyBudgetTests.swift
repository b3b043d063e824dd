import Foundation
import StratusEngine
@testable import StratusServer
import StratusTestSupport
import Testing

/// A flush spends a bounded time on bodies, newest first: past it the older requests of a busy
/// batch keep their entries without bodies, yet the newest keeps its own however late the
/// flush starts.
@Suite struct RequestBodyBudgetTests {
    private func entry(_ endpoint: String) -> RequestLogEntry {
        RequestLogEntry(time: Date(), user: nil, container: "iCloud.test", database: "private", endpoint: endpoint, status: 200,
                        durationMicroseconds: 100, error: nil)
    }

    private func body(_ text: String) -> RequestLogger.PendingBodies {
        RequestLogger.PendingBodies(request: Data(#"{"query": "\#(text)"}"#.utf8), response: Array(#"{"records": []}"#.utf8))
    }

    @Test func withNoTimeLeftOnlyTheNewestBodyIsKept() throws {
        let temp = try TemporaryStore()
        let logger = RequestLogger(bodyBudget: .zero)
        for name in ["first", "second", "third"] {
            logger.record(entry("records/\(name)"), bodies: body(name), in: temp.store)
        }
        logger.flush()
        let logged = try temp.store.requestLog(limit: 10)
        #expect(logged.map(\.endpoint) == ["records/first", "records/second", "records/third"], "every entry is kept")
        let kept = try logged.map { try temp.store.requestBodies(of: $0.id)?.request }
        #expect(kept[0] == nil && kept[1] == nil, "the older bodies went without: \(kept)")
        #expect(kept[2]?.contains("third") == true, "the newest body is kept: \(kept)")
    }

    @Test func withTimeEnoughEveryHeldBodyIsKept() throws {
        let temp = try TemporaryStore()
        let logger = RequestLogger(bodyBudget: .seconds(60))
        for name in ["first", "second", "third"] {
            logger.record(entry("records/\(name)"), bodies: body(name), in: temp.store)
        }
        logger.flush()
        let kept = try temp.store.requestLog(limit: 10).map { try temp.store.requestBodies(of: $0.id)?.request }
        #expect(kept.count == 3 && kept.allSatisfy { $0 != nil }, "\(kept)")
    }
}
