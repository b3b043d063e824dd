import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusStores

/// The options every data command takes.
struct CommonOptions: ParsableArguments {
    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).")
    var store: String?

    @Option(help: "The database: public, private or shared.")
    var db: String = "private"

    @Option(help: "The zone.")
    var zone: String = ZoneID.defaultZoneName

    @Option(help: "The user who acts: an alias or user record name (see `stratus users`), or 'none' for no user (default: the store's owner).")
    var user: String?

    @Option(help: "In the shared database: the owner (alias or user record name) of --zone, when users shared zones of the same name.")
    var zoneOwner: String?

    @Option(help: "The device that acts (default: the store's own, 'this-store'); notifications of its own changes are not delivered to it.")
    var device: String?

    @Flag(help: "Machine-readable JSON on standard output.")
    var json = false

    @Option(help: "development or production; only when this command makes the store.")
    var environment: String?

    var storePath: String { store ?? StoreLocation.defaultPath }

    /// The zone `--zone` names. In the shared database a zone is named with its owner: from
    /// `--zone-owner`, or the one owner who shared a zone of that name with this user.
    func zoneID() throws -> ZoneID {
        guard (try? scope()) == .shared, zone != ZoneID.defaultZoneName else { return ZoneID(zoneName: zone) }
        let store = try openStore()
        if let zoneOwner { return ZoneID(zoneName: zone, ownerName: try store.user(named: zoneOwner).recordName) }
        let owners = try database().allRecordZones().map(\.zoneID).filter { $0.zoneName == zone }
        if owners.count > 1 {
            let aliases = try owners.map { try store.user(named: $0.ownerName).alias }
            throw CommandFailure.usage("zone '\(zone)' is shared with you by \(aliases.joined(separator: " and ")); say whose with --zone-owner")
        }
        return owners.first ?? ZoneID(zoneName: zone)
    }

    func scope() throws -> DatabaseScope {
        guard let scope = DatabaseScope(name: db) else {
            throw CommandFailure.usage("--db must be public, private or shared, not '\(db)'")
        }
        return scope
    }

    /// The store `--store` names; `ifMissing: .create` only for commands that set stores up.
    func openStore(ifMissing: MissingStore = .refuse) throws -> Store {
        var storeEnvironment: StoreEnvironment?
        if let environment {
            guard let parsed = StoreEnvironment(rawValue: environment.lowercased()) else {
                throw CommandFailure.usage("--environment must be development or production, not '\(environment)'")
            }
            storeEnvironment = parsed
        }
        // `--environment` is asked only of a store being made, so it may make one.
        return try StoreLocation.open(storePath, ifMissing: storeEnvironment == nil ? ifMissing : .create, creatingWith: storeEnvironment)
    }

    /// Who `--user` names (the store's owner without it).
    func caller(in store: Store) throws -> Caller {
        try user.map { try store.caller(named: $0) } ?? .user(store.owner)
    }

    func database(ifMissing: MissingStore = .refuse) throws -> CloudDatabase {
        let scope = try scope()
        let store = try openStore(ifMissing: ifMissing)
        return store.database(scope, caller: try caller(in: store), device: device)
    }
}

/// Splits `a,b, c` into keys.
func parseKeyList(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}
