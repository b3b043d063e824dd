import Foundation
import StratusCloud
import StratusEngine
import StratusTestSupport
import Testing
@testable import stratus

/// Each case of `CommandLineAdvice`, from the real failure: the engine call that makes it has
/// the typed reason the advice switches on, and the command that meets it prints the hint.
@Suite(.serialized) struct CommandLineAdviceCaseTests {
    /// The `hint:` line a failed run printed, if any.
    private func hint(_ outcome: StratusCLI.Outcome) -> String? {
        outcome.stderr.split(separator: "\n").last { $0.hasPrefix("hint: ") }.map(String.init)
    }

    @Test func aFaultOfThePlan() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        let store = try Store(path: cli.storePath)
        let record = RecordID(recordName: "a", zoneID: ZoneID(zoneName: "Notes"))
        let fault = try store.addFault(Fault(kind: .zoneBusy, zoneName: "Notes", operation: .fetch))
        let error = failure { _ = try store.database(.private).record(for: record) }
        #expect(error?.code == .zoneBusy)
        #expect(error?.reason == .fault(id: fault.id))
        _ = try store.addFault(Fault(kind: .notAuthenticated, zoneName: "Notes", operation: .fetch))
        let run = try cli.run(["fetch", "a", "--zone", "Notes"])
        #expect(run.stderr.contains("error: notAuthenticated (9): The request needs a signed-in user (fault #2 of the store's fault plan)."))
        #expect(hint(run) == "hint: the store's fault plan made this error on purpose: `stratus faults list` shows it, `stratus faults clear` empties it")
    }

    @Test func aZoneOfTheSharedDatabase() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath)
        let bob = try store.createUser(alias: "bob")
        let shared = store.database(.shared, caller: .user(bob.recordName))
        let unnamed = failure { _ = try shared.currentToken(for: ZoneID(zoneName: "Trips")) }
        #expect(unnamed?.code == .zoneNotFound)
        #expect(unnamed?.reason == .sharedZoneNeedsOwner(zoneName: "Trips"))
        let owned = failure { _ = try shared.currentToken(for: ZoneID(zoneName: "Trips", ownerName: store.owner)) }
        #expect(owned?.reason == .zoneNotFound(zoneName: "Trips", database: .shared))
        let advice = "hint: list the zones shared with you with `stratus zones --db shared --user ALIAS`; a share's zone appears once you `stratus share accept URL`"
        #expect(hint(try cli.run(["token", "--db", "shared", "--zone", "Trips", "--user", "bob"])) == advice)
        #expect(hint(try cli.run(["token", "--db", "shared", "--zone", "Trips", "--zone-owner", "owner", "--user", "bob"])) == advice)
    }

    @Test func aZoneThatDoesNotExist() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath)
        let error = failure { _ = try store.database(.private).currentToken(for: ZoneID(zoneName: "Nowhere")) }
        #expect(error?.code == .zoneNotFound)
        #expect(error?.reason == .zoneNotFound(zoneName: "Nowhere", database: .private))
        let run = try cli.run(["token", "--zone", "Nowhere"])
        #expect(run.stderr.contains("error: zoneNotFound (26): Zone 'Nowhere' does not exist in the private database."))
        #expect(hint(run) == "hint: list zones with `stratus zones`, or make one with `stratus zones create NAME`")
    }

    @Test func aUserThatDoesNotExist() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath)
        let error = failure { _ = try store.user(named: "nobody") }
        #expect(error?.code == .unknownItem)
        #expect(error?.reason == .unknownUser("nobody"))
        let run = try cli.run(["zones", "--user", "nobody"])
        #expect(run.stderr.contains("error: unknownItem (11): No user 'nobody' in this store"))
        #expect(hint(run) == "hint: make one with `stratus users create ALIAS`; `stratus users` lists them")
    }

    @Test func noUserActing() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath)
        let error = failure { _ = try store.database(.private, caller: .anonymous).allRecordZones() }
        #expect(error?.code == .notAuthenticated)
        #expect(error?.reason == .general)
        let run = try cli.run(["zones", "--user", "none"])
        #expect(run.stderr.contains("error: notAuthenticated (9)"))
        #expect(hint(run) == "hint: act as a user with --user ALIAS (`stratus users` lists them)")
    }

    @Test func aSubscriptionThatDoesNotExist() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath)
        let error = failure { try store.database(.private).deleteSubscription(withID: "nope") }
        #expect(error?.code == .unknownItem)
        #expect(error?.reason == .unknownSubscription(subscriptionID: "nope", database: .private))
        let run = try cli.run(["subscriptions", "delete", "nope"])
        #expect(run.stderr.contains("error: unknownItem (11): Subscription 'nope' does not exist in the private database."))
        #expect(hint(run) == "hint: list them with `stratus subscriptions`")
    }

    @Test func aFolderGivenAsTheStore() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let folder = cli.directory.path
        let error = failure { _ = try Store(path: folder) }
        #expect(error?.code == .badDatabase)
        #expect(error?.reason == .storePathIsFolder(path: folder))
        let run = try cli.run(["zones", "--store", folder], store: false)
        #expect(run.stderr.contains("error: badDatabase (24): \(folder) is a folder, not a store file."))
        #expect(hint(run) == "hint: give --store a file, e.g. \(folder)/store.sqlite")
    }

    @Test func aFileThatIsNotADatabase() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let file = cli.directory.appendingPathComponent("notes.txt").path
        try Data("Not a database, only some notes.\n".utf8).write(to: URL(fileURLWithPath: file))
        let error = failure { _ = try Store(path: file) }
        #expect(error?.code == .badDatabase)
        #expect(error?.reason == .fileIsNotADatabase(path: file))
        let run = try cli.run(["zones", "--store", file], store: false)
        #expect(run.stderr.contains("error: badDatabase (24): \(file) is not a Stratus store: it is not an SQLite database."))
        #expect(hint(run) == "hint: give --store a store file, or a path where a new one can be made")
    }

    @Test func changesOfTheDefaultZone() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath)
        let error = failure { _ = try store.database(.private).recordZoneChanges(inZoneWith: .default) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason == .defaultZoneHasNoChangeFeed)
        let run = try cli.run(["changes"])
        #expect(run.stderr.contains("error: invalidArguments (12): The default zone has no change feed in CloudKit"))
        #expect(hint(run) == "hint: pick a custom zone with --zone NAME")
    }

    @Test func aNewTypeInProduction() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath, creatingWith: .production)
        let error = failure { _ = try store.database(.private).save(Record(recordType: "Thing", recordID: RecordID(recordName: "x"))) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason == .typeNotCreatableInProduction(recordType: "Thing"))
        // `save` reports a refused record on its own line, without advice; the advice is for
        // the error when it ends a command (CommandLineAdvice itself, through the module).
        let run = try cli.run(["save"], stdin: #"{"recordName": "x", "recordType": "Thing"}"#)
        #expect(run.stderr.contains("failed x: invalidArguments (12): Cannot create new type 'Thing' in production schema"))
        #expect(hint(run) == nil)
        #expect(error.flatMap(CommandLineAdvice.advice) == "declare the type in a schema file and run `stratus schema import FILE`")
    }

    @Test func aSubscriptionThatFiresOnNothing() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath)
        let silent = Subscription.query("Item", subscriptionID: "silent", options: [])
        let error = failure { _ = try store.database(.private).save(silent) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason == .subscriptionFiresOnNothing(subscriptionID: "silent"))
        let run = try cli.run(["subscriptions", "create", "--type", "Item", "--id", "silent", "--on", ""])
        #expect(run.stderr.contains("error: invalidArguments (12): Query subscription 'silent' fires on nothing"))
        #expect(hint(run) == "hint: give --on create,update,delete (any of them)")
    }

    @Test func aSchemaImportThatWouldLoseData() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["save"], stdin: #"{"recordName": "n1", "recordType": "Note", "fields": {"text": {"value": "hi"}}}"#).status == 0)
        let schema = "DEFINE SCHEMA\n    RECORD TYPE Item (\n        name STRING\n    );\n"
        let store = try Store(path: cli.storePath)
        let error = failure { _ = try store.importSchema(text: schema) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason == .schemaImportLosesData(forceAllowed: true))
        let file = cli.directory.appendingPathComponent("items.ckdb")
        try Data(schema.utf8).write(to: file)
        let run = try cli.run(["schema", "import", file.path])
        #expect(run.stderr.contains("error: invalidArguments (12): Importing this schema would lose data:"))
        #expect(hint(run) == "hint: add --force to import it and delete that data")
    }

    @Test func anEnvironmentForAStoreThatExists() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try cli.makeStore()
        #expect(try cli.run(["zones"]).status == 0)
        let error = failure { _ = try Store(path: cli.storePath, creatingWith: .production) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason == .environmentFixedAtCreation(existing: .development))
        let run = try cli.run(["zones", "--environment", "production"])
        #expect(run.stderr.contains("error: invalidArguments (12): The store already exists as a development store"))
        #expect(hint(run) == "hint: leave out --environment for a store that exists")
    }

    /// A production store's lossy import cannot be forced, so the command line offers nothing.
    @Test func noAdviceWhereNoCommandHelps() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let store = try Store(path: cli.storePath, creatingWith: .production)
        _ = try store.importSchema(text: "DEFINE SCHEMA\n    RECORD TYPE Item (\n        name STRING\n    );\n")
        _ = try store.database(.private).save(Record(recordType: "Item", recordID: RecordID(recordName: "i1")))
        let error = failure { _ = try store.importSchema(text: "DEFINE SCHEMA\n    RECORD TYPE Note (\n        text STRING\n    );\n") }
        #expect(error?.reason == .schemaImportLosesData(forceAllowed: false))
        let query = try cli.run(["query", "--type", "Nope"])
        #expect(query.stderr.contains("error: unknownItem (11): Did not find record type: 'Nope'."))
        #expect(hint(query) == nil)
    }
}
