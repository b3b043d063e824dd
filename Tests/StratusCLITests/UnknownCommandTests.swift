import Foundation
import Testing

/// A mistyped command is named as such, with what was meant, instead of the default command's
/// usage; and nothing is made on the way.
@Suite struct UnknownCommandTests {
    @Test(arguments: [
        (["qurey"], "unknown command 'qurey'; did you mean 'stratus query'?"),
        (["zones", "creat", "Foo"], "unknown command 'creat'; did you mean 'stratus zones create'?"),
        (["schema", "exprt"], "unknown command 'exprt'; did you mean 'stratus schema export'?"),
        (["subscriptions", "delet", "x"], "unknown command 'delet'; did you mean 'stratus subscriptions delete'?"),
        (["blargh"], "unknown command 'blargh' (`stratus --help` lists: dashboard, demo, zones,"),
    ])
    func aMistypedCommandIsNamedWithWhatWasMeant(arguments: [String], message: String) throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let outcome = try cli.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("error: " + message), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Usage: stratus dashboard"))
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "a typo makes no store")
    }

    @Test func realCommandsAndOtherUsageErrorsAreUntouched() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let badOption = try cli.run(["query", "--type"])
        #expect(badOption.status == 2)
        #expect(badOption.stderr.contains("Missing value for '--type <type>'"))
        #expect(!badOption.stderr.contains("unknown command"))
        try cli.makeStore()
        let zones = try cli.run(["zones"])
        #expect(zones.status == 0, "\(zones.stderr)")
    }
}

