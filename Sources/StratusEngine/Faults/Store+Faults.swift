import Foundation
import StratusCloud
import StratusCKWS

extension Store {
    /// Adds a fault to the store's plan; every process using the store meets it from its next call.
    ///
    /// - Throws: `invalidArguments` naming the option that does not fit the kind.
    @discardableResult
    public func addFault(_ fault: Fault) throws -> Fault {
        if let problem = fault.problem { throw CloudKitError(.invalidArguments, problem) }
        let added = try write { db in
            var added = fault
            added.id = try db.faults.insert(fault)
            return added
        }
        try syncFaultMarker()
        return added
    }

    /// The plan, oldest first, with how often each fault saw a matching call and fired.
    public func faults() throws -> [Fault] {
        if isReadOnly { return [] }
        return try read { db in try db.faults.all() }
    }

    /// Removes one fault (nil: all of them, and their log); returns how many went.
    @discardableResult
    public func clearFaults(id: Int64? = nil) throws -> Int {
        defer { try? syncFaultMarker() }
        return try write { db in
            let removed = try db.faults.remove(id: id)
            if let id, removed == 0 { throw CloudKitError(.unknownItem, "The fault plan has no fault #\(id).") }
            return removed
        }
    }

    /// The newest firings (after `id`: the ones since, oldest first, for following).
    public func faultEvents(after id: Int64? = nil, limit: Int = 100) throws -> [FaultEvent] {
        if isReadOnly { return [] }
        return try read { db in try db.faults.events(after: id, limit: max(1, limit)) }
    }

    /// Asks the plan about one call: counts it for every fault it matches, and returns what the
    /// faults that fire do.
    ///
    /// Free when no fault is armed: the plan is only read when the backend says one may be
    /// (``StorageBackend/faultPlanMayBeArmed``: a file's marker beside the store). Every process
    /// that changes the plan keeps that true, so a fault added by one process is met by the next
    /// call of another.
    func applyFaults(to describe: () -> FaultCall) throws -> FaultOutcome {
        guard !isReadOnly, backend.faultPlanMayBeArmed else { return .none }
        let call = describe()
        var spentOne = false
        defer { if spentOne { try? syncFaultMarker() } }
        return try write { db in
            var outcome = FaultOutcome()
            let now = Date()
            let armed = try db.faults.all(activeOnly: true)
            if armed.isEmpty { spentOne = true } // a marker left behind: take it away
            for var fault in armed where fault.matches(call) {
                fault.seen += 1
                if fault.trigger.fires(onCall: fault.seen, firedBefore: fault.fired) {
                    fault.fired += 1
                    fault.lastFired = now
                    let effect = fault.effect(on: call)
                    try db.faults.logFiring(fault, call: call, message: effect.logMessage)
                    outcome.merge(effect)
                    if fault.isSpent { spentOne = true }
                }
                try db.faults.saveCounts(fault)
            }
            return outcome
        }
    }

    /// Makes the backend's marker say whether the plan has an armed fault.
    func syncFaultMarker() throws {
        try backend.setFaultPlanArmed { try read { db in try db.faults.anyArmed() } }
    }
}

extension Fault {
    /// What is wrong with the fault as given (nil: nothing): the dashboard checks a plan as it
    /// is typed, `addFault` refuses one with this reason.
    public var problem: String? {
        let fault = self
        let kind = fault.kind
        if let operation = fault.operation, !kind.operations.contains(operation) {
            return "\(kind.name) does not happen on \(operation.name); it happens on \(kind.operations.map(\.name).joined(separator: ", "))."
        }
        if fault.token != nil, kind != .changeTokenExpired { return "A token is given only to changeTokenExpired." }
        if fault.otherDeviceFields != nil, kind != .serverRecordChanged { return "The other device's fields are given only to serverRecordChanged." }
        if kind == .limitExceeded, let limit = fault.itemLimit, limit < 1 { return "The batch limit must be at least 1, not \(limit)." }
        if fault.itemLimit != nil, kind != .limitExceeded { return "A batch limit is given only to limitExceeded." }
        if let retryAfter = fault.retryAfter, !(retryAfter >= 0 && retryAfter <= 86_400) {
            return "Retry-after must be between 0 and 86400 seconds, not \(retryAfter)."
        }
        if let zoneName = fault.zoneName, zoneName.isEmpty { return "The zone name is empty." }
        if fault.recordNames.contains(where: { $0.isEmpty || $0.contains("\n") }) { return "A record name is empty or has a line break." }
        switch fault.trigger {
        case .once: break
        case .after(let n) where n < 0: return "A fault fires after 0 or more calls, not \(n)."
        case .every(let n) where n < 1: return "A fault fires every 1 or more calls, not every \(n)."
        case .probability(let p, _) where !(p >= 0 && p <= 1): return "The probability must be between 0 and 1, not \(p)."
        default: break
        }
        if let fields = fault.otherDeviceFields {
            do {
                guard case .object(let members) = try JSONParser.parse(fields) else { return "The other device's fields must be a JSON object." }
                for (name, value) in members { _ = try RecordJSON.decodeField(value, path: "fields.\(name)") }
            } catch {
                return "The other device's fields cannot be read: \(error)"
            }
        }
        return nil
    }
}
