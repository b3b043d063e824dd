import Foundation
import StratusCloud
import StratusEngine

/// The fault plan and its log in a memory store's tables.
struct MemoryFaultStorage: FaultStorage {
    /// How many of the newest firings the log keeps (as SQLite's, about).
    static let keptEvents: Int64 = 1_000

    let db: MemoryTransaction

    func insert(_ fault: Fault) throws -> Int64 {
        db.tables.lastFaultID += 1
        var stored = fault
        stored.id = db.tables.lastFaultID
        stored.created = Self.stored(fault.created)
        stored.lastFired = nil
        stored.seen = 0
        stored.fired = 0
        db.tables.faults.append((stored, false))
        return stored.id
    }

    func all(activeOnly: Bool) throws -> [Fault] {
        db.tables.faults.filter { !activeOnly || !$0.spent }.map(\.fault)
    }

    func anyArmed() throws -> Bool { db.tables.faults.contains { !$0.spent } }

    func saveCounts(_ fault: Fault) throws {
        guard let index = db.tables.faults.firstIndex(where: { $0.fault.id == fault.id }) else { return }
        db.tables.faults[index].fault.seen = fault.seen
        db.tables.faults[index].fault.fired = fault.fired
        db.tables.faults[index].fault.lastFired = fault.lastFired.map(Self.stored)
        db.tables.faults[index].spent = fault.isSpent
    }

    func logFiring(_ fault: Fault, call: FaultCall, message: String) throws {
        db.tables.lastFaultEventID += 1
        let id = db.tables.lastFaultEventID
        db.tables.faultEvents.append(FaultEvent(id: id, faultID: fault.id, time: Self.stored(Date()), kind: fault.kind, operation: call.operation,
                                                database: call.scope.name, zoneName: call.zoneNames.sorted().first, message: message))
        if id % 100 == 0 { db.tables.faultEvents.removeAll { $0.id <= id - Self.keptEvents } }
    }

    func events(after id: Int64?, limit: Int) throws -> [FaultEvent] {
        guard let id else { return Array(db.tables.faultEvents.suffix(limit)) }
        return Array(db.tables.faultEvents.filter { $0.id > id }.prefix(limit))
    }

    func remove(id: Int64?) throws -> Int {
        guard let id else {
            defer {
                db.tables.faults = []
                db.tables.faultEvents = []
            }
            return db.tables.faults.count
        }
        let before = db.tables.faults.count
        db.tables.faults.removeAll { $0.fault.id == id }
        return before - db.tables.faults.count
    }

    /// A time as a store keeps it: to the millisecond.
    private static func stored(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
