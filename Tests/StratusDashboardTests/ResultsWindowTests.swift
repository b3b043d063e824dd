import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusPredicates
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

/// Deep scrolls keep a window of result pages: far pages are dropped, remembered by the
/// cursor they started from, and fetched again when the viewport comes back; row numbers,
/// counts and the selection stay those of the whole result.
@Suite struct ResultsWindowTests {
    /// 1,000 trips, pages of 50, at most 120 rows kept.
    func harness() throws -> Harness {
        let harness = try Harness(records: Fixtures.trips(1000), size: Size(width: 80, height: 24))
        harness.state.query.maximumKept = 120
        return harness
    }

    /// The selected row holds the trip with its number (the trips are listed as saved: trip-0, trip-1 ...).
    func expectSelectionRight(_ harness: Harness, sourceLocation: SourceLocation = #_sourceLocation) {
        let query = harness.state.query
        #expect(QueryTab.selectedQueryRecord(harness.state)?.recordName == "trip-\(query.list.selected)", sourceLocation: sourceLocation)
        #expect(query.records.count <= query.maximumKept, sourceLocation: sourceLocation)
        // Every visible row is kept.
        let visible = Layout.queryRows(harness.state.size)
        for row in query.list.offset..<min(query.loadedCount, query.list.offset + visible) {
            #expect(query.record(at: row)?.recordName == "trip-\(row)", sourceLocation: sourceLocation)
        }
    }

    @Test func dropsFarPagesAndKeepsCountsAndSelection() throws {
        let harness = try harness()
        for _ in 0..<40 {
            harness.press(.pageDown)
            expectSelectionRight(harness)
        }
        let query = harness.state.query
        // 40 pages of 17 rows: row 680, with the next pages fetched ahead.
        #expect(query.list.selected == 680)
        #expect(query.loadedCount >= 700)
        #expect(query.pages.count == query.loadedCount / 50)
        #expect(query.windowStart >= 600)
        #expect(query.keptPages.count <= 2)
        #expect(query.pages.map(\.count).allSatisfy { $0 == 50 })
        #expect(QueryTabView.countsText(query).hasPrefix("681/\(query.loadedCount) loaded, more available"))
        #expect(harness.screen().contains("trip-680"))
    }

    @Test func scrollingBackFetchesDroppedPagesFromTheirCursors() throws {
        let harness = try harness()
        for _ in 0..<20 { harness.press(.pageDown) }
        let loaded = harness.state.query.loadedCount
        let cursorAfter = harness.state.query.cursor
        let spy = harness.queries
        spy.nextCursors.withLock { $0.removeAll() }
        let runsBefore = spy.runs.withLock { $0.count }
        // Back up a screen at a time: each dropped page is fetched again from its cursor.
        for _ in 0..<20 {
            harness.press(.pageUp)
            expectSelectionRight(harness)
        }
        #expect(harness.state.query.list.selected == 0)
        #expect(harness.state.query.windowStart == 0)
        let refetched = spy.nextCursors.withLock { $0 }
        #expect(!refetched.isEmpty)
        #expect(refetched.allSatisfy { Int($0)! % 50 == 0 && Int($0)! < 340 })
        #expect(Set(refetched).count == refetched.count, "a page fetched twice: \(refetched)")
        // The first page comes again by running the query; nothing past what was loaded is asked.
        #expect(spy.runs.withLock { $0.count } == runsBefore + 1)
        #expect(harness.state.query.loadedCount == loaded)
        #expect(harness.state.query.cursor == cursorAfter)
        #expect(QueryTabView.countsText(harness.state.query).hasPrefix("1/\(loaded) loaded, more available"))
    }

    @Test func jumpsToTheEndAndBackToTheTop() throws {
        let harness = try harness()
        for _ in 0..<30 { harness.press(.pageDown) }
        harness.press(.char("g"))
        expectSelectionRight(harness)
        #expect(harness.state.query.list.selected == 0)
        let loaded = harness.state.query.loadedCount
        // G before the count: the result's last page, read from its end; g back to the top.
        harness.press(.char("G"))
        #expect(harness.state.query.shownRecord(at: harness.state.query.list.selected)?.recordName == "trip-999")
        #expect(harness.state.query.loadedCount == loaded, "nothing in between read")
        harness.press(.char("g"))
        #expect(harness.state.query.list.selected == 0)
        expectSelectionRight(harness)
        // To the very end page by page: every page fetched once, 1,000 rows counted, no cursor left.
        for _ in 0..<60 { harness.press(.pageDown) }
        #expect(harness.state.query.loadedCount == 1000)
        #expect(harness.state.query.cursor == nil)
        #expect(harness.state.query.list.selected == 999)
        expectSelectionRight(harness)
        #expect(QueryTabView.countsText(harness.state.query).hasPrefix("1,000/1,000 loaded"))
        // Search looks in the kept rows and answers with whole-result row numbers.
        harness.press(.char("/"))
        harness.type("trip-990")
        harness.press(.enter)
        #expect(harness.state.query.list.selected == 990)
        #expect(harness.state.status?.text == "\"trip-990\" found in row 991 of 1,000.")
    }

    @Test func deletingAndInsertingKeepsPageCountsRight() throws {
        var query = QueryTabState()
        query.maximumKept = 100
        let trips = Fixtures.trips(200)
        query.receiveFirstPage(Array(trips[0..<50]), cursor: "50")
        query.receivePage(1, rows: Array(trips[50..<100]), cursor: "100")
        query.receivePage(2, rows: Array(trips[100..<150]), cursor: "150")
        query.trim(keeping: 120..<140)
        #expect(query.keptPages == 1..<3)
        #expect(query.windowStart == 50)
        #expect(query.record(at: 120)?.recordName == "trip-120")
        #expect(query.record(at: 10) == nil)
        query.remove([trips[60].recordID, trips[130].recordID])
        #expect(query.pages.map(\.count) == [50, 49, 49])
        #expect(query.loadedCount == 148)
        #expect(query.record(at: 60)?.recordName == "trip-61")
        #expect(query.pageIndex(containing: 98) == 1)
        #expect(query.pageIndex(containing: 99) == 2)
        // Page 0 again, next to the kept pages: it joins them, and the far end goes.
        query.receivePage(0, rows: Array(trips[0..<50]), cursor: "50")
        #expect(query.keptPages == 0..<3)
        #expect(query.loadedCount == 148)
        #expect(query.cursor == "150")
        query.trim(keeping: 0..<20)
        #expect(query.keptPages == 0..<2)
        // A page away from the kept ones (a jump) replaces them: the next new page, then
        // page 0 again.
        query.receivePage(3, rows: Array(trips[150..<200]), cursor: nil)
        #expect(query.keptPages == 3..<4)
        #expect(query.windowStart == 148)
        #expect(query.cursor == nil)
        #expect(query.pages.map(\.cursor) == [nil, "50", "100", "150"])
        query.receivePage(0, rows: Array(trips[0..<50]), cursor: "50")
        #expect(query.keptPages == 0..<1)
        // A page refetched with fewer rows (the store changed) counts what it has now.
        query.receivePage(1, rows: Array(trips[50..<90]), cursor: "90")
        #expect(query.keptPages == 0..<2)
        #expect(query.pages.map(\.count) == [50, 40, 49, 50])
        #expect(query.records.count == 90)
        let row = query.insertFirst(Fixtures.trips(1, zone: ZoneID(zoneName: "Travel"))[0])
        #expect(row == 0)
        #expect(query.pages[0].count == 51)
    }
}

/// The result counted in the background: the header says how many match, and `G` reaches the
/// last record of the whole result with one page fetch, nothing in between read.
@Suite struct WholeResultTests {
    @Test func gReachesTheLastRecordOfTheWholeResult() throws {
        let harness = try Harness(records: Fixtures.trips(5_000), size: Size(width: 120, height: 30))
        #expect(QueryTabView.countsText(harness.state.query).hasPrefix("1/50 loaded, more available"))
        // G before the count is in: the result is read from its end and its last page shown at
        // once; the count then numbers it, the same record selected.
        harness.press(.char("G"))
        #expect(harness.state.query.tail?.count == 50)
        #expect(harness.state.query.shownRecord(at: harness.state.query.list.selected)?.recordName == "trip-4999")
        #expect(QueryTabView.countsText(harness.state.query).hasPrefix("last 50, 1 from the end · counting"))
        #expect(harness.screen().contains("trip-4999"))
        let fetchesBefore = harness.queries.nextCursors.withLock { $0.count }
        harness.runMapping()
        #expect(harness.state.query.tail == nil)
        #expect(harness.state.query.matchCount == 5_000)
        #expect(harness.state.query.list.selected == 4_999)
        #expect(harness.state.query.record(at: 4_999)?.recordName == "trip-4999")
        #expect(QueryTabView.countsText(harness.state.query).hasPrefix("5,000/5,000 matches"))
        // The walk read 5 pages of 1,000; G then fetched the last page alone, not the 98 pages of 50 between.
        let served = (harness.queries.nextCursors.withLock { $0.count }) - fetchesBefore
        #expect(served <= 7, "served \(served) pages")
        #expect(harness.screen().contains("trip-4999"))
        harness.press(.char("g"))
        #expect(harness.state.query.record(at: 0)?.recordName == "trip-0")
        harness.press(.char("G"))
        #expect(harness.state.query.record(at: 4_999)?.recordName == "trip-4999")
    }

    @Test func theIndexesCountTheResultBeforeItsWalkEnds() throws {
        let harness = try Harness(records: Fixtures.trips(5_000), size: Size(width: 120, height: 30))
        #expect(QueryTabView.countsText(harness.state.query).hasPrefix("1/50 loaded, more available"))
        // The indexes' count arrives; the walk is still held: the header's number is theirs.
        harness.runIndexCount()
        #expect(harness.heldMapping.count == 1)
        #expect(harness.state.query.matchCount == nil)
        #expect(harness.state.query.indexedCount == 5_000)
        #expect(QueryTabView.countsText(harness.state.query).hasPrefix("1/5,000 matches"))
        #expect(harness.screen().contains("1/5,000 matches"))
        // A filter the indexes cannot count alone: the walk counts it.
        harness.state.query.filter = "budget > 100 AND nights == 3"
        harness.press(.char("r"))
        harness.runIndexCount()
        #expect(harness.state.query.indexedCount == nil)
        #expect(!QueryTabView.countsText(harness.state.query).contains("matches"))
        // A filter they can: counted again, and true.
        harness.state.query.filter = "nights == 3"
        harness.press(.char("r"))
        harness.runIndexCount()
        let expected = try harness.database.indexedCount(matching: StratusCloud.Query(recordType: "Trip", predicateFormat: "nights == 3"),
                                                         inZoneWith: harness.state.zone)
        #expect(expected != nil && harness.state.query.indexedCount == expected)
        // The tail read from the end gets its numbers from the count at once.
        harness.press(.char("G"))
        let total = try #require(expected)
        #expect(QueryTabView.countsText(harness.state.query).hasPrefix("\(total.formatted())/\(total.formatted()) matches"))
        harness.runMapping()
        #expect(harness.state.query.matchCount == expected)
    }

    @Test func theTailIsBrowsedBeforeTheCountAndKeepsItsRecordWhenNumbered() throws {
        let harness = try Harness(records: Fixtures.trips(3_000), size: Size(width: 120, height: 30))
        harness.press(.char("G"))
        for _ in 0..<3 { harness.press(.up) }
        #expect(harness.state.query.shownRecord(at: harness.state.query.list.selected)?.recordName == "trip-2996")
        // Up from the tail's first row: the rows before it are not numbered yet.
        for _ in 0..<60 { harness.press(.up) }
        #expect(harness.state.query.list.selected == 0)
        #expect(harness.state.status?.text.contains("the ones before them come when the result is counted") == true)
        harness.press(.down)
        // The same query run again (r) keeps the tail and its selection.
        harness.press(.char("r"))
        #expect(harness.state.query.tail != nil)
        #expect(harness.state.query.shownRecord(at: harness.state.query.list.selected)?.recordName == "trip-2951")
        harness.runMapping()
        #expect(harness.state.query.tail == nil)
        #expect(harness.state.query.list.selected == 2_951)
        #expect(harness.state.query.record(at: 2_951)?.recordName == "trip-2951")
        // g leaves a tail for the first row.
        let again = try Harness(records: Fixtures.trips(3_000), size: Size(width: 120, height: 30))
        again.press(.char("G"))
        again.press(.char("g"))
        #expect(again.state.query.tail == nil && again.state.query.list.selected == 0)
        #expect(again.state.query.record(at: 0)?.recordName == "trip-0")
        // A new query forgets the tail.
        again.press(.char("G"))
        again.state.query.filter = "title == \"x\""
        again.press(.char("r"))
        #expect(again.state.query.tail == nil)
    }

    @Test func escStopsReadingTheEndAndTheCountThenLeavesTheSelectionAlone() throws {
        let harness = try Harness(records: Fixtures.trips(3_000), size: Size(width: 120, height: 30))
        harness.autoRun = false
        harness.press(.char("G"))
        #expect(harness.state.query.tailJob != nil)
        harness.press(.escape)
        #expect(harness.state.query.tailJob == nil)
        #expect(harness.state.status?.text == "Stopped going to the last record.")
        harness.runPending()
        #expect(harness.state.query.tail == nil, "a cancelled read of the end shows nothing")
        harness.runMapping()
        #expect(harness.state.query.matchCount == 3_000)
        #expect(harness.state.query.list.selected == 0, "the count no longer takes the list to the end")
    }

    @Test func theEngineReadsASortedResultFromItsEnd() throws {
        let harness = try Harness(records: Fixtures.trips(1_200), size: Size(width: 120, height: 30))
        harness.state.query.sort = [QuerySort("budget", ascending: false)]
        harness.state.query.pageSize = 10
        harness.press(.char("r"))
        harness.press(.char("G"))
        let shown = harness.state.query.tail
        try #require(shown != nil, "G shows the tail while the result is counted")
        let tail = shown ?? []
        #expect(tail.count == 10)
        let all = try harness.database.records(matching: StratusCloud.Query(recordType: "Trip", sortDescriptors: [StratusPredicates.QuerySort("budget", ascending: false)]),
                                               inZoneWith: harness.state.zone, resultsLimit: 1_000)
        var names = all.records.map { $0.recordName }
        var cursor = all.cursor
        while let next = cursor {
            let page = try harness.database.records(continuingMatchFrom: next, resultsLimit: 1_000)
            names += page.records.map { $0.recordName }
            cursor = page.cursor
        }
        #expect(tail.map { $0.recordName } == Array(names.suffix(tail.count)))
        #expect(harness.screen().contains(names.last ?? "?"))
    }

    @Test func aNewQueryForgetsTheCountAndStopsTheWalk() throws {
        let harness = try Harness(records: Fixtures.trips(500), size: Size(width: 120, height: 30))
        let first = harness.heldMapping.count
        #expect(first == 1)
        harness.press(.char("r"))
        #expect(harness.state.query.matchCount == nil)
        harness.runMapping()
        #expect(harness.state.query.matchCount == 500, "only the newest walk's result is taken")
        // A result of one page needs no walk.
        let small = try Harness(records: Fixtures.trips(20), size: Size(width: 120, height: 30))
        #expect(small.heldMapping.isEmpty)
        #expect(QueryTabView.countsText(small.state.query).hasPrefix("1/20 matches"))
    }
}
