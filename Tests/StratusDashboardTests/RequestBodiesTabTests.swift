import Foundation
import StratusCloud
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing

/// Enter on a Logs line shows what the request sent and what the server answered, whole
/// (wrapped, scrolled), as the server kept them for its newest requests.
@Suite struct RequestBodiesTabTests {
    static let longTitle = String(repeating: "東京 Paris 🥐 ", count: 20) + "END"

    @Test func enterShowsTheRequestAndTheResponse() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 80, height: 24))
        let request = "{\n  \"operations\": [\n    {\n      \"title\": \"\(Self.longTitle)\"\n    }\n  ]\n}"
        let response = (["{", "  \"records\": ["] + (0..<40).map { "    {\"recordName\": \"trip-\($0)\"}," } + ["  ]", "}"]).joined(separator: "\n")
        try harness.store.appendToRequestLog([
            RequestLogEntry(time: Date(), user: nil, container: "iCloud.x", database: "private", endpoint: "records/query",
                            status: 200, durationMicroseconds: 1_500, error: nil),
            RequestLogEntry(time: Date(), user: nil, container: "iCloud.x", database: "private", endpoint: "records/modify",
                            status: 200, durationMicroseconds: 2_500, error: nil, bodies: RequestBodies(request: request, response: response)),
        ])
        harness.press(.char("8"))
        harness.pollLogs()
        harness.press(.enter)
        guard case .requestBodies(let shown)? = harness.state.topModal else {
            Issue.record("no bodies: \(harness.state.status?.text ?? "")")
            return
        }
        #expect(shown.entry.endpoint == "records/modify")
        let screen = harness.screen()
        #expect(screen.contains("private records/modify · 200 · 2 ms"))
        #expect(screen.contains("Request"))
        // The long value is wrapped, not cut: every piece of it is on screen.
        let shownText = screen.replacingOccurrences(of: "│", with: "").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(shownText.contains("END"))
        #expect(screen.contains("↓ more"))
        harness.press(.char("G"))
        #expect(harness.screen().contains("trip-39"))
        #expect(!harness.screen().contains("↓ more"))
        harness.press(.char("g"))
        #expect(harness.screen().contains("Request"))
        harness.press(.char("y"))
        #expect(harness.copied.withLock { $0 }.last == response)
        harness.press(.char("Y"))
        #expect(harness.copied.withLock { $0 }.last == request)
        harness.press(.escape)
        #expect(harness.state.modals.isEmpty)
        // An entry whose bodies were not kept says so.
        harness.press(.char("k"), .enter)
        #expect(harness.state.modals.isEmpty)
        #expect(harness.state.status?.text == "No bodies kept for this request: the server keeps those of its newest \(Store.keptRequestBodies), and under load of the last few of each moment only.")
    }
}
