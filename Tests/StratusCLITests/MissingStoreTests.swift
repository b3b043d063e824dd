import Foundation
import Testing

/// A mistyped `--store` is an error naming the path, never a new empty store; only the commands
/// that set a store up make one, and they say so.
@Suite struct MissingStoreTests {
    /// Each command that reads or changes an existing store, with arguments it would otherwise
    /// accept.
    static let usingCommands: [[String]] = [
        ["query", "--type", "Note"], ["fetch", "n1"], ["changes", "--zone", "Notes"], ["delete", "n1"],
        ["export"], ["zones"], ["zones", "delete", "Notes"], ["token", "--zone", "Notes"], ["subscriptions"],
        ["share", "list"], ["users"], ["schema", "export"], ["history", "--zone", "Notes"], ["notifications"],
        ["faults", "list"], ["logs"], ["check", "--type", "Note", "title == 'x'"],
    ]

    @Test(arguments: usingCommands)
    func aCommandThatUsesAStoreRefusesAPathWithNothingThere(arguments: [String]) throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let typo = cli.directory.appendingPathComponent("missing/demo.sqlit").path
        let outcome = try cli.run(arguments + ["--store", typo], store: false)
        #expect(outcome.status == 1, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.contains("error: badDatabase (24): No store at \(typo)."), "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.contains("hint: check the path; to make a store there, `stratus demo --store \(typo) --no-ui`"),
                "\(arguments): \(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.appendingPathComponent("missing").path),
                "\(arguments) made neither the store nor its folder")
    }

    @Test func theDefaultStoreIsRefusedLikeAnyOtherWhenItIsNotMadeYet() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        // No --store: $STRATUS_STORE names the (not yet made) temporary store.
        let outcome = try cli.run(["query", "--type", "Note"], store: false)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("No store at \(cli.storePath)."), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath))
    }

    @Test func commandsThatSetAStoreUpMakeItAndSaySoOnce() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let made = try cli.run(["zones", "create", "Notes"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("Made a new store at \(cli.storePath)."), "\(made.stderr)")
        let again = try cli.run(["zones", "create", "Trips"])
        #expect(again.status == 0)
        #expect(!again.stderr.contains("Made a new store"), "\(again.stderr)")
        // The store made is a real one: the next command reads both zones back.
        let zones = try cli.run(["zones"])
        #expect(zones.stdout.contains("Notes") && zones.stdout.contains("Trips"), "\(zones.stdout)")

        for arguments in [["users", "create", "bob"], ["auth", "api-token"]] {
            let other = try StratusCLI()
            defer { other.remove() }
            let outcome = try other.run(arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("Made a new store at \(other.storePath)."), "\(arguments): \(outcome.stderr)")
        }
        let saved = try StratusCLI()
        defer { saved.remove() }
        let note = #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "hi"}}}"#
        let outcome = try saved.run(["save"], stdin: note)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Made a new store"))
        #expect(try saved.run(["fetch", "n1"]).stdout.contains("hi"))
    }

    @Test func anImportOfAFileThatIsNotThereMakesNoStore() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let outcome = try cli.run(["save", "--import", cli.directory.appendingPathComponent("export.jsnol").path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("cannot read"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath))
    }
}
