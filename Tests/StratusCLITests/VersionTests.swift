import Foundation
import StratusTestSupport
import Testing

/// `stratus --version` names the release CHANGELOG.md's newest entry describes and the commit
/// the binary was built from, so a report of a problem says exactly what ran.
@Suite struct VersionTests {
    /// The checkout this test was compiled from.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func versionNamesTheChangelogsReleaseAndTheBuildsCommit() throws {
        let outcome = try StratusBinary.run(["--version"], environment: [:])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let line = outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = try #require(line.wholeMatch(of: /stratus (\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}|unknown)\)/), "\(line)")

        let changelog = try String(contentsOf: Self.checkout.appending(path: "CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(changelog.firstMatch(of: /\n## \[?(\d+\.\d+\.\d+)\]?/))
        #expect(match.output.1 == newest.output.1, "the version is CHANGELOG.md's newest entry")

        let commit = String(match.output.2)
        if FileManager.default.fileExists(atPath: Self.checkout.appending(path: ".git").path) {
            // Built from this checkout, so the stamp is one of its commits.
            let known = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["git", "-C", Self.checkout.path, "cat-file", "-e", commit + "^{commit}"])
            #expect(known.status == 0, "\(commit) is not a commit of \(Self.checkout.path): \(known.stderr)")
        }
    }
}
