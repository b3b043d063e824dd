import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

/// On a remote the filter check has no schema: the field types learned from the records read
/// stand in for it, so a value that does not fit a known field is refused as it is locally.
@Suite struct LearnedFilterCheckTests {
    @Test func theCheckEffectCarriesTheLearnedTypesOnARemoteOnly() throws {
        let harness = try Harness(records: Fixtures.trips(3), service: { RemoteLike(base: $0) }, remote: RemoteDashboardTests.development)
        var state = harness.state
        let editor = FilterEditorState(recordType: "Trip", fields: [], text: "nights > 'x'")
        guard case .query(.checkFilter(_, _, _, _, let learned))? = FilterEditor.checkFilter(&state, editor).first else {
            Issue.record("no check asked for")
            return
        }
        #expect(learned["nights"] == .int64)
        #expect(learned == state.schema(named: "Trip")?.fields.mapValues(\.type))
        // A local store's check reads the store's schema itself.
        var local = try Harness(records: Fixtures.trips(3)).state
        guard case .query(.checkFilter(_, _, _, _, let none))? = FilterEditor.checkFilter(&local, editor).first else {
            Issue.record("no check asked for")
            return
        }
        #expect(none.isEmpty)
    }

    @Test func aLearnedTypeRefusesAValueThatDoesNotFitIt() throws {
        let harness = try Harness(records: Fixtures.trips(3))
        let runner = CloudQueryRunner(cloud: LocalCloudService(store: harness.store, device: "test"))
        let refused = runner.check(filter: "nights > 'x'", arguments: [], recordType: "Trip", learnedTypes: ["nights": .int64])
        #expect(!refused.isValid)
        #expect(refused.problems == runner.check(filter: "nights > 'x'", arguments: [], recordType: "Trip", learnedTypes: [:]).problems)
        // Unknown to what was learned: typed by its value, as without a schema.
        #expect(runner.check(filter: "nights > 'x'", arguments: [], recordType: "Trip", learnedTypes: ["title": .string]).isValid)
        #expect(runner.check(filter: "nights > 3", arguments: [], recordType: "Trip", learnedTypes: ["nights": .int64]).isValid)
    }
}
