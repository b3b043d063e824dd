import Foundation
import StratusCloud
import StratusEngine
import StratusSQLite
import Testing

/// The engine's Getting Started article (`Sources/StratusEngine/StratusEngine.docc`) is this
/// test's code: each `swift` block of the article is one `// snippet` region below, in order,
/// and the test runs them, so the article's code compiles, runs and does what it says.
@Suite struct GettingStartedArticleTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theArticlesCodeRunsAsItSays() throws {
        // snippet: open
        let folder = FileManager.default.temporaryDirectory.appending(path: UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let store = try Store(path: folder.appending(path: "app.sqlite").path)
        let database = store.database(.private)
        let notes = ZoneID(zoneName: "Notes")
        try database.modifyRecordZones(saving: [notes])
        // end snippet

        // snippet: save
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: notes))
        note["title"] = .string("Hello 東京")
        note["stars"] = .int64(4)
        let saved = try database.modifyRecords(saving: [note]).savedRecords()[0]
        #expect(saved.recordChangeTag != nil)
        // end snippet

        // snippet: query
        let query = Query(recordType: "Note", predicateFormat: "stars > 3 AND title BEGINSWITH 'Hello'")
        let page = try database.records(matching: query, inZoneWith: notes)
        #expect(page.records.map(\.recordName) == ["n1"])
        // end snippet

        // snippet: invalid
        let substring = Query(recordType: "Note", predicateFormat: "title CONTAINS 'ell'")
        #expect {
            try database.records(matching: substring, inZoneWith: notes)
        } throws: { error in
            (error as? CloudKitError)?.code == .invalidArguments
        }
        // end snippet

        // snippet: conflict
        var mine = saved
        var theirs = saved
        theirs["stars"] = .int64(5)
        _ = try database.modifyRecords(saving: [theirs]).savedRecords()

        mine["stars"] = .int64(1)
        let result = try database.modifyRecords(saving: [mine])
        let conflict = result.partialFailure?.partialErrors["n1"]
        #expect(conflict?.code == .serverRecordChanged)
        #expect(conflict?.serverRecord?["stars"] == .int64(5))
        // end snippet

        // snippet: changes
        let token = try database.currentToken(for: notes)
        _ = try database.modifyRecords(deleting: [note.recordID])
        let changes = try database.recordZoneChanges(inZoneWith: notes, since: token)
        #expect(changes.changes.map(\.recordID.recordName) == ["n1"])
        if case .deleted(let recordID, let recordType) = changes.changes.first {
            #expect(recordID.recordName == "n1" && recordType == "Note")
        } else {
            Issue.record("the delete is not in the changes since the token")
        }
        // end snippet
    }

    /// The regions marked `// snippet: NAME` in this file, without their indentation.
    static func snippets() throws -> [String] {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        var snippets: [String] = []
        var current: [Substring]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// snippet: ") { current = []; continue }
            if trimmed == "// end snippet", let lines = current {
                snippets.append(lines.map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n"))
                current = nil
                continue
            }
            current?.append(line)
        }
        return snippets
    }

    /// The article's `swift` code blocks, in order.
    static func articleBlocks() throws -> [String] {
        let article = try String(contentsOf: checkout.appending(path: "Sources/StratusEngine/StratusEngine.docc/GettingStarted.md"), encoding: .utf8)
        return article.matches(of: /```swift\n(.*?)\n```/.dotMatchesNewlines()).map { String($0.output.1) }
    }

    @Test func theArticlesCodeIsTheTestedCode() throws {
        let blocks = try Self.articleBlocks()
        let snippets = try Self.snippets()
        #expect(snippets.count == 6)
        #expect(blocks == snippets, "GettingStarted.md's swift blocks must be this file's snippet regions, in order")
    }
}
