import Foundation
import StratusModel
import StratusCloud
import StratusCKWS

extension CloudDatabase {
    /// This database with the fault plan switched off: for reads a caller makes on its own
    /// behalf inside one client call (a server fetching the record it merges into), which a
    /// fault must not count or fail.
    public var withoutFaults: CloudDatabase {
        var copy = self
        copy.appliesFaults = false
        return copy
    }

    /// This database as `client` reaches it, for the fault plan's `clients` (the command line's
    /// by default).
    public func reached(through client: FaultClient) -> CloudDatabase {
        var copy = self
        copy.faultClient = client
        return copy
    }

    /// The device whose saves a `serverRecordChanged` fault makes.
    public static let otherDevice = "another-device"

    /// Asks the fault plan about a call; throws the failure of a fault that refuses it whole.
    func faults(_ call: @autoclosure () -> FaultCall) throws -> FaultOutcome {
        guard appliesFaults else { return .none }
        let client = faultClient
        // Described only when the plan has an armed fault (the usual case costs a file check).
        let outcome = try store.applyFaults(to: {
            var described = call()
            described.client = client
            return described
        })
        if let failure = outcome.failure { throw failure }
        return outcome
    }

    /// Runs a read call: asks the fault plan about `call`, then runs `body` in one read with
    /// what the faults that fire do.
    ///
    /// Where the backend's read learns whether any fault is armed without a statement of its own
    /// (``StorageBackend/readsKnowFaultPlan``: a server database's reads, where each statement is
    /// a round trip), the plan is asked inside the read: with nothing armed, as is usual, the
    /// call goes on in that same snapshot. Only an armed plan costs the separate ask and a second
    /// read. `zone`: the zone the call reads first, which such a backend reads with the same
    /// opening statement.
    func readAfterFaults<T>(_ call: @autoclosure () -> FaultCall, zone: ZoneID? = nil,
                            _ body: (FaultOutcome, StoreTransaction) throws -> T) throws -> T {
        let key = zone.flatMap { AccessGate.zoneRowKey($0, scope: scope, caller: caller) }
        if appliesFaults, !store.isReadOnly, store.backend.readsKnowFaultPlan {
            var answer: T?
            let armed = try store.read { db -> Bool in
                if let key { db.zones.prefetch(key.zoneID, scope: key.scope) }
                if try db.faults.anyArmed() { return true }
                answer = try body(.none, db)
                return false
            }
            if !armed, let answer { return answer }
        }
        let outcome = try faults(call())
        return try store.read { db in
            if let key { db.zones.prefetch(key.zoneID, scope: key.scope) }
            return try body(outcome, db)
        }
    }

    /// Another device of the same user saves each record just before the caller does: the
    /// record as the server holds it with the fault's fields set (or, for a record the server
    /// does not hold yet, the caller's own record), so the caller's save meets a real change.
    func saveAsOtherDevice(_ saves: [(recordName: String, fields: String?)], among records: [Record]) throws {
        let otherDevice = CloudDatabase(store: store, scope: scope, caller: caller, device: CloudDatabase.otherDevice).withoutFaults
        for save in saves {
            guard let mine = records.first(where: { $0.recordName == save.recordName }) else { continue }
            var theirs: Record
            if case .success(let server)? = try otherDevice.records(for: [mine.recordID]).first?.result {
                theirs = server
                theirs.clearChangedKeys()
            } else {
                theirs = Record(recordType: mine.recordType, recordID: mine.recordID, fields: mine.fields)
                theirs.parent = mine.parent
            }
            if let fields = save.fields, case .object(let members) = try JSONParser.parse(fields) {
                // A value without a type takes the field's type in the schema (5 for a DOUBLE field is 5.0).
                let schema = try store.read { db in try store.catalog(db).type(named: mine.recordType)?.schema }
                for (name, field) in members {
                    if field["type"] == nil, let type = schema?.fields[name]?.type, let value = field["value"] {
                        theirs[name] = try RecordJSON.decodeValue(value, as: type, path: "fields.\(name)", uploadAsset: nil)
                    } else {
                        theirs[name] = try RecordJSON.decodeField(field, path: "fields.\(name)")
                    }
                }
            }
            // A refusal (the user may not write the record) leaves the server as it was; the
            // caller's save then meets whatever is there.
            _ = try? otherDevice.modifyRecords(saving: [theirs], savePolicy: .changedKeys)
        }
    }
}
