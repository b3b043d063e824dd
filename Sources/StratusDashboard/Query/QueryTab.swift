import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// The Query tab: a record type's records through a filter and sort, a page at a time, with
/// the count and the tail of the whole result; its features (export, bulk delete, histogram,
/// undo) have types of their own.
enum QueryTab {
    static let pageSizes = [20, 50, 100, 200, 400]

    /// Runs the Query tab's query from the first page (stale rows stay until the page comes).
    static func runQuery(_ state: inout DashboardState) -> [Effect] {
        guard let request = state.query.request else { return [] }
        var effects: [Effect] = []
        if let running = state.query.loadingJob {
            state.endJob(running)
            effects.append(.cancel(job: running))
        }
        // The same query again (the schema arrived, the store changed) keeps a G pressed before it.
        let again = state.query.shownRequest == request
        state.query.wantsLast = state.query.wantsLast && again
        effects += stopMappingResult(&state)
        if !again, let tailJob = state.query.tailJob {
            state.endJob(tailJob)
            state.query.tailJob = nil
            effects.append(.cancel(job: tailJob))
        }
        let job = state.startJob(.query, "query \(request.recordType)")
        state.query.loadingJob = job
        state.query.hasRun = true
        state.query.error = nil
        effects.append(.query(.run(job: job, request: request, zone: state.zone, scope: state.scope)))
        return effects
    }

    /// After this dashboard changed records: the Query tab reads its first page and its count
    /// again, so the header, the rows and the selection are true without `r`; the selection
    /// goes to `recordID` when that record is among the rows.
    static func refreshAfterEdit(_ state: inout DashboardState, selecting recordID: RecordID?) -> [Effect] {
        guard state.query.hasRun, state.query.request != nil else { return [] }
        state.query.selectAfterRun = recordID
        return runQuery(&state)
    }

    /// Rows the Query tab wants in memory: the viewport and a screen either side of it.
    static func neededQueryRows(_ state: DashboardState) -> Range<Int> {
        let visible = Layout.queryRows(state.size)
        let offset = state.query.list.offset
        return max(0, offset - visible)..<(offset + 2 * visible)
    }

    /// Fetches one page the viewport needs, if any: the page it jumped to (its rows were
    /// dropped), a dropped page within a screen below or above the kept ones, or the next new
    /// page when the selection comes within a screen of the last row fetched. Each page that
    /// arrives asks again, so the kept rows follow the viewport.
    static func loadMoreIfNeeded(_ state: inout DashboardState) -> [Effect] {
        guard state.tab == .query, state.query.loadingJob == nil, state.query.tail == nil, let request = state.query.request,
              !state.query.pages.isEmpty else { return [] }
        let query = state.query
        let visible = Layout.queryRows(state.size)
        let loaded = query.loadedCount
        let start = query.windowStart
        let end = start + query.records.count
        let viewport = query.list.offset..<min(loaded, query.list.offset + visible)
        let needed = neededQueryRows(state)
        let page: Int
        if !viewport.isEmpty, viewport.lowerBound < start || viewport.upperBound > end,
           let jumped = query.pageIndex(containing: viewport.lowerBound < start ? viewport.lowerBound : max(end, viewport.lowerBound)) {
            page = jumped
        } else if needed.upperBound > end, query.keptPages.upperBound < query.pages.count {
            page = query.keptPages.upperBound
        } else if query.cursor != nil, query.keptPages.upperBound == query.pages.count, query.list.selected >= loaded - visible {
            page = query.pages.count
        } else if needed.lowerBound < start, query.keptPages.lowerBound > 0 {
            page = query.keptPages.lowerBound - 1
        } else {
            return []
        }
        let cursor = page < query.pages.count ? query.pages[page].cursor : query.cursor
        let job = state.startJob(.query, page < query.pages.count ? "page \(page + 1) again" : "next page")
        state.query.loadingJob = job
        // A page of the counted result's map holds up to the engine's largest page: fetch it whole.
        var sized = request
        if page < query.pages.count { sized.resultsLimit = max(request.resultsLimit, min(query.pages[page].count, CloudKitLimits.maximumQueryLimit)) }
        return [.query(.page(job: job, page: page, cursor: cursor, request: sized, zone: state.zone, scope: state.scope))]
    }

    static func selectedQueryRecord(_ state: DashboardState) -> Record? {
        state.query.shownRecord(at: state.query.list.selected)
    }

    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .run:
            return runQuery(&state)
        case .recordType:
            if state.remote != nil {
                state.modals.append(.textInput(TextInputState(purpose: RemoteRecordTypeEntry(), title: "Record type",
                                                              hint: "its name; CloudKit Web Services cannot list them", text: state.query.recordType ?? "")))
                return []
            }
            let types = state.pickableTypes
            guard !types.isEmpty else {
                state.status = StatusMessage("The store has no record types yet.", kind: .error)
                return []
            }
            let selected = types.firstIndex { $0.name == state.query.recordType } ?? 0
            state.modals.append(.picker(PickerState(purpose: QueryPick.recordType, title: "Record type",
                                                    items: recordTypeItems(state), selected: selected)))
            // Counted afresh each time: the counts shown until then may be older than an edit.
            return [.query(.typeCounts(zone: state.zone, scope: state.scope))]
        case .filter:
            guard let recordType = state.query.recordType else { return [] }
            let editor = FilterEditorState(recordType: recordType, fields: BuilderField.fields(for: state.currentSchema),
                                           text: state.query.filter, arguments: state.query.arguments)
            state.modals.append(.filterEditor(editor))
            return FilterEditor.filterTextChanged(&state, focusText: false)
        case .thenSort:
            return thenSortPicker(&state)
        case .sort:
            guard let schema = state.currentSchema else { return [] }
            var items = [PickerItem(label: "no sort", detail: "the store's order", value: "")]
            for name in sortableKeys(schema) {
                items.append(PickerItem(label: "\(name) ↑", detail: "ascending", value: "\(name):asc"))
                items.append(PickerItem(label: "\(name) ↓", detail: "descending", value: "\(name):desc"))
            }
            // LOCATION fields sort by distance from a point (CloudKit wants them QUERYABLE).
            for field in schema.sortedFields where field.type == .location && field.isQueryable {
                items.append(PickerItem(label: "\(field.name) nearest first", detail: "distance from a location ↑", value: "\(field.name):near-asc"))
                items.append(PickerItem(label: "\(field.name) farthest first", detail: "distance from a location ↓", value: "\(field.name):near-desc"))
            }
            let current = state.query.sort.first.map { sort in
                "\(sort.key):\(sort.distanceFrom == nil ? "" : "near-")\(sort.ascending ? "asc" : "desc")"
            } ?? ""
            let selected = items.firstIndex { $0.value == current } ?? 0
            state.modals.append(.picker(PickerState(purpose: QueryPick.sort, title: "Sort by (SORTABLE fields)", items: items, selected: selected)))
        case .fields:
            guard let schema = state.currentSchema else { return [] }
            let items = schema.sortedFields.map { field in
                PickerItem(label: field.name, detail: field.type.description,
                           checked: state.query.desiredKeys.map { $0.contains(field.name) } ?? true)
            }
            state.modals.append(.picker(PickerState(purpose: QueryPick.fields, title: "Fields to fetch (desired keys)", items: items, multiple: true)))
        case .pageSize:
            let items = pageSizes.map { PickerItem(label: "\($0) records per page", value: "\($0)") }
            state.modals.append(.picker(PickerState(purpose: QueryPick.pageSize, title: "Page size", items: items,
                                                    selected: pageSizes.firstIndex(of: state.query.pageSize) ?? 1)))
        case .open:
            guard let record = selectedQueryRecord(state) else { return [] }
            return Inspector.open(&state, record: record, partial: state.query.desiredKeys != nil)
        case .create:
            guard let recordType = state.query.recordType else { return [] }
            let record = Record(recordType: recordType, recordID: RecordID(recordName: "", zoneID: state.zone))
            state.modals.append(.form(RecordForm.makeForm(state, record: record, isNew: true)))
        case .edit:
            guard let record = selectedQueryRecord(state) else { return [] }
            return RecordForm.edit(&state, record, partial: state.query.desiredKeys != nil)
        case .bulkDelete:
            return BulkDeleteFeature.beginBulkDelete(&state)
        case .histogram:
            return HistogramFeature.histogramPicker(&state)
        case .delete:
            guard let record = selectedQueryRecord(state) else { return [] }
            askDelete(&state, record)
        case .copy:
            guard let record = selectedQueryRecord(state) else { return [] }
            return Dashboard.copy(&state, record.recordName, what: "record name")
        case .left:
            state.query.columnOffset = max(0, state.query.columnOffset - 1)
        case .right:
            let count = QueryColumns.columns(schema: state.currentSchema, desiredKeys: state.query.desiredKeys).count
            state.query.columnOffset = min(max(0, count - 2), state.query.columnOffset + 1)
        default:
            break
        }
        return []
    }

    static func askDelete(_ state: inout DashboardState, _ record: Record) {
        state.modals.append(.confirm(ConfirmState(
            title: "Delete record",
            message: "Delete \(record.recordType) \(record.recordName) from \(record.recordID.zoneID.zoneName)? Records pointing at it with DELETE_SELF are deleted too. U undoes it while this dashboard runs.",
            action: RecordDeletion(recordID: record.recordID))))
    }

    /// Shows `name`'s records in the Query tab (`:type`, Enter on the Schema tab, the type picker).
    static func chooseRecordType(_ state: inout DashboardState, _ name: String) -> [Effect] {
        guard name != state.query.recordType else { return [] }
        state.query.recordType = name
        state.query.filter = ""
        state.query.arguments = []
        state.query.sort = []
        state.query.desiredKeys = nil
        state.query.columnOffset = 0
        state.query.clearResults()
        return runQuery(&state)
    }
}
