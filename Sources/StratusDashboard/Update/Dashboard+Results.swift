import Foundation
import StratusEngine
import StratusModel

extension Dashboard {
    /// Results posted back by background work.
    static func receive(_ state: inout DashboardState, _ message: DashboardMessage) -> [Effect] {
        switch message {
        case .zonesLoaded(let job, let scope, let result):
            state.endJob(job)
            guard scope == state.scope else { return [] }
            switch result {
            case .success(let zones):
                state.zones = zones
                state.zonesList.clamp(count: zones.count, visible: Layout.zonesRows(state.size))
                state.zoneTypeCounts = [:]
                return zoneBars(&state)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .recordCountsLoaded(let job, let result):
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
                state.status = StatusMessage("No \(kept) records in \(state.zone.zoneName): showing \(busiest), its busiest type.")
                state.query.clearResults()
                return runQuery(&state)
            }
            // Someone chose a type meanwhile (t, :type): that choice stands.
            guard state.query.recordType == nil else { return [] }
            if let busiest = busiestRecordType((try? result.get()) ?? [:]) {
                state.query.recordType = busiest
            } else if state.schemaLoaded {
                state.query.recordType = state.pickableTypes.first?.name
            }
            return state.query.recordType == nil ? [] : runQuery(&state)

        case .schemaLoaded(let job, let result):
            state.endJob(job)
            switch result {
            case .success(let snapshot):
                state.recordTypes = snapshot.types
                state.schemaRoles = snapshot.roles
                state.schemaGrants = snapshot.grants
                state.environment = snapshot.environment
                state.schemaLoaded = true
                // Without a record type, the zone's counts choose it (see recordCountsLoaded).
                if state.query.recordType == nil, state.query.recordCountsJob != nil { return [] }
                let pickable = state.pickableTypes
                if state.query.recordType == nil || state.schema(named: state.query.recordType!) == nil && !pickable.isEmpty {
                    let previous = state.query.recordType
                    state.query.recordType = pickable.first?.name
                    if state.query.recordType != previous || !state.query.hasRun { return runQuery(&state) }
                }
                if !state.query.hasRun, state.query.recordType != nil { return runQuery(&state) }
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .queryPage(let job, let result, let index, let milliseconds):
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
                    let again = state.query.shownRequest != nil && state.query.shownRequest == state.query.request
                    state.query.shownRequest = state.query.request
                    state.query.receiveFirstPage(page.records, cursor: page.cursor)
                    if !again {
                        state.query.leaveTail()
                        state.query.list = ListCursor()
                    }
                    state.query.matchCount = page.cursor == nil ? page.records.count : nil
                    if state.query.matchCount != nil, let row = state.query.leaveTail() { state.query.list.selected = row }
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

        case .filterChecked(let generation, let check):
            guard case .filterEditor(var editor)? = state.modals.last(where: { if case .filterEditor = $0 { return true }; return false }),
                  editor.generation == generation else { return [] }
            editor.check = FilterArgumentRow.explain(check, rows: editor.argumentRows)
            replaceFilterEditor(&state, editor)
            return []

        case .fetchProgress(let job, let done, let total):
            guard state.fetch.job == job else { return [] }
            state.fetch.done = done
            state.fetch.total = total
            return []

        case .fetchFinished(let job, let result, let milliseconds):
            guard state.fetch.job == job else { return [] }
            state.endJob(job)
            state.fetch.job = nil
            state.fetch.lastMilliseconds = milliseconds
            switch result {
            case .success(let rows):
                state.fetch.rows = rows
                state.fetch.done = rows.count
                state.fetch.list = ListCursor()
                let found = rows.filter { $0.record != nil }.count
                state.status = StatusMessage("Fetched \(found) of \(rows.count) records in \(milliseconds) ms.", kind: found == rows.count ? .success : .info)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .changesPage(let job, let events, let count, let pages, let token, let moreComing, let elapsed):
            guard state.changes.job == job else { return [] }
            let room = max(0, ChangesTabState.maximumKept - state.changes.events.count)
            state.changes.events += events.prefix(room)
            state.changes.eventCount += count
            state.changes.pages += pages
            state.changes.token = token
            state.changes.moreComing = moreComing
            state.changes.elapsed = elapsed
            if !moreComing {
                state.endJob(job)
                state.changes.job = nil
                state.changes.finished = true
                state.status = StatusMessage(String(format: "%d events in %d pages, %.2f s. y copies the final token, m bookmarks it.",
                                                    state.changes.eventCount, state.changes.pages, elapsed), kind: .success)
            }
            state.changes.list.clamp(count: state.changes.events.count, visible: Layout.changesRows(state.size))
            return []

        case .changesFailed(let job, let error):
            guard state.changes.job == job else { return [] }
            state.endJob(job)
            state.changes.job = nil
            state.status = .error(error)
            return []

        case .databaseChanges(let job, let result):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let summary):
                state.changes.databaseEvents = summary.events
                state.changes.databaseToken = summary.token
                state.changes.databaseList = ListCursor()
                state.status = StatusMessage("\(summary.events.count) zones changed. y copies the token.", kind: .success)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .tokenTaken(let job, let result, let database):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let token):
                if database {
                    state.changes.databaseToken = token
                    state.status = StatusMessage("Current \(state.scope.name) database token: \(token)", kind: .success)
                } else {
                    state.changes.token = token
                    state.changes.events = []
                    state.changes.eventCount = 0
                    state.changes.pages = 0
                    state.changes.finished = true
                    state.changes.cancelled = false
                    state.status = StatusMessage("Current token of \(state.zone.zoneName) (no playback): \(token)", kind: .success)
                }
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .recordLoaded(let job, let result, let purpose):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let record):
                switch purpose {
                case .refreshInspector:
                    if case .inspector(var inspector)? = state.topModal, inspector.loadingJob == job {
                        inspector.record = record
                        inspector.loadingJob = nil
                        state.topModal = .inspector(inspector)
                    }
                case .openInspector:
                    state.modals.append(.inspector(InspectorState(record: record)))
                case .edit:
                    state.modals.append(.form(makeForm(state, record: record, isNew: false)))
                }
            case .failure(let error):
                if case .inspector(var inspector)? = state.topModal, inspector.loadingJob == job {
                    inspector.loadingJob = nil
                    state.topModal = .inspector(inspector)
                }
                state.status = .error(error)
            }
            return []

        case .saveFinished(let job, let result, let isNew):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            return saveFinished(&state, job: job, result: result, isNew: isNew)

        case .deleteFinished(let job, let result, let recordID):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let cascaded):
                let gone = Set([recordID] + cascaded)
                state.query.remove(gone)
                state.query.list.clamp(count: state.query.rowCount, visible: Layout.queryRows(state.size))
                for index in state.fetch.rows.indices where state.fetch.rows[index].record.map({ gone.contains($0.recordID) }) ?? false {
                    state.fetch.rows[index].record = nil
                    state.fetch.rows[index].error = CloudKitError(.unknownItem, "deleted")
                }
                state.modals.removeAll { modal in
                    if case .inspector(let inspector) = modal { return gone.contains(inspector.record.recordID) }
                    return false
                }
                let extra = cascaded.isEmpty ? "" : " and \(cascaded.count) record(s) pointing at it with DELETE_SELF"
                state.status = StatusMessage("Deleted \(recordID.recordName)\(extra).", kind: .success)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .zoneTypeCountsLoaded(let zone, let scope, let result):
            state.zoneTypeCountsPending.remove(zone)
            guard scope == state.scope, case .success(let counts) = result else { return [] }
            state.zoneTypeCounts[zone] = counts
            return []
        case .usersLoaded(let job, let result):
            return usersLoaded(&state, job: job, result)
        case .requestsLogged(let job, let result):
            return requestsLogged(&state, job: job, result)
        case .sharesLoaded(let job, let result, let done):
            return sharesLoaded(&state, job: job, result, done: done)
        case .shareStatusLoaded(let recordID, let note):
            return shareStatusLoaded(&state, recordID, note)
        case .faultsPolled(let job, let result):
            return faultsPolled(&state, job: job, result)
        case .faultsChanged(let job, let result):
            return faultsChanged(&state, job: job, result)
        case .historyCompacted(let job, let result):
            return historyCompacted(&state, job: job, result)
        case .exportProgress(let job, let written, let total):
            return exportProgressed(&state, job: job, written: written, total: total)
        case .exportFinished(let job, let result):
            return exportFinished(&state, job: job, result)
        case .resultMapping(let job, let count):
            guard state.query.mapJob == job else { return [] }
            state.query.countedSoFar = count
            return []
        case .tailLoaded(let job, let result):
            return tailLoaded(&state, job: job, result)
        case .resultMapped(let job, let result):
            return resultMapped(&state, job: job, result)
        case .matchesCounting(let job, let count):
            return matchesCounting(&state, job: job, count)
        case .matchesCounted(let job, let result):
            return matchesCounted(&state, job: job, result)
        case .bulkDeleteProgress(let job, let deleted, let records):
            return bulkDeleteProgressed(&state, job: job, deleted: deleted, records: records)
        case .undoable(let entry):
            state.undo.record(entry)
            return []
        case .undoFinished(let job, let redo, let result):
            return undoFinished(&state, job: job, redo: redo, result)
        case .bulkDeleteFinished(let job, let result):
            return bulkDeleteFinished(&state, job: job, result)
        case .histogramLoaded(let job, let result):
            return histogramLoaded(&state, job: job, result)
        case .activityLoaded(let zone, let result):
            if case .success(let counts) = result, zone == state.zone { state.changes.activity = (zone, counts) }
            return []
        case .oldestTokenLoaded(let zone, let result):
            if case .success(let loaded) = result, zone == state.zone { state.changes.oldestValidToken = (zone, loaded.token, loaded.compacted) }
            return []

        case .themeLoaded(let name, let result):
            switch result {
            case .success(let theme):
                state.theme = theme
                state.status = StatusMessage("Theme \(name).", kind: .success)
            case .failure(let error):
                state.status = StatusMessage("Theme not loaded: \(error.description)", kind: .error)
            }
            return []

        case .jobEnded(let job):
            state.endJob(job)
            return []

        case .zoneSaved, .zoneDeleted:
            return receiveZones(&state, message)

        case .subscriptionsLoaded, .subscriptionSaved, .subscriptionDeleted, .notificationsArrived, .notificationsFailed, .schemaExported, .schemaDiffed:
            return receiveSubscriptions(&state, message)

        case .key, .paste, .mouse, .resize, .tick:
            return []
        }
    }

    /// The record type with the most records (ties: the first by name), leaving out the
    /// system `Users` type; nil when the zone has none.
    static func busiestRecordType(_ counts: [String: Int]) -> String? {
        counts.filter { $0.key != "Users" && $0.value > 0 }
            .min { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }?.key
    }

    static func replaceFilterEditor(_ state: inout DashboardState, _ editor: FilterEditorState) {
        guard let index = state.modals.lastIndex(where: { if case .filterEditor = $0 { return true }; return false }) else { return }
        state.modals[index] = .filterEditor(editor)
    }
}
