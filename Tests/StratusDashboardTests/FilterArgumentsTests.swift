import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

/// `%@` arguments in the filter editor: one row per specifier under the text, each checked
/// as typed with the command line's `--arg` syntax, bound for the live check and passed to the
/// engine's query.
@Suite struct FilterArgumentsTests {
    func editor(_ harness: Harness, sourceLocation: SourceLocation = #_sourceLocation) throws -> FilterEditorState {
        guard case .filterEditor(let editor)? = harness.state.topModal else {
            Issue.record("no filter editor on top", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return editor
    }

    /// A place name of the demo store, and how many places have it.
    func placeName(_ harness: Harness) throws -> (name: String, count: Int) {
        let place = try harness.database.record(for: RecordID(recordName: "place-0", zoneID: ZoneID(zoneName: "Travel")))
        guard case .string(let name)? = place["name"] else { throw CancellationError() }
        var count = 0
        var cursor: String?
        repeat {
            let page = cursor == nil
                ? try harness.database.records(matching: Query(recordType: "Place", predicateFormat: "name == %@", arguments: [.string(name)]),
                                               inZoneWith: ZoneID(zoneName: "Travel"))
                : try harness.database.records(continuingMatchFrom: cursor!)
            count += page.records.count
            cursor = page.cursor
        } while cursor != nil
        return (name, count)
    }

    @Test func typesAnArgumentAndRunsTheQueryWithIt() throws {
        let harness = try Harness(recordType: "Place")
        let (name, count) = try placeName(harness)
        harness.press(.char("f"), .tab)
        harness.type("name == %@")
        var opened = try editor(harness)
        #expect(opened.argumentRows.map(\.specifier) == ["@"])
        // No argument yet: the bound check says so, on the specifier.
        #expect(opened.check?.isValid == false)
        #expect(opened.check?.problems.first?.message == "argument 1 for %@ is missing: type it under Arguments (Tab), e.g. string:Tokyo")
        #expect(opened.check?.problems.first?.offset == 8)
        #expect(harness.screen().contains("Arguments"))
        #expect(harness.screen().contains("1 %@"))
        #expect(opened.builderNote == "format specifiers (%@, %K ...) are edited as text, with their values under Arguments")
        // Enter refuses to run it.
        harness.press(.enter)
        #expect(harness.state.status?.text.hasPrefix("Not applied: argument 1 for %@ is missing") == true)
        harness.press(.tab)
        opened = try editor(harness)
        #expect(opened.focus == .arguments)
        harness.type("string:\(name)")
        let typed = try editor(harness)
        #expect(typed.argumentRows[0].error == nil)
        #expect(typed.check?.isValid == true)
        #expect(typed.check?.canonical == "name == \"\(name)\"")
        #expect(harness.screen().contains("✓ STRING"))
        harness.press(.enter)
        #expect(harness.state.topModal == nil)
        #expect(harness.state.query.filter == "name == %@")
        #expect(harness.state.query.arguments == ["string:\(name)"])
        #expect(harness.state.query.error == nil)
        #expect(harness.state.query.records.count == count)
        #expect(count > 0)
        #expect(harness.state.query.records.allSatisfy { $0["name"] == .string(name) })
        #expect(harness.screen().contains("name == %@ ← string:\(name)"))
        // Recent filters keep the arguments; reopening the editor shows them.
        #expect(harness.state.preferences.recentFilters["Place"]?.first == RecentFilter(text: "name == %@", arguments: ["string:\(name)"]))
        harness.press(.char("f"))
        #expect(try editor(harness).arguments == ["string:\(name)"])
        #expect(try editor(harness).check?.isValid == true)
    }

    @Test func anInvalidArgumentShowsItsErrorInPlace() throws {
        let harness = try Harness(size: Size(width: 100, height: 30), recordType: "Place")
        harness.press(.char("f"), .tab)
        harness.type("visits > %@")
        harness.press(.tab)
        harness.type("int:many")
        let editor = try editor(harness)
        #expect(editor.argumentRows[0].error == "int:many is not a 64-bit integer")
        #expect(editor.check?.problems.first?.message == "argument 1 (%@): int:many is not a 64-bit integer")
        #expect(editor.check?.problems.first?.offset == 9)
        let screen = harness.screen()
        #expect(screen.contains("✗ int:many is not a 64-bit integer"))
        // The specifier is underlined in the text above.
        let lines = screen.components(separatedBy: "\n")
        let textLine = try #require(lines.firstIndex { $0.contains("> visits > %@") })
        #expect(lines[textLine + 1].contains("^~"))
        harness.press(.enter)
        #expect(harness.state.status?.kind == .error)
        #expect(try self.editor(harness).focus == .arguments)
        // A value of the wrong type parses but the bound check refuses it.
        for _ in 0..<4 { harness.press(.backspace) }
        harness.type("50")
        #expect(try self.editor(harness).check?.isValid == true)
        for _ in 0..<6 { harness.press(.backspace) }
        harness.type("ref:place-1")
        let bound = try self.editor(harness)
        #expect(bound.argumentRows[0].error == nil)
        #expect(bound.check?.isValid == false)
        // No type at all is the argument parser's own message.
        harness.press(.ctrl("u"))
        harness.type("fifty")
        #expect(try self.editor(harness).argumentRows[0].error?.contains("has no type: write TYPE:VALUE") == true)
    }

    @Test func tabCyclesBuilderTextAndArgumentsAndRowsFollowTheText() throws {
        let harness = try Harness(recordType: "Place")
        harness.press(.char("f"))
        #expect(try editor(harness).focus == .builder)
        harness.press(.tab)
        #expect(try editor(harness).focus == .text)
        // Without specifiers Tab goes back to the builder.
        harness.press(.tab)
        #expect(try editor(harness).focus == .builder)
        harness.press(.tab)
        harness.type("%K == %@")
        #expect(try editor(harness).argumentRows.map(\.specifier) == ["K", "@"])
        harness.press(.tab)
        #expect(try editor(harness).focus == .arguments)
        harness.type("key:city")
        harness.press(.down)
        harness.type("string:Tokyo")
        let both = try editor(harness)
        #expect(both.arguments == ["key:city", "string:Tokyo"])
        #expect(both.check?.isValid == true)
        #expect(both.check?.canonical == "city == \"Tokyo\"")
        harness.press(.up)
        #expect(try editor(harness).argumentRow == 0)
        harness.press(.tab)
        #expect(try editor(harness).focus == .builder)
        harness.press(.backTab)
        #expect(try editor(harness).focus == .arguments)
        // Removing the last specifier drops its row and keeps the first argument.
        harness.press(.backTab)
        for _ in 0..<2 { harness.press(.backspace) }
        harness.type("\"Tokyo\"")
        let one = try editor(harness)
        #expect(one.argumentRows.map(\.specifier) == ["K"])
        #expect(one.arguments == ["key:city"])
        #expect(one.check?.canonical == "city == \"Tokyo\"")
        // An open string does not lex: the rows stay until it does.
        harness.press(.ctrl("u"))
        harness.type("%K == \"Tok")
        #expect(try editor(harness).argumentRows.count == 1)
    }

    @Test func recentFiltersRestoreTheirArguments() throws {
        let harness = try Harness(recordType: "Place")
        harness.state.preferences.remember(filter: "visits > %@", arguments: ["int:10"], for: "Place")
        harness.state.preferences.remember(filter: "visits < 5", for: "Place")
        harness.press(.char("f"), .ctrl("r"))
        guard case .picker(let picker)? = harness.state.topModal else {
            Issue.record("no recent picker")
            return
        }
        #expect(picker.items.map(\.label) == ["visits < 5", "visits > %@"])
        #expect(picker.items[1].detail == "int:10")
        harness.press(.down, .enter)
        let editor = try editor(harness)
        #expect(editor.text.text == "visits > %@")
        #expect(editor.arguments == ["int:10"])
        #expect(editor.check?.isValid == true)
        harness.press(.ctrl("s"))
        #expect(harness.state.query.arguments == ["int:10"])
        #expect(harness.state.query.records.allSatisfy { ($0["visits"].flatMap { if case .int64(let v) = $0 { v } else { nil } } ?? 0) > 10 })
    }

    @Test func preferencesWrittenBeforeArgumentsStillLoad() throws {
        let old = Data(#"{"recentFilters": {"Trip": ["nights > 3"]}, "bookmarks": []}"#.utf8)
        let preferences = try JSONDecoder().decode(DashboardPreferences.self, from: old)
        #expect(preferences.recentFilters["Trip"] == [RecentFilter(text: "nights > 3")])
        var updated = preferences
        updated.remember(filter: "nights > %@", arguments: ["int:4"], for: "Trip")
        let again = try JSONDecoder().decode(DashboardPreferences.self, from: JSONEncoder().encode(updated))
        #expect(again.recentFilters["Trip"]?.first == RecentFilter(text: "nights > %@", arguments: ["int:4"]))
    }
}
