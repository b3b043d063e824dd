import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard
import StratusCloud

/// A status-line message belongs to the action that made it: the next success replaces it.
@Suite struct StatusLifetimeTests {
    @Test func aRefusedFilterMessageEndsWhenTheCorrectedFilterApplies() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        harness.press(.char("f"), .tab)
        harness.type(#"nights == "x""#)
        harness.press(.ctrl("s"))
        #expect(harness.state.status?.text.hasPrefix("Not applied") == true)
        for _ in 0..<3 { harness.press(.backspace) }
        harness.type("3")
        harness.press(.ctrl("s"))
        #expect(harness.state.query.filter == "nights == 3")
        #expect(harness.state.status?.text.contains("Not applied") != true)
    }

    @Test func aRefusedFilterMessageEndsWhenTheNextQuerySucceeds() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        harness.press(.char("f"), .tab)
        harness.type(#"nights == "x""#)
        harness.press(.ctrl("s"), .escape)
        #expect(harness.state.status?.kind == .error)
        harness.press(.char("r"))
        #expect(harness.state.status == nil, "\(String(describing: harness.state.status))")
    }

    @Test func theTypeFallbackMessageEndsWithTheNextChoice() throws {
        var place = Record(recordType: "Place", recordID: RecordID(recordName: "p1", zoneID: ZoneID(zoneName: "Elsewhere")))
        place["name"] = .string("東京")
        let harness = try Harness(records: Fixtures.trips(5) + [place])
        try harness.selectZone(named: "Elsewhere")
        harness.press(.enter)
        #expect(harness.state.zone.zoneName == "Elsewhere")
        #expect(harness.state.query.recordType == "Place")
        #expect(harness.state.status?.text.hasPrefix("No Trip records in Elsewhere") == true)
        harness.press(.char("t"))
        guard case .picker(let picker)? = harness.state.topModal else { Issue.record("no type picker"); return }
        let trip = try #require(picker.items.firstIndex { $0.label == "Trip" })
        harness.press(.char("g"))
        for _ in 0..<trip { harness.press(.down) }
        harness.press(.enter)
        #expect(harness.state.query.recordType == "Trip")
        #expect(harness.state.status?.text.contains("showing") != true, "\(String(describing: harness.state.status))")
    }

    @Test func aFaultsErrorEndsWhenTheQueryNextSucceeds() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        _ = try harness.store.addFault(Fault(kind: .zoneBusy, zoneName: "Travel", operation: .query, trigger: .once, retryAfter: 1,
                                             clients: [.dashboard]))
        harness.press(.char("r"))
        #expect(harness.state.status?.text.contains("zoneBusy") == true)
        harness.press(.char("r"))
        #expect(!harness.state.query.records.isEmpty)
        #expect(harness.state.status == nil, "\(String(describing: harness.state.status))")
    }

    @Test func aFailedFollowEndsWhenAFollowSucceeds() throws {
        let zone = ZoneID(zoneName: "Travel")
        var from = Record(recordType: "Trip", recordID: RecordID(recordName: "a-from", zoneID: zone))
        from["gone"] = .reference(Reference(recordName: "no-such-trip"))
        from["there"] = .reference(Reference(recordName: "b-to"))
        let to = Record(recordType: "Trip", recordID: RecordID(recordName: "b-to", zoneID: zone))
        let harness = try Harness(records: [from, to])
        harness.press(.char("g"), .enter)
        func follow(_ name: String) throws {
            guard case .inspector(let inspector)? = harness.state.topModal else { Issue.record("no inspector"); return }
            let rows = InspectorRows.rows(inspector.record, schema: harness.state.schema(named: "Trip"))
            let index = try #require(rows.firstIndex { $0.name == name })
            harness.press(.char("g"))
            for _ in 0..<index { harness.press(.down) }
            harness.press(.enter)
        }
        try follow("gone")
        #expect(harness.state.status?.kind == .error)
        try follow("there")
        guard case .inspector(let opened)? = harness.state.topModal else { Issue.record("no inspector"); return }
        #expect(opened.record.recordName == "b-to")
        #expect(harness.state.status == nil, "\(String(describing: harness.state.status))")
    }

    /// On another tab too: a refresh that works ends the error of the one that failed.
    @Test func aZonesErrorEndsWhenTheZonesNextLoad() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        harness.press(.char("4"))
        _ = try harness.store.addFault(Fault(kind: .zoneBusy, operation: .zones, trigger: .once, retryAfter: 1, clients: [.dashboard]))
        harness.press(.char("r"))
        #expect(harness.state.status?.text.contains("zoneBusy") == true)
        harness.press(.char("r"))
        #expect(harness.state.status == nil, "\(String(describing: harness.state.status))")
    }
}
