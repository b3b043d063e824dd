import Foundation
import Testing

@Suite(.serialized) struct DemoShapeTests {
    @Test func theCoreDataDemoIsMadeOnceAndSaysWhatToTry() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let made = try cli.run(["demo", "--no-ui", "--shape", "core-data", "--records", "200"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("Making the demo store"))
        #expect(made.stdout.contains("--type CDMR"))
        let zones = try cli.run(["zones"])
        #expect(zones.stdout.contains("com.apple.coredata.cloudkit.zone"))
        let again = try cli.run(["demo", "--no-ui", "--shape", "core-data", "--records", "200"])
        #expect(again.stderr.contains("Using the demo store"))
        let other = try cli.run(["demo", "--no-ui", "--records", "200"])
        #expect(other.status == 1)
        #expect(other.stderr.contains("already holds data that is not the demo"))
        let business = try cli.json(["query", "--zone", "com.apple.coredata.cloudkit.zone", "--type", "CD_Trip",
                                     "--filter", "CD_entityName == 'BusinessTrip'", "--limit", "1"])
        #expect((business["records"] as? [Any])?.count == 1)
    }
}
