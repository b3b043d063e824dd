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
