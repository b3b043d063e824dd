import Foundation
import Testing

/// The README and docs/ describe the product as it is now: no run-by-run history, no issue
/// numbers, no dates but a table's "Measured on:" line (outputs in code blocks may show the
/// dates of the data they print), and the README stays short enough to read in five minutes.
@Suite struct DocsHygieneTests {
    static var pages: [URL] {
        let docs = VersionTests.checkout.appending(path: "docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return [VersionTests.checkout.appending(path: "README.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appending(path: $0) }
    }

    /// Lines of prose (outside code blocks) with their numbers.
    static func prose(_ text: String) -> [(number: Int, line: String)] {
        var inBlock = false
        var lines: [(Int, String)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            if !inBlock { lines.append((index + 1, String(line))) }
        }
        return lines
    }

    @Test func pagesCarryNoHistoryIssueNumbersOrDates() throws {
        #expect(Self.pages.count > 10, "README.md and docs/*.md")
        for page in Self.pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for (number, line) in Self.prose(text) {
                let place = "\(page.lastPathComponent):\(number): \(line)"
                // Example values in `code` (a `date:2024-05-01` argument) are not dates of events.
                let words = line.replacing(/`[^`]*`/, with: "")
                if !line.hasPrefix("Measured on:") {
                    #expect(words.firstMatch(of: /20\d\d-\d\d-\d\d/) == nil, "a date: \(place)")
                }
                #expect(line.firstMatch(of: /(?i)\bissues? #?\d+|\bsession\b/) == nil, "history: \(place)")
            }
        }
    }

    /// Each capture marker is followed by one closed ```text block (what
    /// `scripts/capture-dashboard` fills, and nothing past it), and docs/dashboard.md has a
    /// section for every tab: a fill that ran past a block once swallowed two of them.
    @Test func capturesAreClosedBlocksAndEveryTabHasItsSection() throws {
        for page in Self.pages {
            let lines = try String(contentsOf: page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.hasPrefix("<!-- capture: ") {
                let place = "\(page.lastPathComponent):\(index + 1)"
                #expect(lines.indices.contains(index + 1) && lines[index + 1] == "```text", "no block after the marker: \(place)")
                let close = lines[(index + 2)...].firstIndex { $0.hasPrefix("```") }
                #expect(close.map { lines[$0] == "```" } == true, "the block is not closed before another opens: \(place)")
            }
        }
        let dashboard = try String(contentsOf: VersionTests.checkout.appending(path: "docs/dashboard.md"), encoding: .utf8)
        for tab in ["1 Query", "2 Fetch", "3 Changes", "4 Zones", "5 Schema", "6 Subscriptions", "7 Sharing", "8 Logs", "9 Faults"] {
            #expect(dashboard.contains("\n### \(tab)\n"), "docs/dashboard.md has no section ### \(tab)")
        }
    }

    @Test func theReadmeIsShortAndLinksPagesThatExist() throws {
        let readme = try String(contentsOf: VersionTests.checkout.appending(path: "README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        // The dashboard's capture is a picture, not reading.
        #expect(lines <= 250 + 32, "README.md has \(lines) lines")
        for match in readme.matches(of: /\]\((docs\/[a-z-]+\.md|CHANGELOG\.md)[)#]/) {
            let path = String(match.output.1)
            // server.md is the server's own page, written with the server.
            guard path != "docs/server.md" || FileManager.default.fileExists(atPath: VersionTests.checkout.appending(path: path).path) else { continue }
            #expect(FileManager.default.fileExists(atPath: VersionTests.checkout.appending(path: path).path), "README links \(path)")
        }
    }
}
