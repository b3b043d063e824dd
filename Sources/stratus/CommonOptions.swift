import ArgumentParser
import Foundation
import StratusEngine

/// The options every data command takes.
struct CommonOptions: ParsableArguments {
    @Option(help: "The store file (default: $STRATUS_STORE, else the user's data folder).")
    var store: String?

    @Option(help: "The database: public, private or shared.")
    var db: String = "private"

    @Option(help: "The zone.")
    var zone: String = ZoneID.defaultZoneName

    @Option(help: "The user record name that acts (default: the store's owner).")
    var user: String?

    @Option(help: "The device that acts (default: the store's own, 'this-store'); notifications of its own changes are not delivered to it.")
    var device: String?

    @Flag(help: "Machine-readable JSON on standard output.")
    var json = false

    @Option(help: "development or production; only when this command makes the store.")
    var environment: String?

    var storePath: String { store ?? StoreLocation.defaultPath }

    var zoneID: ZoneID { ZoneID(zoneName: zone) }

    func scope() throws -> DatabaseScope {
        guard let scope = DatabaseScope(name: db) else {
            throw CommandFailure.usage("--db must be public, private or shared, not '\(db)'")
        }
        return scope
    }

    func openStore() throws -> Store {
        var storeEnvironment: StoreEnvironment?
        if let environment {
            guard let parsed = StoreEnvironment(rawValue: environment.lowercased()) else {
                throw CommandFailure.usage("--environment must be development or production, not '\(environment)'")
            }
            storeEnvironment = parsed
        }
        return try StoreLocation.open(storePath, creatingWith: storeEnvironment)
    }

    func database() throws -> CloudDatabase {
        let scope = try scope()
        return try openStore().database(scope, user: user, device: device)
    }
}

/// Splits `a,b, c` into keys.
func parseKeyList(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}
