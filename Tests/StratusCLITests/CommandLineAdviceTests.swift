import Foundation
import Testing

/// The command line adds its own advice to the engine's CloudKit errors.
@Suite(.serialized) struct CommandLineAdviceTests {
    @Test func errorsGetAHintOfWhatToTypeNext() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let zone = try cli.run(["token", "--zone", "Nowhere"])
        #expect(zone.status == 1)
        #expect(zone.stderr.contains("error: zoneNotFound (26): Zone 'Nowhere' does not exist in the private database.\nhint: list zones with `stratus zones`"))
        let feed = try cli.run(["changes"])
        #expect(feed.stderr.contains("hint: pick a custom zone with --zone NAME"))
        let subscription = try cli.run(["subscriptions", "delete", "nope"])
        #expect(subscription.stderr.contains("hint: list them with `stratus subscriptions`"))
        let asFolder = try cli.run(["zones", "--store", cli.directory.path], store: false)
        #expect(asFolder.stderr.contains("hint: give --store a file, e.g. \(cli.directory.path)/store.sqlite"))
    }
}
