import Foundation
import StratusTestSupport
import Testing

/// The shared helpers do what the other tests count on, including the paths those tests never
/// take (a child that hangs, a condition that never holds).
@Suite struct TestSupportTests {
    @Test func aChildPastItsTimeLimitIsKilled() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sleep"), ["30"], timeout: .seconds(1))
        #expect(outcome.timedOut)
        #expect(outcome.signalled)
        #expect(clock.now - start < .seconds(10))
    }

    @Test func largeInputAndOutputDoNotBlockThePipes() throws {
        let input = String(repeating: "0123456789abcdef\n", count: 64 * 1024)  // about 1 MiB
        let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/bin/cat"), [], stdin: Data(input.utf8))
        #expect(outcome.status == 0)
        #expect(!outcome.timedOut)
        #expect(outcome.stdout == input)
    }

    @Test func aTemporaryDirectoryGoesAwayWithReadOnlyContents() throws {
        var folder: TemporaryDirectory? = try TemporaryDirectory("stratus-support-test")
        let path = try #require(folder?.path)
        let file = try #require(try folder?.write(Data("x".utf8), to: "file.txt"))
        chmod(file.path, 0o444)
        chmod(path, 0o555)
        folder = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func pollSaysWhetherTheConditionHeldInTime() throws {
        var checks = 0
        #expect(Poll.until(timeout: .seconds(5), every: .milliseconds(1)) { checks += 1; return checks == 3 })
        #expect(checks == 3)
        #expect(!Poll.until(timeout: .milliseconds(50), every: .milliseconds(10)) { false })
    }
}
