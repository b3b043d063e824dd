import Foundation
import StratusTestSupport
import Testing

/// docs/cli.md is what the binary's help prints, command by command: the test fails when an
/// option or a command changes without the page (`scripts/generate-cli-docs` rewrites it).
@Suite struct CLIDocsTests {
    @Test func theCommandLinePageIsTheBinarysHelp() throws {
        let checkout = VersionTests.checkout
        let script = checkout.appending(path: "scripts/generate-cli-docs")
        let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", script.path, "--binary", StratusBinary.url.path, "--check"])
        #expect(outcome.status == 0, "\(outcome.stderr)\n\(outcome.stdout)")
    }
}
