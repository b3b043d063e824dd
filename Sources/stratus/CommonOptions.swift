import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusStores
import StratusRemote

/// The options every data command takes.
struct CommonOptions: ParsableArguments {
    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).")
    var store: String?

    @Option(help: "A remote container (see `stratus remote`) in place of --store: the command goes to it over CloudKit Web Services.")
    var remote: String?

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
        // A remote names shared zones by their owner's record name.
        if remote != nil { return ZoneID(zoneName: zone, ownerName: zoneOwner ?? ZoneID.defaultOwnerName) }
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
        try localOnly("this command")
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

    /// The database the command works on: `--remote`'s over CloudKit Web Services, else the
    /// store's. Commands that only use the calls both have take this one.
    func service() throws -> any CloudDatabaseService {
        guard let remote else { return try database() }
        if store != nil { throw CommandFailure.usage("give --store or --remote, not both") }
        if user != nil { throw CommandFailure.usage("--user acts as a user of a local store; a remote acts as its signed-in user (`stratus remote login`)") }
        return try RemoteCommand.service(named: remote).database(try scope())
    }

    /// The store, refused by name for a command that has no remote form yet.
    func localOnly(_ what: String) throws {
        if remote != nil { throw CommandFailure.usage("\(what) works on a local store only; leave out --remote") }
    }

    func database(ifMissing: MissingStore = .refuse) throws -> CloudDatabase {
        try localOnly("this command")
        let scope = try scope()
        let store = try openStore(ifMissing: ifMissing)
        return store.database(scope, caller: try caller(in: store), device: device)
    }
}

/// Splits `a,b, c` into keys.
func parseKeyList(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}
