import Foundation
import StratusTestSupport
import Testing

/// The README's quick start is a transcript: every `$ command` in its console block runs, in
/// order, in one shell in a new folder with the built `stratus` first on PATH, and prints what
/// the README shows under it. Values that differ from run to run (change tags, tokens, dates,
/// user record names) are compared by their shape.
@Suite struct ReadmeQuickStartTests {
    /// One `$ command` of the transcript and the lines the README shows after it.
    struct Step {
        var command: String
        var shown: [String]
    }

    static func transcript() throws -> [Step] {
        let readme = try String(contentsOf: VersionTests.checkout.appending(path: "README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n## Quick start\n"), "README.md has no Quick start section")
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```console\n"), "the quick start has no console block")
        let close = try #require(rest.range(of: "\n```", range: open.upperBound..<rest.endIndex))
        var steps: [Step] = []
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), shown: []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].shown.append(String(line))
            }
        }
        return steps
    }

    /// What changes from one run to the next, replaced by its kind (a store's folder too).
    static func normalized(_ text: String) -> String {
        text.replacing(/\/\S*\/([\w-]+\.sqlite)/) { "DIR/" + $0.output.1 }
            .replacing(/tag [a-z0-9]{10}/, with: "tag TAG")
            .replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/, with: "DATE")
            .replacing(/_[0-9a-f]{32}/, with: "USER")
            .replacing(/AQ[A-Za-z0-9_-]{20,}/, with: "TOKEN")
            .replacing(/Share-[0-9A-F-]{36}/, with: "SHARE")
            .replacing(/https:\/\/www\.icloud\.com\/share\/[A-Za-z0-9_-]+/, with: "URL")
    }

    @Test func everyCommandOfTheQuickStartPrintsWhatTheReadmeShows() throws {
        let steps = try Self.transcript()
        #expect(steps.count >= 5, "the quick start shows its commands")
        let folder = try TemporaryDirectory("readme-quick-start")
        defer { folder.remove() }
        // One shell runs the whole transcript, so `export` and `cd` carry over as they would
        // for a reader; a marker line before each command splits what each printed.
        let marker = "=== stratus quick start step ==="
        var script = "cd '\(folder.url.path)'\nexport PATH='\(StratusBinary.url.deletingLastPathComponent().path)':\"$PATH\"\nunset STRATUS_STORE\n"
        for step in steps { script += "echo '\(marker)'\n\(step.command) 2>&1\n" }
        let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
        var printed = outcome.stdout.components(separatedBy: marker + "\n")
        #expect(printed.removeFirst().isEmpty)
        try #require(printed.count == steps.count, "\(outcome.stdout)\n\(outcome.stderr)")
        for (step, output) in zip(steps, printed) {
            let expected = Self.normalized(step.shown.joined(separator: "\n")).trimmingCharacters(in: .newlines)
            let actual = Self.normalized(output).trimmingCharacters(in: .newlines)
            #expect(actual == expected, "`\(step.command)` printed:\n\(output)")
        }
    }
}
