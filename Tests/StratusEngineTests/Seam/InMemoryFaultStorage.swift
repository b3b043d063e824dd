import Foundation
import StratusCloud
@testable import StratusEngine

/// The fault plan and its log held in memory, with no SQL: a second implementation of
/// ``FaultStorage`` (as ``InMemoryQueryStorage`` is of ``QueryStorage``), which
/// ``FaultStorageSeamTests`` drives alongside SQLite's.
final class InMemoryFaultStorage: FaultStorage {
    /// How many of the newest firings the log keeps (as SQLite's, about).
    static let keptEvents: Int64 = 1_000

    private var plan: [(fault: Fault, spent: Bool)] = []
    private var log: [FaultEvent] = []
    private var lastFaultID: Int64 = 0
    private var lastEventID: Int64 = 0

    func insert(_ fault: Fault) throws -> Int64 {
        lastFaultID += 1
        var stored = fault
        stored.id = lastFaultID
        stored.created = Self.stored(fault.created)
        stored.lastFired = nil
        stored.seen = 0
        stored.fired = 0
        plan.append((stored, false))
        return lastFaultID
    }

    func all(activeOnly: Bool) throws -> [Fault] {
        plan.filter { !activeOnly || !$0.spent }.map(\.fault)
    }

    func anyArmed() throws -> Bool { plan.contains { !$0.spent } }

    func saveCounts(_ fault: Fault) throws {
        guard let index = plan.firstIndex(where: { $0.fault.id == fault.id }) else { return }
        plan[index].fault.seen = fault.seen
        plan[index].fault.fired = fault.fired
        plan[index].fault.lastFired = fault.lastFired.map(Self.stored)
        plan[index].spent = fault.isSpent
    }

    func logFiring(_ fault: Fault, call: FaultCall, message: String) throws {
        lastEventID += 1
        log.append(FaultEvent(id: lastEventID, faultID: fault.id, time: Self.stored(Date()), kind: fault.kind, operation: call.operation,
                              database: call.scope.name, zoneName: call.zoneNames.sorted().first, message: message))
        if lastEventID % 100 == 0 { log.removeAll { $0.id <= lastEventID - Self.keptEvents } }
    }

    func events(after id: Int64?, limit: Int) throws -> [FaultEvent] {
        guard let id else { return Array(log.suffix(limit)) }
        return Array(log.filter { $0.id > id }.prefix(limit))
    }

    func remove(id: Int64?) throws -> Int {
        guard let id else {
            defer { plan = []; log = [] }
            return plan.count
        }
        let before = plan.count
        plan.removeAll { $0.fault.id == id }
        return before - plan.count
    }

    /// A time as a store keeps it: to the millisecond.
    private static func stored(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
