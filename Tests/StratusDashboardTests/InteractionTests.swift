import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusPredicates
import StratusTerminal
import Testing
import StratusCloud

/// Scripted key presses on the state machine, with a real demo store and its engine behind it.
@Suite struct InteractionTests {
    @Test func startsLoadsZonesSchemaAndTheFirstPage() throws {
        let harness = try Harness(records: Fixtures.trips(120))
        #expect(harness.state.zones.map(\.zoneID.zoneName).contains("Travel"))
        #expect(harness.state.recordTypes.contains { $0.name == "Trip" })
        #expect(harness.state.query.records.count == 50)
        #expect(harness.state.query.cursor == "50")
        #expect(harness.state.jobs.isEmpty)
        let screen = harness.screen()
        #expect(screen.contains("Stratus ▸ demo.sqlite ▸ private ▸ Travel ▸ Trip"))
        #expect(screen.contains("1/50 loaded, more available"))
        #expect(screen.contains("京都 旅行"))
    }

    @Test func switchesTabsWithNumbersAndBrackets() throws {
        let harness = try Harness()
        harness.press(.char("2"))
        #expect(harness.state.tab == .fetch)
        harness.press(.char("]"))
        #expect(harness.state.tab == .changes)
        harness.press(.char("5"))
        #expect(harness.state.tab == .schema)
        harness.press(.char("]"))
        #expect(harness.state.tab == .subscriptions)
        harness.press(.char("]"))
        #expect(harness.state.tab == .sharing)
        harness.press(.char("]"))
        #expect(harness.state.tab == .logs)
        harness.press(.char("]"))
        #expect(harness.state.tab == .faults)
        harness.press(.char("]"))
        #expect(harness.state.tab == .query)
        harness.press(.char("["))
        #expect(harness.state.tab == .faults)
        harness.press(.char("["))
        #expect(harness.state.tab == .logs)
        harness.press(.char("["), .char("["), .char("["))
        #expect(harness.state.tab == .schema)
        #expect(harness.screen().contains("QUERYABLE"))
        harness.press(.char("4"))
        #expect(harness.screen().contains("Travel"))
        #expect(harness.screen().contains("current token"))
    }

    @Test func pagesThroughResultsWithTheCursor() throws {
        let harness = try Harness(records: Fixtures.trips(120), size: Size(width: 80, height: 24))
        #expect(harness.state.query.records.count == 50)
        // Moving within the first screen does not load more.
        harness.press(.down, .down)
        #expect(harness.state.query.records.count == 50)
        // Near the end of what is loaded, the next page comes with the cursor.
        harness.press(.pageDown, .pageDown)
        #expect(harness.state.query.records.count == 100)
        // G before the result is counted: its last page, read from its end, nothing in between.
        harness.press(.char("G"))
        #expect(harness.state.query.records.count == 100)
        #expect(QueryTab.selectedQueryRecord(harness.state)?.recordName == "trip-119")
        // Paged to the end from the top, the cursor runs out.
        harness.press(.char("g"))
        for _ in 0..<12 { harness.press(.pageDown) }
        #expect(harness.state.query.records.count == 120)
        #expect(harness.state.query.cursor == nil)
        #expect(harness.state.query.list.selected == 119)
        #expect(harness.screen().contains("120/120 loaded"))
        #expect(!harness.screen().contains("more available"))
    }

    @Test func buildsAFilterInTheBuilderAndSeesTheText() throws {
        let harness = try Harness(records: Fixtures.trips(30))
        harness.press(.char("f"))
        guard case .filterEditor(let opened)? = harness.state.topModal else {
            Issue.record("no filter editor")
            return
        }
        #expect(opened.rows.isEmpty)
        // a adds a condition and opens the field picker.
        harness.press(.char("a"))
        guard case .picker(let fields)? = harness.state.topModal else {
            Issue.record("no field picker")
            return
        }
        let nightsIndex = try #require(fields.items.firstIndex { $0.label == "nights" })
        for _ in 0..<nightsIndex { harness.press(.down) }
        harness.press(.enter)
        // Operator cell: choose >.
        harness.press(.enter)
        guard case .picker(let ops)? = harness.state.topModal else {
            Issue.record("no operator picker")
            return
        }
        #expect(ops.items.map(\.label).contains("BETWEEN"))
        #expect(!ops.items.map(\.label).contains("BEGINSWITH"))
        let greater = try #require(ops.items.firstIndex { $0.label == ">" })
        for _ in 0..<greater { harness.press(.down) }
        harness.press(.enter)
        // Value cell: type 3.
        harness.press(.enter)
        harness.type("3")
        harness.press(.enter)
        guard case .filterEditor(var editor)? = harness.state.topModal else {
            Issue.record("editor closed")
            return
        }
        #expect(editor.text.text == "nights > 3")
        #expect(editor.check?.isValid == true)
        // A second condition on a string: BEGINSWITH with CJK.
        harness.press(.char("a"))
        guard case .picker(let fields2)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        let title = try #require(fields2.items.firstIndex { $0.label == "title" })
        for _ in 0..<title { harness.press(.down) }
        harness.press(.enter)
        harness.press(.enter)
        guard case .picker(let stringOps)? = harness.state.topModal else {
            Issue.record("no operator picker")
            return
        }
        let begins = try #require(stringOps.items.firstIndex { $0.label == "BEGINSWITH" })
        for _ in 0..<begins { harness.press(.down) }
        harness.press(.enter)
        harness.press(.enter)
        harness.type("京都")
        harness.press(.enter)
        guard case .filterEditor(let two)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        editor = two
        #expect(editor.text.text == "nights > 3 AND title BEGINSWITH \"京都\"")
        #expect(harness.screen().contains("AND title"))
        #expect(harness.screen().contains("✓ valid"))
        // Apply: the query runs with the filter and it is remembered.
        harness.press(.ctrl("s"))
        #expect(harness.state.topModal == nil)
        #expect(harness.state.query.filter == "nights > 3 AND title BEGINSWITH \"京都\"")
        #expect(harness.state.preferences.recentFilters["Trip"]?.first?.text == harness.state.query.filter)
    }

    @Test func typedTextUpdatesTheBuilder() throws {
        let harness = try Harness(records: Fixtures.trips(10))
        harness.press(.char("f"), .tab)
        harness.type("nights >= 2 AND tags CONTAINS \"雪\"")
        guard case .filterEditor(let editor)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(editor.builderSynced)
        #expect(editor.rows == [BuilderRow(field: "nights", op: .greaterOrEqual, value: "2"),
                                BuilderRow(field: "tags", op: .contains, value: "雪")])
    }

    @Test func sortsByDistanceFromALocation() throws {
        let harness = try Harness(records: Fixtures.trips(10))
        harness.press(.char("s"))
        guard case .picker(let picker)? = harness.state.topModal else {
            Issue.record("no sort picker")
            return
        }
        let nearest = try #require(picker.items.firstIndex { $0.value == "destination:near-asc" })
        #expect(!picker.items.contains { $0.value.hasPrefix("destination:asc") })
        for _ in 0..<nearest { harness.press(.down) }
        harness.press(.enter)
        guard case .textInput? = harness.state.topModal else {
            Issue.record("no location dialog")
            return
        }
        // A bad location keeps the dialog open with the error in it.
        harness.type("35.68,239.77")
        harness.press(.enter)
        guard case .textInput(let input)? = harness.state.topModal else {
            Issue.record("the dialog closed on a bad location")
            return
        }
        #expect(input.error?.contains("off the Earth") == true)
        #expect(harness.screen().contains("off the Earth"))
        for _ in 0..<6 { harness.press(.backspace) }
        harness.type("xyz")
        harness.press(.enter)
        guard case .textInput(let input2)? = harness.state.topModal else { Issue.record("expected the text input, got \(String(describing: harness.state.topModal))"); return }
        #expect(input2.error?.contains("LATITUDE,LONGITUDE") == true)
        for _ in 0..<3 { harness.press(.backspace) }
        harness.type("139.77")
        harness.press(.enter)
        #expect(harness.state.topModal == nil)
        let expected = QuerySort("destination", ascending: true, distanceFrom: Location(latitude: 35.68, longitude: 139.77))
        #expect(harness.state.query.sort == [expected])
        #expect(harness.state.query.request?.sort == [expected])
        #expect(harness.screen().contains("Sort distance from 35.68,139.77 ↑"))
    }

    @Test func anInvalidFilterShowsTheErrorInPlace() throws {
        let harness = try Harness(records: Fixtures.trips(10), size: Size(width: 80, height: 24))
        harness.press(.char("f"), .tab)
        harness.type("title == \"京都\" OR nights > 1")
        guard case .filterEditor(let editor)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(editor.check?.isValid == false)
        #expect(editor.check?.problems.first?.offset == 14)
        #expect(!editor.builderSynced)
        let lines = harness.screen().components(separatedBy: "\n")
        let fieldLine = try #require(lines.firstIndex { $0.contains("> title == \"京都\" OR") })
        // "OR" is at column 15 of the text (京都 are two columns each): the carets sit under it.
        let field = lines[fieldLine]
        let caretLine = lines[fieldLine + 1]
        let orColumn = DisplayWidth.of(String(field[..<field.range(of: "OR")!.lowerBound]))
        let caretColumn = DisplayWidth.of(String(caretLine[..<caretLine.firstIndex(of: "^")!]))
        #expect(caretColumn == orColumn)
        #expect(caretLine.contains("^~"))
        #expect(harness.screen().contains("✗ CloudKit doesn't support OR"))
        // Enter refuses to apply it.
        harness.press(.enter)
        #expect(harness.state.status?.kind == .error)
        guard case .filterEditor? = harness.state.topModal else {
            Issue.record("the editor closed on an invalid filter")
            return
        }
        // Fixing it applies.
        for _ in 0..<14 { harness.press(.backspace) }
        harness.press(.enter)
        #expect(harness.state.query.filter == "title == \"京都\"")
    }

    @Test func playsBackChangesAndTakesTheToken() throws {
        let harness = try Harness()
        harness.press(.char("3"))
        harness.press(.char("p"))
        harness.press(.up, .up, .enter)  // 50 per page
        #expect(harness.state.changes.pageSize == 50)
        harness.press(.char("r"))
        let changes = harness.state.changes
        #expect(changes.finished)
        #expect(changes.pages > 1)
        #expect(changes.eventCount == changes.events.count)
        #expect(changes.events.contains { $0.kind == .deleted })
        let token = try #require(changes.token)
        #expect(token == (try harness.database.currentToken(for: ZoneID(zoneName: "Travel"))))
        #expect(harness.screen().contains("Done: \(changes.eventCount) events"))
        // Copy and bookmark.
        harness.press(.char("y"))
        #expect(harness.copied.withLock { $0 } == [token])
        harness.press(.char("m"))
        #expect(harness.state.preferences.bookmarks.count == 1)
        // A save after the token, then playback from the bookmark shows just that change.
        var trip = try harness.database.record(for: RecordID(recordName: "trip-0", zoneID: ZoneID(zoneName: "Travel")))
        trip["title"] = .string("変更 ✨")
        try harness.database.save(trip)
        harness.press(.char("b"), .enter)
        #expect(harness.state.changes.since == token)
        harness.press(.char("r"))
        #expect(harness.state.changes.events.map(\.recordName) == ["trip-0"])
        #expect(harness.state.changes.events.first?.fields == ["title"], "the field the save changed, not every field of the record")
        // Metadata-only playback: changed keys are names, not values, so they still show.
        harness.press(.char("c"), .char("a"), .enter)
        #expect(harness.state.changes.keys == .none)
        harness.press(.char("r"))
        #expect(harness.state.changes.events.first?.fields == ["title"])
        // Current token without playback.
        harness.press(.char("t"))
        #expect(harness.state.changes.events.isEmpty)
        #expect(harness.state.changes.token == (try harness.database.currentToken(for: ZoneID(zoneName: "Travel"))))
    }

    @Test func aBookmarkTheHistoryWasCompactedPastIsMarkedExpired() throws {
        let harness = try Harness()
        let travel = ZoneID(zoneName: "Travel")
        harness.press(.char("3"), .char("r"))
        let old = try #require(harness.state.changes.token)
        harness.press(.char("m"))
        // More changes, a second bookmark, then the history before it is compacted away.
        var trip = try harness.database.record(for: RecordID(recordName: "trip-0", zoneID: travel))
        trip["title"] = .string("after the first bookmark")
        try harness.database.save(trip)
        harness.press(.char("t"))
        let kept = try #require(harness.state.changes.token)
        #expect(kept != old)
        harness.press(.char("m"))
        var again = try harness.database.record(for: trip.recordID)
        again["title"] = .string("after the second bookmark")
        try harness.database.save(again)
        _ = try harness.database.compactHistory(inZoneWith: travel, before: kept, keeping: nil)
        harness.press(.char("b"))
        guard case .picker(let picker)? = harness.state.modals.last else {
            Issue.record("b opens the bookmarks")
            return
        }
        #expect(picker.items.count == 2)
        #expect(picker.items[0].label.hasSuffix("(expired)"))
        #expect(!picker.items[1].label.hasSuffix("(expired)"))
        #expect(harness.screen().contains("(expired)"))
    }

    @Test func escCancelsAPlaybackBetweenPages() throws {
        let harness = try Harness()
        harness.autoRun = false
        harness.press(.char("3"), .char("r"))
        let job = try #require(harness.state.changes.job)
        #expect(harness.state.isBusy)
        #expect(harness.screen().contains("Esc cancels"))
        // The first page arrives, then Esc.
        harness.send(.changes(.page(job: job, events: [ChangeEvent(kind: .changed, recordType: "Trip", recordName: "trip-1", fields: [], changeTag: nil)],
                                  count: 1, pages: 1, token: "T1", moreComing: true, elapsed: 0.01)))
        #expect(harness.screen().contains("Playing back Travel: 1 events"))
        harness.press(.escape)
        #expect(harness.state.changes.cancelled)
        #expect(harness.state.changes.job == nil)
        #expect(!harness.state.isBusy)
        #expect(harness.state.status?.text.contains("Cancelled the playback after 1 events") == true)
        // Pages still in flight are dropped.
        harness.send(.changes(.page(job: job, events: [], count: 0, pages: 1, token: "T2", moreComing: false, elapsed: 0.02)))
        #expect(harness.state.changes.token == "T1")
        // The runner stops at the next page: the effect posts nothing once cancelled.
        let effect = Effect.changes(.play(job: job, zone: ZoneID(zoneName: "Travel"), scope: .private, since: nil, desiredKeys: nil, pageSize: 10))
        let count = CountBox()
        harness.runner.execute(effect) { _ in count.add() }
        #expect(count.value == 0)
    }

    @Test func fetchesNamesTypedOrPasted() throws {
        let harness = try Harness()
        harness.press(.char("2"), .char("i"))
        harness.type("trip-2, place-3 nope")
        harness.press(.enter)
        let rows = harness.state.fetch.rows
        #expect(rows.map(\.recordName) == ["trip-2", "place-3", "nope"])
        #expect(rows[0].record?.recordType == "Trip")
        #expect(rows[1].record?.recordType == "Place")
        #expect(rows[2].error?.code == .unknownItem)
        let screen = harness.screen()
        #expect(screen.contains("not found"))
        #expect(screen.contains("2 of 3 found"))
        // A paste on the Fetch tab opens the names with the pasted text.
        harness.send(.paste("trip-4\ntrip-5\n"))
        harness.press(.enter)
        #expect(harness.state.fetch.rows.map(\.recordName) == ["trip-4", "trip-5"])
        // Enter inspects; Enter on a reference follows it.
        harness.press(.char("i"), .ctrl("u"))
        harness.type("place-1")
        harness.press(.enter, .enter)
        guard case .inspector(let inspector)? = harness.state.topModal else {
            Issue.record("no inspector")
            return
        }
        let rows2 = InspectorRows.rows(inspector.record, schema: harness.state.schema(named: "Place"))
        let tripRow = try #require(rows2.firstIndex { $0.name == "trip" })
        for _ in 0..<tripRow { harness.press(.down) }
        harness.press(.enter)
        guard case .inspector(let followed)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(followed.record.recordType == "Trip")
        #expect(harness.state.modals.count == 2)
        harness.press(.escape)
        #expect(harness.state.modals.count == 1)
    }

    @Test func editsARecordAndResolvesAConflict() throws {
        let harness = try Harness()
        let travel = ZoneID(zoneName: "Travel")
        harness.press(.char("2"), .char("i"))
        harness.type("trip-2")
        harness.press(.enter, .enter, .char("e"))
        guard case .form(let form)? = harness.state.topModal else {
            Issue.record("no form")
            return
        }
        let nights = try #require(form.rows.firstIndex { $0.name == "nights" })
        for _ in 0..<nights { harness.press(.down) }
        harness.press(.ctrl("u"))
        harness.type("x")
        harness.press(.ctrl("s"))
        guard case .form(let refused)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(refused.rows[nights].error == "'x' is not a whole number")
        harness.press(.backspace)
        harness.type("42")
        // Meanwhile someone else changes the record.
        var other = try harness.database.record(for: RecordID(recordName: "trip-2", zoneID: travel))
        other["title"] = .string("他の人の変更")
        try harness.database.save(other)
        harness.press(.ctrl("s"))
        guard case .conflict(let conflict)? = harness.state.topModal else {
            Issue.record("no conflict dialog")
            return
        }
        #expect(conflict.server.recordChangeTag != conflict.mine.recordChangeTag)
        #expect(harness.state.status?.text.hasPrefix("serverRecordChanged (14)") == true)
        #expect(harness.screen().contains("≠ nights"))
        // Overwrite with all keys: my nights and my (old) title win.
        harness.press(.char("o"))
        #expect(harness.state.modals.count == 1)
        let saved = try harness.database.record(for: RecordID(recordName: "trip-2", zoneID: travel))
        #expect(saved["nights"] == .int64(42))
        #expect(saved["title"] != .string("他の人の変更"))
        guard case .inspector(let inspector)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(inspector.record.recordChangeTag == saved.recordChangeTag)
    }

    @Test func takingTheServersVersionDropsTheEdit() throws {
        let harness = try Harness()
        let travel = ZoneID(zoneName: "Travel")
        harness.press(.char("2"), .char("i"))
        harness.type("trip-3")
        harness.press(.enter, .enter, .char("e"))
        guard case .form(let form)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        let title = try #require(form.rows.firstIndex { $0.name == "title" })
        for _ in 0..<title { harness.press(.down) }
        harness.type("!")
        var other = try harness.database.record(for: RecordID(recordName: "trip-3", zoneID: travel))
        other["nights"] = .int64(99)
        try harness.database.save(other)
        harness.press(.ctrl("s"), .char("s"))
        guard case .inspector(let inspector)? = harness.state.topModal else {
            Issue.record("expected the inspector")
            return
        }
        #expect(inspector.record["nights"] == .int64(99))
    }

    @Test func createsAndDeletesRecordsAskingFirst() throws {
        let harness = try Harness(recordType: "Note", demo: true)
        harness.press(.char(":"))
        harness.type("zone _defaultZone")
        harness.press(.enter)
        #expect(harness.state.zone == .default)
        harness.press(.char("n"))
        harness.type("note-new")
        harness.press(.down)
        // Rows: pinned (INT64), text (STRING).
        harness.type("1")
        harness.press(.down)
        harness.type("新しいメモ 📝")
        harness.press(.ctrl("s"))
        let made = try harness.database.record(for: RecordID(recordName: "note-new"))
        #expect(made["text"] == .string("新しいメモ 📝"))
        #expect(made["pinned"] == .int64(1))
        #expect(harness.state.status?.text.contains("Saved Note note-new") == true)
        // Delete asks; n keeps it.
        harness.press(.char("2"), .char("i"))
        harness.type("note-new")
        harness.press(.enter, .enter, .char("d"))
        guard case .confirm? = harness.state.topModal else {
            Issue.record("delete did not ask")
            return
        }
        harness.press(.char("n"))
        #expect((try? harness.database.record(for: RecordID(recordName: "note-new"))) != nil)
        harness.press(.char("d"), .char("y"))
        #expect((try? harness.database.record(for: RecordID(recordName: "note-new"))) == nil)
        #expect(harness.state.status?.text == "Deleted note-new.")
        if case .inspector? = harness.state.topModal { Issue.record("the inspector of a deleted record stayed open") }
    }

    @Test func commandLineSwitchesZoneDatabaseAndCompletes() throws {
        let harness = try Harness()
        harness.press(.char(":"))
        harness.type("zone Pe")
        harness.press(.tab)
        guard case .commandLine(let line)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(line.field.text == "zone People ")
        harness.press(.enter)
        #expect(harness.state.zone.zoneName == "People")
        harness.press(.char(":"))
        harness.type("db public")
        harness.press(.enter)
        #expect(harness.state.scope == .public)
        #expect(harness.state.zone == .default)
        #expect(harness.state.zones.map(\.zoneID) == [.default])
        harness.press(.char(":"))
        harness.type("nonsense")
        harness.press(.enter)
        #expect(harness.state.status?.kind == .error)
        harness.press(.char(":"), .char("q"), .enter)
        #expect(harness.state.wantsQuit)
    }

    @Test func zonePickerAndZonesTab() throws {
        let harness = try Harness()
        try harness.selectZone(named: "Library")
        harness.press(.enter)
        #expect(harness.state.zone.zoneName == "Library")
        #expect(harness.state.tab == .query)
        harness.press(.char("z"))
        guard case .picker(let picker)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(picker.items.map(\.label).contains("Travel"))
        harness.press(.escape)
        #expect(harness.state.topModal == nil)
    }

    @Test func helpShowsEveryKeyOfTheView() throws {
        let harness = try Harness()
        harness.press(.char("?"))
        let screen = harness.screen(width: 100, height: 80)
        for binding in KeyMap.bindings(in: [.query, .list, .global]) {
            #expect(screen.contains(binding.help), "help misses \(binding.help)")
        }
        harness.press(.escape)
        #expect(harness.state.topModal == nil)
        // The hint bar comes from the same table.
        #expect(harness.screen().contains("f filter  s sort"))
    }

    @Test func resizeKeepsTheSelectionVisible() throws {
        let harness = try Harness(records: Fixtures.trips(50), size: Size(width: 120, height: 40))
        harness.press(.char("G"))
        harness.send(.resize(Size(width: 60, height: 12)))
        let list = harness.state.query.list
        #expect(list.selected - list.offset < Layout.queryRows(Size(width: 60, height: 12)))
        #expect(harness.screen().contains("trip-49"))
    }

    @Test func ctrlCCancelsFirstThenQuits() throws {
        let harness = try Harness()
        harness.autoRun = false
        harness.press(.char("3"), .char("r"))
        harness.press(.ctrl("c"))
        #expect(!harness.state.wantsQuit)
        #expect(!harness.state.isBusy)
        harness.press(.ctrl("c"))
        #expect(harness.state.wantsQuit)
    }
}

final class CountBox: @unchecked Sendable {
    private(set) var value = 0
    func add() { value += 1 }
}
