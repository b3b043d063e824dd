import Foundation
import StratusTestSupport
import Testing

/// `stratus export --remote` against a `stratus serve` the test starts on a loopback port: it
/// writes what the local export of the server's store writes, byte for byte (assets embedded
/// from their download URLs), and `stratus save --import` of it makes a store whose export is
/// the server store's own.
@Suite struct RemoteExportTests {
    typealias Served = RemoteModeTests.Served

    @Test func aRemoteExportIsTheServersOwnExportAndImportsBackExactly() throws {
        // Enough trips for more than one page of 200 (the remote's page).
        let served = try Served(records: 1_500)
        for extra in [[], ["--no-assets"], ["--format", "json"]] {
            let local = try served.cli.run(["export", "--zone", "Travel", "--type", "Trip"] + extra)
            let remote = try served.remote(["export", "--remote", "served", "--zone", "Travel", "--type", "Trip"] + extra)
            #expect(local.status == 0, "\(extra): \(local.stderr)")
            #expect(remote.status == 0, "\(extra): \(remote.stderr)")
            #expect(local.stdout.split(separator: "\n").count > 200, "\(extra)")
            #expect(remote.stdout == local.stdout, "\(extra)")
        }
        #expect(try served.cli.run(["export", "--type", "Trip"]).stdout.contains("data:application/octet-stream;base64,"))

        // Every zone, to a file, into a new store: its export is the served store's.
        let file = served.cli.folder.path("trips.jsonl")
        let written = try served.remote(["export", "--remote", "served", "--type", "Trip", "--out", file])
        #expect(written.status == 0, "\(written.stderr)")
        let copy = served.cli.folder.path("copy.sqlite")
        let imported = try StratusBinary.run(["save", "--import", file], store: copy)
        #expect(imported.status == 0, "\(imported.stderr)")
        let original = try StratusBinary.run(["export", "--type", "Trip"], store: served.cli.storePath)
        let copied = try StratusBinary.run(["export", "--type", "Trip"], store: copy)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout == original.stdout)
        #expect(!copied.stdout.isEmpty)
        for secret in [served.webToken, served.apiToken] {
            #expect(!written.stdout.contains(secret) && !written.stderr.contains(secret))
        }
    }

    @Test func aRemoteExportNeedsATypeAndRefusesWhatOnlyAStoreHas() throws {
        let served = try Served()
        for (arguments, says) in [([String](), "needs --type"), (["--type", "Trip", "--format", "csv"], "local store only"),
                                  (["--type", "Trip", "--user", "none"], "--user")] {
            let outcome = try served.remote(["export", "--remote", "served"] + arguments)
            #expect(outcome.status != 0, "\(arguments)")
            #expect(outcome.stderr.contains(says), "\(arguments): \(outcome.stderr)")
        }
    }
}
