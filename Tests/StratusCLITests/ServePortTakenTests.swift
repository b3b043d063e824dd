import Foundation
import StratusTestSupport
import Testing

/// `serve` on a port another program holds says which port is taken and how to pick another,
/// not the socket call's own words.
@Suite struct ServePortTakenTests {
    @Test func aTakenPortIsNamedWithWhatToDo() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let first = try ServedStore(store: cli.storePath)
        defer { first.stop() }
        let port = try #require(first.port, "the first server's line: \(first.firstLine)")
        let second = try cli.run(["serve", "--port", String(port)])
        #expect(second.status == 1)
        #expect(second.stderr.contains("error: port \(port) on 127.0.0.1 is taken by another program; pick another with --port N (--port 0 takes any free port)"),
                "\(second.stderr)")
        #expect(!second.stderr.contains("errno"), "\(second.stderr)")
    }
}
