import Foundation
@testable import StratusEngine
import StratusModel
import Testing
import StratusTestSupport
import StratusCloud

/// The sync lab's promise, as a property over seeds: under any fault plan, with another device
/// writing, history compacted under the client's feet, small pages in any order, a client
/// written to CloudKit's rules (`SyncClient`) ends holding exactly the store's records, with
/// none of its edits lost.
@Suite(.onEveryBackend) struct SyncUnderFaultsPropertyTests {
    static let seeds: [UInt64] = Array(1...40)

    /// A plan of one to four faults; the seed's own kind is always among them, so every kind
    /// is met across the seeds.
    static func plan(seed: UInt64, random: inout SeededGenerator) -> [Fault] {
        let kinds = FaultKind.allCases
        var chosen = [kinds[Int(seed) % kinds.count]]
        for _ in 0..<random.below(4) { chosen.append(kinds[random.below(kinds.count)]) }
        return chosen.map { kind in
            let p = 0.1 + Double(random.below(30)) / 100
            let trigger: FaultTrigger
            switch random.below(3) {
            case 0: trigger = .after(random.below(6))
            case 1: trigger = .every(2 + random.below(4))
            default: trigger = .probability(p, seed: random.next())
            }
            switch kind {
            case .limitExceeded:
                return Fault(kind: kind, trigger: .every(1), itemLimit: 1 + random.below(4))
            case .changeTokenExpired:
                // An expiry is an event: a plan expiring a share of all tokens would expire the
                // pages of the refetch too, and no client could finish (as no client of a
                // CloudKit doing that could).
                return Fault(kind: kind, operation: .zoneChanges, trigger: .after(random.below(8)))
            case .serverRecordChanged:
                let title = #"{"title": {"value": "other device \#(random.below(1000))"}}"#
                return Fault(kind: kind, trigger: trigger, otherDeviceFields: random.below(2) == 0 ? title : nil)
            default:
                return Fault(kind: kind, trigger: trigger, retryAfter: Double(1 + random.below(20)))
            }
        }
    }

    @Test(arguments: seeds) func clientEndsWithExactlyTheStoresRecords(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed &* 7919)
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let world = temp.store.database(.private, device: "world").withoutFaults
        let client = SyncClient(database: temp.store.database(.private, device: "client"), zone: zone,
                                pageSize: 1 + random.below(7), order: PlaybackOrder.allCases[random.below(PlaybackOrder.allCases.count)],
                                seed: seed)
        // A start both sides share.
        _ = try world.modifyRecords(saving: (0..<6).map { index in
            Record(recordType: "Note", recordID: RecordID(recordName: "r\(index)", zoneID: zone),
                   fields: ["title": .string("start \(index)"), "n": .int64(Int64(index))])
        }).savedRecords()
        try client.pull()
        let faults = try Self.plan(seed: seed, random: &random).map { try temp.store.addFault($0) }
        var lastLocalEdit: [String: Int64] = [:]

        for round in 0..<8 {
            for _ in 0..<(1 + random.below(4)) {
                let name = "r\(random.below(12))"
                switch random.below(5) {
                case 0: client.delete(name)
                default:
                    let value = Int64(round * 100 + random.below(100))
                    client.edit(name, ["n": .int64(value)])
                    lastLocalEdit[name] = value
                }
            }
            for _ in 0..<random.below(3) {
                let name = "r\(random.below(12))"
                if random.below(4) == 0 {
                    _ = try? world.modifyRecords(deleting: [RecordID(recordName: name, zoneID: zone)])
                } else {
                    var record = (try? world.record(for: RecordID(recordName: name, zoneID: zone)))
                        ?? Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
                    record["title"] = .string("world \(round)")
                    _ = try world.modifyRecords(saving: [record], savePolicy: .changedKeys)
                }
            }
            if random.below(4) == 0 { _ = try world.compactHistory(inZoneWith: zone, keeping: random.below(5)) }
            if random.below(3) > 0 { try client.push() }
            try client.pull()
        }
        try client.push()
        try client.pull()

        #expect(client.pending.isEmpty)
        let server = try world.recordZoneChanges(inZoneWith: zone, resultsLimit: CloudDatabase.maximumChangesLimit)
        var stored: [String: Record] = [:]
        for case .changed(let record) in server.changes { stored[record.recordName] = record }
        #expect(Set(client.cache.keys) == Set(stored.keys), "seed \(seed): client \(client.cache.keys.sorted()), store \(stored.keys.sorted())")
        for (name, record) in stored {
            #expect(client.cache[name]?.fields == record.fields, "seed \(seed): \(name)")
            #expect(client.cache[name]?.recordChangeTag == record.recordChangeTag, "seed \(seed): \(name)")
        }
        // The seed's own kind fired (so across the seeds every kind did), and the client
        // waited when told to.
        let own = try #require(try temp.store.faults().first { $0.id == faults[0].id })
        #expect(own.fired > 0, "seed \(seed): \(own.summary) never fired (\(own.seen) matching calls)")
        if [.requestRateLimited, .zoneBusy, .serviceUnavailable, .partialFailure].contains(own.kind) { #expect(client.waited > 0) }
    }
}
