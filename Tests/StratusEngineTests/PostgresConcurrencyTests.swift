import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusTestSupport
import Testing

/// Several servers on one PostgreSQL database: writers on their own connections (each store
/// handle has its own pool, as another process has) while a reader takes change tokens. A
/// zone's sequence must follow commit order, or the reader could take a token past a change
/// that commits later and never see it; two saves of one record with one change tag must
/// leave exactly one winner.
@Suite struct PostgresConcurrencyTests {
    static let writers = 4
    static let savesPerWriter = 20

    /// Every record saved by concurrent writers reaches a reader that plays the zone back from
    /// its last token while they write, exactly once; and the zone's sequences are 1...n, each
    /// taken once (no two writers took the same number, none was skipped).
    @Test func aReaderTakingTokensDuringConcurrentWritesSeesEveryChangeExactlyOnce() throws {
        try TestBackend.$current.withValue(.postgres) {
            let temp = try TemporaryStore()
            let zone = try temp.zone("Busy")
            let handles = try (0...Self.writers).map { _ in try temp.reopened() }
            let done = Locked(0)
            let failures = Locked<[String]>([])
            let seen = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: Self.writers + 1) { index in
                do {
                    if index == Self.writers {
                        try Self.follow(zone, in: handles[index].database(.private), until: { done.value == Self.writers }, into: seen)
                        return
                    }
                    defer { done.update { $0 += 1 } }
                    let db = handles[index].database(.private)
                    for save in 0..<Self.savesPerWriter {
                        // One or two records per save, so transactions hold different numbers of sequences.
                        let records = (0...(save % 2)).map { part in
                            Record(recordType: "Note", recordID: RecordID(recordName: "w\(index)-\(save)-\(part)", zoneID: zone),
                                   fields: ["n": .int64(Int64(save))])
                        }
                        let result = try db.modifyRecords(saving: records)
                        for saved in result.saveResults { _ = try saved.result.get() }
                    }
                } catch {
                    failures.update { $0.append("\(index): \(error)") }
                }
            }
            #expect(failures.value.isEmpty, "\(failures.value)")
            let expected = Self.writers * (Self.savesPerWriter / 2) * 3
            let names = seen.value
            #expect(names.count == expected, "the reader saw \(names.count) changes of \(expected)")
            #expect(Set(names).count == names.count, "a change was seen twice")
            let owner = temp.store.backend.info.owner
            let zoneRow = try #require(try temp.store.read { try $0.zones.all(scope: .private, owner: owner) }.first { $0.zoneID.zoneName == "Busy" })
            var sequences: [Int64] = []
            try temp.store.read { db in try db.records.forEach(zoneRowID: zoneRow.id) { sequences.append($0.sequence) } }
            #expect(sequences.sorted() == Array(1...Int64(expected)))
            #expect(zoneRow.changeSequence == Int64(expected))
        }
    }

    /// Zones made by concurrent writers all reach a reader of the database's changes that takes
    /// tokens while they are made.
    @Test func aReaderOfDatabaseChangesDuringConcurrentWritesMissesNoZone() throws {
        try TestBackend.$current.withValue(.postgres) {
            let temp = try TemporaryStore()
            let handles = try (0...Self.writers).map { _ in try temp.reopened() }
            let done = Locked(0)
            let failures = Locked<[String]>([])
            let seen = Locked<Set<String>>([])
            DispatchQueue.concurrentPerform(iterations: Self.writers + 1) { index in
                do {
                    if index == Self.writers {
                        let db = handles[index].database(.private)
                        var token: String?
                        var finished = false
                        while !finished {
                            finished = done.value == Self.writers
                            var more = true
                            while more {
                                let page = try db.databaseChanges(since: token)
                                seen.update { $0.formUnion(page.changedZoneIDs.map(\.zoneName)) }
                                token = page.changeToken
                                more = page.moreComing
                            }
                        }
                        return
                    }
                    defer { done.update { $0 += 1 } }
                    for zone in 0..<Self.savesPerWriter {
                        try handles[index].database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "z\(index)-\(zone)")])
                    }
                } catch {
                    failures.update { $0.append("\(index): \(error)") }
                }
            }
            #expect(failures.value.isEmpty, "\(failures.value)")
            let made = Set((0..<Self.writers).flatMap { index in (0..<Self.savesPerWriter).map { "z\(index)-\($0)" } })
            #expect(made.subtracting(seen.value).isEmpty, "zones never reported: \(made.subtracting(seen.value).sorted())")
        }
    }

    /// Two servers save the same record, both from the same change tag, at once: exactly one
    /// wins, the other gets serverRecordChanged, round after round.
    @Test func twoSavesOfOneRecordWithOneTagLeaveExactlyOneWinner() throws {
        try TestBackend.$current.withValue(.postgres) {
            let temp = try TemporaryStore()
            let zone = try temp.zone("Race")
            let handles = try (0..<2).map { _ in try temp.reopened() }
            var current = try temp.privateDB.save(Record(recordType: "Note", recordID: RecordID(recordName: "contested", zoneID: zone),
                                                         fields: ["by": .string("nobody")]))
            for round in 0..<15 {
                let base = current
                let outcomes = Locked<[Int: Result<Record, CloudKitError>]>([:])
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    var edited = base
                    edited["by"] = .string("server \(index) round \(round)")
                    let outcome: Result<Record, CloudKitError>
                    do {
                        outcome = try handles[index].database(.private).modifyRecords(saving: [edited]).saveResults[0].result
                    } catch let error as CloudKitError {
                        outcome = .failure(error)
                    } catch {
                        outcome = .failure(CloudKitError(.internalError, "\(error)"))
                    }
                    outcomes.update { $0[index] = outcome }
                }
                let results = outcomes.value
                let winners = results.values.compactMap { try? $0.get() }
                let losers = results.values.compactMap { result -> CloudKitError? in
                    if case .failure(let error) = result { return error }
                    return nil
                }
                try #require(winners.count == 1, "round \(round): \(results)")
                #expect(losers.map(\.code) == [.serverRecordChanged], "round \(round): \(losers)")
                let stored = try temp.privateDB.record(for: base.recordID)
                #expect(stored.recordChangeTag == winners[0].recordChangeTag)
                #expect(stored["by"] == winners[0]["by"])
                current = stored
            }
        }
    }

    /// Plays the zone back from the last token again and again until `finished` holds (and
    /// once more after), adding each change's record name to `seen`.
    private static func follow(_ zone: ZoneID, in db: CloudDatabase, until finished: () -> Bool, into seen: Locked<[String]>) throws {
        var token: String?
        var last = false
        while !last {
            last = finished()
            var more = true
            while more {
                let page = try db.recordZoneChanges(inZoneWith: zone, since: token, resultsLimit: 7)
                seen.update { $0 += page.changes.map(\.recordID.recordName) }
                token = page.changeToken
                more = page.moreComing
            }
        }
    }
}
