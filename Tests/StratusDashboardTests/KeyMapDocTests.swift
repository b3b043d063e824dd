import Foundation
@testable import StratusDashboard
import Testing

/// docs/dashboard.md's key list is the key map itself, section by section as the `?` overlay
/// shows it: the test fails when a key is added, changed or removed without the page.
/// `STRATUS_WRITE_DOCS=1 swift test --skip-build --filter KeyMapDocTests` rewrites the list.
@Suite struct KeyMapDocTests {
    static let page = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "docs/dashboard.md")
    static let begin = "<!-- keys: begin (generated from KeyMap.table by KeyMapDocTests) -->"
    static let end = "<!-- keys: end -->"

    /// One table per context title, in the key map's order of contexts.
    static func keyList() -> String {
        var titles: [String] = []
        for context in KeyContext.allCases where !titles.contains(context.title) { titles.append(context.title) }
        var sections: [String] = []
        for title in titles {
            let rows = KeyMap.table.filter { $0.context.title == title }
            guard !rows.isEmpty else { continue }
            var lines = ["#### \(title)", "", "| Keys | What |", "| --- | --- |"]
            for binding in rows {
                let keys = binding.keys.map { "`\($0.label)`" }.joined(separator: " ")
                lines.append("| \(keys) | \(binding.help.replacingOccurrences(of: "|", with: "\\|")) |")
            }
            sections.append(lines.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }

    @Test func theDashboardPageListsEveryKeyOfTheKeyMap() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "docs/dashboard.md lacks \(Self.begin)")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex), "docs/dashboard.md lacks \(Self.end)")
        let expected = "\n" + Self.keyList() + "\n"
        let current = String(text[start.upperBound..<stop.lowerBound])
        if current != expected, ProcessInfo.processInfo.environment["STRATUS_WRITE_DOCS"] == "1" {
            try text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: expected)
                .write(to: Self.page, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == expected, "docs/dashboard.md's key list differs from KeyMap.table: run STRATUS_WRITE_DOCS=1 swift test --skip-build --filter KeyMapDocTests")
        // Every binding's help text is on the page, so no key is left out.
        for binding in KeyMap.table { #expect(current.contains(binding.help), "\(binding.label): \(binding.help)") }
    }
}
