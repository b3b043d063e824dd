import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard
import StratusCloud

/// The Core Data / SwiftData lens in the inspector: on by itself in Core Data's zone, `L`
/// toggles it; a to-one relationship and a many-to-many link are followed with Enter.
@Suite struct CoreDataLensTabTests {
    private func harness(type: String) throws -> Harness {
        try Harness(size: Size(width: 120, height: 40), zone: CoreDataLens.zoneName, recordType: type, demo: false) { store in
            var builder = CoreDataDemoBuilder(recordCount: 60)
            try builder.build(into: store)
        }
    }

    private func inspected(_ harness: Harness) -> Record? {
        if case .inspector(let inspector)? = harness.state.topModal { return inspector.record }
        return nil
    }

    /// The inspector's rows as it draws them (with the relationships it read).
    private func shownRows(_ harness: Harness) throws -> [InspectorRow] {
        guard case .inspector(let inspector)? = harness.state.topModal else { throw CancellationError() }
        return InspectorRows.rows(inspector.record, schema: harness.state.schema(named: inspector.record.recordType),
                                  lens: harness.state.coreDataLensActive, graph: inspector.graph)
    }

    /// Moves the inspector's selection to the first row satisfying `matches` and presses Enter.
    private func follow(_ harness: Harness, where matches: (InspectorRow) -> Bool) throws -> String {
        let rows = try shownRows(harness)
        let found = rows.firstIndex(where: matches)
        let index = try #require(found)
        harness.press(.char("g"))
        for _ in 0..<index { harness.press(.down) }
        let target = try #require(rows[index].reference)
        harness.press(.enter)
        return target
    }

    @Test func aToOneRelationshipIsFollowed() throws {
        let harness = try harness(type: "CD_Trip")
        #expect(harness.state.coreDataLensActive, "on by itself in com.apple.coredata.cloudkit.zone")
        harness.press(.enter)
        let trip = try #require(inspected(harness))
        let screen = harness.screen()
        #expect(screen.contains("Core Data lens"))
        #expect(screen.contains("ENTITY"))
        #expect(!screen.contains("CD_title"), "attributes without the CD_ prefix")
        // A trip's owner is a to-one relationship (its `CD_id` is a UUID attribute of the same shape).
        let target = try follow(harness) { $0.name == "owner" && $0.type == "TO-ONE" }
        let related = try #require(inspected(harness))
        #expect(related.recordName == target)
        #expect(related.recordName != trip.recordName)
        #expect(CoreDataLens.entity(related)?.name == "Owner")
        // Off: the record as CloudKit stores it.
        harness.press(.char("L"))
        #expect(!harness.state.coreDataLensActive)
        #expect(harness.screen().contains("CD_"))
    }

    @Test func aManyToManyLinkIsFollowedToEitherEnd() throws {
        let harness = try harness(type: CoreDataLens.joinRecordType)
        harness.press(.enter)
        let join = try #require(inspected(harness))
        let link = try #require(CoreDataLens.link(join))
        #expect(harness.screen().contains("MANY-TO-MANY"))
        #expect(harness.screen().contains("\(link.first.entity).\(link.first.relationship) ↔ \(link.second.entity).\(link.second.relationship)"))
        let target = try follow(harness) { $0.type == "END" && $0.reference == link.second.recordName }
        #expect(inspected(harness)?.recordName == target)
        #expect(inspected(harness).flatMap(CoreDataLens.entity)?.name == link.second.entity)
    }

    /// A trip's `CD_id` is a UUID attribute, not a relationship: it shows as a STRING and Enter
    /// on it opens nothing (it used to fail with unknownItem).
    @Test func aUUIDAttributeIsNotARelationship() throws {
        let harness = try harness(type: "CD_Trip")
        harness.press(.enter)
        let id = try #require(try shownRows(harness).first { $0.name == "id" })
        #expect(id.type == "STRING")
        #expect(id.reference == nil)
        let index = try #require(try shownRows(harness).firstIndex { $0.name == "id" })
        harness.press(.char("g"))
        for _ in 0..<index { harness.press(.down) }
        harness.press(.enter)
        #expect(harness.state.status?.kind != .error)
        #expect(!harness.screen().contains("unknownItem"))
    }

    /// The one side of Trip.owner stores nothing; the owner still lists its trips, each
    /// followable, and a trip lists its places through CDMR.
    @Test func inverseAndManyToManyRelationshipsShowOnBothEnds() throws {
        let harness = try harness(type: "CD_Trip")
        harness.press(.enter)
        _ = try follow(harness) { $0.name == "owner" && $0.type == "TO-ONE" }
        let owner = try #require(inspected(harness))
        #expect(harness.screen().contains("← Trip.owner"))
        let trip = try follow(harness) { $0.name == "  ← Trip.owner" && $0.reference != nil }
        #expect(inspected(harness)?.recordName == trip)
        #expect(try shownRows(harness).first { $0.name == "owner" }?.reference == owner.recordName)

        let join = try Harness(size: Size(width: 120, height: 40), zone: CoreDataLens.zoneName, recordType: CoreDataLens.joinRecordType,
                               demo: false) { store in
            var builder = CoreDataDemoBuilder(recordCount: 60)
            try builder.build(into: store)
        }
        join.press(.enter)
        let link = try #require(inspected(join).flatMap(CoreDataLens.link))
        _ = try follow(join) { $0.reference == link.second.recordName }
        #expect(try shownRows(join).contains { $0.name == "  \(link.second.relationship)" && $0.reference == link.first.recordName })
        _ = try follow(join) { $0.name == "  \(link.second.relationship)" && $0.reference == link.first.recordName }
        #expect(try shownRows(join).contains { $0.name == "  \(link.first.relationship)" && $0.reference == link.second.recordName })
    }
}
