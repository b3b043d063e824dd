import Foundation
import StratusCloud
@testable import StratusEngine
import StratusMemoryStore
import StratusTestSupport
import Testing

/// The fault plan's storage seam holds: the same calls on SQLite's ``FaultStorage`` and on one
/// of the memory store give the same plan and the same log.
@Suite struct FaultStorageSeamTests {
    @Test func aSecondStorageKeepsThePlanAndItsLogAsSQLiteDoes() throws {
        let temp = try TemporaryStore()
        let memoryStore = try Store.inMemory(named: temp.folder.path("memory"))
        try temp.store.write { db in try memoryStore.write { held in
            let memory = held.faults
            try Self.play(on: db.faults)
            try Self.play(on: memory)
            #expect(try db.faults.all() == memory.all())
            #expect(try db.faults.all(activeOnly: true) == memory.all(activeOnly: true))
            #expect(try db.faults.anyArmed() == memory.anyArmed())
            for (after, limit) in [(nil, 5), (nil, 500), (Int64(3), 4), (Int64(0), 1_000), (Int64(140), 10)] as [(Int64?, Int)] {
                let (sqlite, held) = (try db.faults.events(after: after, limit: limit), try memory.events(after: after, limit: limit))
                #expect(sqlite.map(\.id) == held.map(\.id), "events after \(String(describing: after)), \(limit) of them")
                #expect(sqlite.map(\.message) == held.map(\.message))
                #expect(sqlite.map(\.zoneName) == held.map(\.zoneName))
                #expect(sqlite.map(\.faultID) == held.map(\.faultID))
            }
            #expect(try db.faults.remove(id: 2) == memory.remove(id: 2))
            #expect(try db.faults.remove(id: 99) == memory.remove(id: 99))
            #expect(try db.faults.all() == memory.all())
            #expect(try db.faults.remove(id: nil) == memory.remove(id: nil))
            #expect(try db.faults.all().isEmpty && memory.all().isEmpty)
            #expect(try db.faults.events(after: nil, limit: 10).isEmpty && memory.events(after: nil, limit: 10).isEmpty)
        } }
    }

    /// Makes a plan of three faults, fires them, spends one and logs 150 firings.
    private static func play(on storage: any FaultStorage) throws {
        let created = Date(timeIntervalSince1970: 1_700_000_000.1234)
        var faults = [
            Fault(kind: .serviceUnavailable, scope: .private, zoneName: "Z", operation: .modify, recordNames: ["a", "b"], trigger: .once,
                  retryAfter: 2.5, created: created),
            Fault(kind: .zoneBusy, trigger: .every(3), itemLimit: 7, created: created),
            Fault(kind: .serviceUnavailable, operation: .query, trigger: .probability(0.25, seed: 42), created: created),
        ]
        for index in faults.indices { faults[index].id = try storage.insert(faults[index]) }
        faults[0].seen = 1
        faults[0].fired = 1
        faults[0].lastFired = Date(timeIntervalSince1970: 1_700_000_100.5678)
        try storage.saveCounts(faults[0])
        faults[1].seen = 4
        try storage.saveCounts(faults[1])
        for firing in 0..<150 {
            let fault = faults[firing % 3]
            try storage.logFiring(fault, call: FaultCall(operation: .modify, scope: .private, zoneNames: firing.isMultiple(of: 2) ? ["Z", "A"] : []),
                                  message: "firing \(firing)")
        }
    }
}
