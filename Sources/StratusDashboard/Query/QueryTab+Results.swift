import Foundation
import StratusCloud
import StratusModel

extension QueryTab {
    /// The Query tab's results: its record counts, pages, the count and tail of the whole result, and the work done over it.
    static func receive(_ state: inout DashboardState, _ message: QueryMessage) -> [Effect] {
        switch message {
        case .filterChecked(let generation, let check):
            return FilterEditor.filterChecked(&state, generation: generation, check)
        case .typeCounts(let zone, let scope, let result):
            guard zone == state.zone, scope == state.scope else { return [] }
            switch result {
            case .success(let counts): state.query.typeCounts = TypeCounts(zone: zone, scope: scope, counts: counts)
            case .failure: state.query.typeCounts = nil
            }
            refreshRecordTypePicker(&state)
            return []
        case .recordCounts(let job, let result):
            guard state.query.recordCountsJob == job else { return [] }
            state.endJob(job)
            state.query.recordCountsJob = nil
            if let kept = state.query.typeKeptOnZoneSwitch {
                state.query.typeKeptOnZoneSwitch = nil
                let counts = (try? result.get()) ?? [:]
                // Someone chose another type meanwhile, or the zone has records of this one: it stays.
                guard state.query.recordType == kept, counts[kept, default: 0] == 0,
                      let busiest = busiestRecordType(counts) else { return [] }
                state.query.recordType = busiest
                state.query.clearResults()
                let effects = runQuery(&state)
                // Said once that run's results arrive; the next success ends it.
                state.query.noteForRun = (state.query.loadingJob, "No \(kept) records in \(state.zone.zoneName): showing \(busiest), its busiest type.")
                state.status = StatusMessage.note(state.query.noteForRun!.text)
                return effects
            }
            // Someone chose a type meanwhile (t, :type): that choice stands.
            guard state.query.recordType == nil else { return [] }
            if let busiest = busiestRecordType((try? result.get()) ?? [:]) {
                state.query.recordType = busiest
            } else if state.schemaLoaded {
                state.query.recordType = state.pickableTypes.first?.name
            }
            return state.query.recordType == nil ? [] : runQuery(&state)

        case .page(let job, let result, let index, let milliseconds):
            guard state.query.loadingJob == job else { return [] }
            state.endJob(job)
            state.query.loadingJob = nil
            state.query.lastMilliseconds = milliseconds
            var mapEffects: [Effect] = []
            switch result {
            case .success(let page):
                if let index {
                    state.query.receivePage(index, rows: page.records, cursor: page.cursor)
                } else {
                    state.succeeded()
                    if let note = state.query.noteForRun, note.job == job { state.status = .note(note.text) }
                    state.query.noteForRun = nil
                    let again = state.query.shownRequest != nil && state.query.shownRequest == state.query.request
                    state.query.shownRequest = state.query.request
                    state.query.receiveFirstPage(page.records, cursor: page.cursor)
                    if !again {
                        state.query.leaveTail()
                        state.query.list = ListCursor()
                    }
                    state.query.matchCount = page.cursor == nil ? page.records.count : nil
                    if state.query.matchCount != nil, let row = state.query.leaveTail() { state.query.list.selected = row }
                    if let wanted = state.query.selectAfterRun {
                        state.query.selectAfterRun = nil
                        if let row = state.query.records.firstIndex(where: { $0.recordID == wanted }) {
                            state.query.list.move(to: state.query.windowStart + row, count: state.query.loadedCount, visible: Layout.queryRows(state.size))
                        }
                    }
                    mapEffects = startMappingResult(&state)
                    state.query.columnOffset = min(state.query.columnOffset, max(0, QueryColumns.columns(
                        schema: state.currentSchema, desiredKeys: state.query.desiredKeys).count - 1))
                }
                state.query.error = nil
                let visible = Layout.queryRows(state.size)
                state.query.list.clamp(count: state.query.loadedCount, visible: visible)
                state.query.trim(keeping: neededQueryRows(state))
                return mapEffects + loadMoreIfNeeded(&state)
            case .failure(let error):
                state.query.error = error.description
                if index == nil { state.query.clearResults() }
                state.status = .error(error)
            }
            return []

        case .mapping(let job, let count):
            guard state.query.mapJob == job else { return [] }
            state.query.countedSoFar = count
            return []

        case .indexCounted(let job, let count):
            guard state.query.mapJob == job else { return [] }
            state.query.indexedCount = count
            return []

        case .tail(let job, let result):
            return tailLoaded(&state, job: job, result)

        case .mapped(let job, let result):
            return resultMapped(&state, job: job, result)

        case .counting(let job, let count):
            return BulkDeleteFeature.matchesCounting(&state, job: job, count)

        case .counted(let job, let result):
            return BulkDeleteFeature.matchesCounted(&state, job: job, result)

        case .bulkDeleteProgress(let job, let deleted, let records):
            return BulkDeleteFeature.bulkDeleteProgressed(&state, job: job, deleted: deleted, records: records)

        case .bulkDeleteFinished(let job, let result):
            return BulkDeleteFeature.bulkDeleteFinished(&state, job: job, result)

        case .bulkDeleteStopped(let job, let deleted):
            return BulkDeleteFeature.bulkDeleteStopped(&state, job: job, deleted: deleted)

        case .histogram(let job, let result):
            return HistogramFeature.histogramLoaded(&state, job: job, result)
        }
    }

    /// The record type with the most records (ties: the first by name), leaving out the
    /// system `Users` type; nil when the zone has none.
    static func busiestRecordType(_ counts: [String: Int]) -> String? {
        counts.filter { $0.key != "Users" && $0.value > 0 }
            .min { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }?.key
    }
}
