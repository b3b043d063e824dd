import StratusModel
import StratusPredicates
import StratusCloud

/// The Query tab: what is asked, and the results as a window of pages.
///
/// Scrolling far down a large result would keep every page in memory; instead only the pages
/// around the viewport are kept (``records``, at most about ``maximumKept`` rows). Every page
/// fetched is remembered by the cursor it was fetched from and its row count, so rows keep
/// their numbers (the list's selection counts from the first result) and a dropped page is
/// fetched again from its cursor when the viewport comes back to it.
public struct QueryTabState: Sendable {
    var recordType: String?
    /// The filter the results were asked with.
    var filter = ""
    var arguments: [String] = []
    var sort: [QuerySort] = []
    var desiredKeys: [String]?
    var pageSize = 50
    /// The rows of the kept pages, ``windowStart`` being the number of the first.
    public internal(set) var records: [Record] = []
    /// Every page fetched since the query ran, in order.
    private(set) var pages: [ResultPage] = [] { didSet { recount() } }
    /// The pages whose rows are in ``records`` (indices into ``pages``, contiguous).
    private(set) var keptPages: Range<Int> = 0..<0 { didSet { recount() } }
    /// Rows fetched so far, kept or dropped: what the list counts.
    private(set) var loadedCount = 0
    /// The number of the first kept row.
    private(set) var windowStart = 0
    /// The cursor for the page after the last one fetched; nil when there are no more.
    var cursor: String?
    /// Rows kept in memory before pages far from the viewport are dropped (pages the
    /// viewport needs are always kept).
    var maximumKept = QueryTabState.defaultMaximumKept
    /// The selection and scroll, in result rows (0 is the first result, kept or not).
    public internal(set) var list = ListCursor()
    /// Columns scrolled off to the left.
    var columnOffset = 0
    /// The job loading a page (first or next), if any.
    public internal(set) var loadingJob: Int?
    /// The job counting the zone's records by type, when the dashboard started without a
    /// record type: the busiest type is the one to start with.
    var recordCountsJob: Int?
    /// Set while the counts of a zone just switched to load: the record type then in use is kept
    /// if the zone holds records of it, else the zone's busiest type replaces it.
    var typeKeptOnZoneSwitch: String?
    /// Records per type in a zone, as last counted for the record type picker.
    var typeCounts: TypeCounts?
    var hasRun = false
    /// How many records the query matches, once the whole result was walked (see ``adoptPageMap``).
    public internal(set) var matchCount: Int?
    /// How many records the query matches, counted in the indexes (when they can tell) while
    /// the result is still being walked: the header says it at once.
    public internal(set) var indexedCount: Int?
    /// Records counted so far while the result is walked, and the job walking it.
    var countedSoFar: Int?
    var mapJob: Int?
    /// `G` was pressed while the result was being counted: go to the last record when it is.
    var wantsLast = false
    /// A note the status line gives with one run's results (the type chosen for a zone
    /// without the one in use), by the run's job.
    var noteForRun: (job: Int?, text: String)?
    /// The result's last records, read from its end when `G` is pressed before the result is
    /// counted: shown at once, ``list`` counting in them, until the count gives them numbers.
    public private(set) var tail: [Record]?
    /// The job reading ``tail``.
    var tailJob: Int?
    /// The request the rows shown answer: the same query run again (the schema arrived, the
    /// store changed) keeps the selection, and the tail, rather than starting from the top.
    var shownRequest: QueryRequest?
    /// Records a bulk delete (Ctrl-X) removed so far, of how many it set out to.
    var bulkDeleted = 0
    var bulkDeleteTotal = 0
    /// The bulk delete Esc stopped, until its last batch has ended.
    var stoppingBulkDelete: Int?
    /// The record to select when the query run under way brings its first page (the record
    /// this dashboard just saved or put back), if it is among the rows.
    var selectAfterRun: RecordID?
    var lastMilliseconds: Int?
    public internal(set) var error: String?

    static let defaultMaximumKept = 5_000

    init() {}

    var request: QueryRequest? {
        guard let recordType else { return nil }
        return QueryRequest(recordType: recordType, filter: filter, arguments: arguments, sort: sort,
                            desiredKeys: desiredKeys, resultsLimit: pageSize)
    }

    // MARK: - The window

    /// Rows the list moves over: the tail's while it is shown, else every row fetched.
    var rowCount: Int { tail?.count ?? loadedCount }

    /// The record shown in row `row` of the list (of the tail while it is shown).
    func shownRecord(at row: Int) -> Record? {
        guard let tail else { return record(at: row) }
        return tail.indices.contains(row) ? tail[row] : nil
    }

    /// Shows the result's last records, the last one selected.
    mutating func showTail(_ rows: [Record], visible: Int) {
        tail = rows
        list = ListCursor()
        list.move(to: rows.count - 1, count: rows.count, visible: visible)
    }

    /// Leaves the tail for the result's rows; returns the row the tail's selection is in the
    /// whole result once it is counted (nil before).
    @discardableResult
    mutating func leaveTail() -> Int? {
        guard let shown = tail else { return nil }
        tail = nil
        guard let matchCount else { return nil }
        return max(0, matchCount - shown.count + list.selected)
    }

    /// Sums the page counts when the pages change, not when they are read: the view reads
    /// them for every row it draws, and a deep result has thousands of pages.
    private mutating func recount() {
        loadedCount = pages.reduce(0) { $0 + $1.count }
        windowStart = pages[..<min(keptPages.lowerBound, pages.count)].reduce(0) { $0 + $1.count }
    }

    /// The result in row `row`, if its page is kept.
    public func record(at row: Int) -> Record? {
        let index = row - windowStart
        return records.indices.contains(index) ? records[index] : nil
    }

    /// The page that holds row `row`, if it was fetched.
    func pageIndex(containing row: Int) -> Int? {
        guard row >= 0 else { return nil }
        var start = 0
        for (index, page) in pages.enumerated() {
            if row < start + page.count { return index }
            start += page.count
        }
        return nil
    }

    /// Forgets every result (a new query, another zone or type).
    mutating func clearResults() {
        records = []
        pages = []
        keptPages = 0..<0
        cursor = nil
        list = ListCursor()
        matchCount = nil
        indexedCount = nil
        countedSoFar = nil
        wantsLast = false
        tail = nil
        tailJob = nil
    }

    /// Takes the page map of the whole result (every page's cursor and size, walked in the
    /// background): the list then counts every match, and any row, the last one too, is one
    /// page fetch away (from its page's cursor), with nothing in between read.
    ///
    /// The map's pages after the first are larger than the tab's (the engine's largest), so
    /// the pages fetched while it was made (other boundaries) are let go; the first page's rows
    /// stay, and the viewport fetches what it needs from the map's cursors.
    mutating func adoptPageMap(_ map: [ResultPage]) {
        guard let first = map.first, !pages.isEmpty else { return }
        let firstKept = keptPages.contains(0) ? Array(records.prefix(pages[0].count)) : nil
        pages = [ResultPage(cursor: nil, count: firstKept?.count ?? first.count)] + map.dropFirst()
        if let firstKept {
            records = firstKept
            keptPages = 0..<1
        } else {
            records = []
            keptPages = 0..<0
        }
        cursor = nil
        matchCount = loadedCount
        countedSoFar = nil
    }

    /// The first page of a fresh run.
    mutating func receiveFirstPage(_ rows: [Record], cursor next: String?) {
        records = rows
        pages = [ResultPage(cursor: nil, count: rows.count)]
        keptPages = 0..<1
        cursor = next
    }

    /// Page `index`, fetched from its cursor: the next new page (`index == pages.count`, from
    /// ``cursor``) or a page fetched before and dropped. It joins the kept pages when next to
    /// them; otherwise (a jump) it replaces them.
    mutating func receivePage(_ index: Int, rows: [Record], cursor next: String?) {
        let oldCount = index < pages.count ? pages[index].count : 0
        if index >= pages.count {
            pages.append(ResultPage(cursor: cursor, count: rows.count))
            cursor = next
        } else {
            // The store may have changed since: the page holds what it holds now.
            pages[index].count = rows.count
            if index == pages.count - 1 { cursor = next }
        }
        let page = min(index, pages.count - 1)
        if keptPages.isEmpty || page > keptPages.upperBound || page < keptPages.lowerBound - 1 {
            records = rows
            keptPages = page..<(page + 1)
        } else if page == keptPages.upperBound {
            records += rows
            keptPages = keptPages.lowerBound..<(page + 1)
        } else if page == keptPages.lowerBound - 1 {
            records = rows + records
            keptPages = page..<keptPages.upperBound
        } else {
            let start = pages[keptPages.lowerBound..<page].reduce(0) { $0 + $1.count }
            records.replaceSubrange(start..<(start + oldCount), with: rows)
        }
    }

    /// Drops kept pages from the ends, the one farther from `needed` first, while more than
    /// ``maximumKept`` rows are kept; a page with rows in `needed` stays.
    mutating func trim(keeping needed: Range<Int>) {
        while records.count > maximumKept, keptPages.count > 1 {
            let start = windowStart
            let firstCount = pages[keptPages.lowerBound].count
            let lastCount = pages[keptPages.upperBound - 1].count
            let first = start..<(start + firstCount)
            let last = (start + records.count - lastCount)..<(start + records.count)
            let firstNeeded = first.overlaps(needed)
            let lastNeeded = last.overlaps(needed)
            if firstNeeded && lastNeeded { return }
            let dropFirst = lastNeeded || (!firstNeeded && needed.lowerBound - first.upperBound > last.lowerBound - needed.upperBound)
            if dropFirst {
                records.removeFirst(firstCount)
                keptPages = (keptPages.lowerBound + 1)..<keptPages.upperBound
            } else {
                records.removeLast(lastCount)
                keptPages = keptPages.lowerBound..<(keptPages.upperBound - 1)
            }
        }
    }

    /// Takes deleted records out of the kept pages (their pages count one fewer each).
    mutating func remove(_ recordIDs: Set<RecordID>) {
        var offset = 0
        var kept: [Record] = []
        var counted = pages
        for index in keptPages {
            let rows = records[offset..<(offset + pages[index].count)]
            let left = rows.filter { !recordIDs.contains($0.recordID) }
            counted[index].count = left.count
            kept += left
            offset += rows.count
        }
        records = kept
        pages = counted
        tail?.removeAll { recordIDs.contains($0.recordID) }
    }

    /// A record made here goes first among the kept rows; returns its row.
    @discardableResult
    mutating func insertFirst(_ record: Record) -> Int {
        tail = nil
        if keptPages.isEmpty {
            receiveFirstPage([record], cursor: cursor)
            return 0
        }
        records.insert(record, at: 0)
        pages[keptPages.lowerBound].count += 1
        return windowStart
    }

    /// Replaces a kept record with a newer version of it; false when it is not kept.
    mutating func replace(_ record: Record) -> Bool {
        var replaced = false
        if let index = tail?.firstIndex(where: { $0.recordID == record.recordID }) {
            tail?[index] = record
            replaced = true
        }
        guard let index = records.firstIndex(where: { $0.recordID == record.recordID }) else { return replaced }
        records[index] = record
        return true
    }
}
