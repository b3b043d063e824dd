import Foundation
import StratusModel
import StratusCloud

/// The Zones tab: the database's zones with their counts, tokens and records per type; making
/// and deleting custom zones.
enum ZonesTab {

    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        let index = state.zonesTab.list.selected
        switch action {
        case .open:
            guard state.zones.indices.contains(index) else { return [] }
            let effects = Dashboard.switchZone(&state, to: state.zones[index].zoneID.zoneName)
            state.tab = .query
            return stopWatching(&state) + effects
        case .run:
            return Dashboard.loadZones(&state)
        case .copy:
            guard state.zones.indices.contains(index) else { return [] }
            return Dashboard.copy(&state, state.zones[index].currentToken, what: "token of \(state.zones[index].zoneID.zoneName)")
        case .create:
            guard state.scope.allowsCustomZones else {
                state.status = StatusMessage(
                    "Custom zones can only be made in the private database; this is the \(state.scope.name) database (D switches).",
                    kind: .error)
                return []
            }
            state.modals.append(.textInput(TextInputState(
                purpose: NewZoneEntry(), title: "New zone in the \(state.scope.name) database",
                hint: "a name, not starting with _ (up to 255 bytes)")))
            return []
        case .delete:
            guard state.zones.indices.contains(index) else { return [] }
            let zone = state.zones[index]
            guard !zone.zoneID.isDefault else {
                state.status = StatusMessage(
                    "\(ZoneID.defaultZoneName) cannot be deleted (CloudKit's rule); delete its records instead.", kind: .error)
                return []
            }
            let records = zone.recordCount == 1 ? "its 1 record" : "its \(ViewKit.count(zone.recordCount)) records"
            state.modals.append(.confirm(ConfirmState(
                title: "Delete zone",
                message: "Delete zone \(zone.zoneID.zoneName) and \(records) from the \(state.scope.name) database? "
                    + "Its change history goes too; sync clients see the zone deleted. This cannot be undone.",
                action: ZoneDeletion(zoneID: zone.zoneID))))
            return []
        default:
            return []
        }
    }

    /// The Zones tab opens on the zone in use, with the zones read again at once and then
    /// watched: their counts and tokens are the store's now, whoever writes, with no spinner.
    static func entered(_ state: inout DashboardState) -> [Effect] {
        if let index = state.zones.firstIndex(where: { $0.zoneID == state.zone }) {
            state.zonesTab.list.move(to: index, count: state.zones.count, visible: Layout.zonesRows(state.size))
        }
        // A remote is read once (r reads it again): polling it would spend its request budget,
        // and CKWS cannot count a zone's records by type for the bars.
        if state.remote != nil { return Dashboard.loadZones(&state) }
        return stopWatching(&state) + startWatching(&state) + zoneBars(&state)
    }

    static func startWatching(_ state: inout DashboardState) -> [Effect] {
        let job = state.nextJobID
        state.nextJobID += 1
        state.zonesTab.watchJob = job
        return [.zones(.watch(job: job, scope: state.scope))]
    }

    static func stopWatching(_ state: inout DashboardState) -> [Effect] {
        guard let job = state.zonesTab.watchJob else { return [] }
        state.zonesTab.watchJob = nil
        return [.cancel(job: job)]
    }

    /// Asks for the selected zone's records per type when the Zones tab shows its bars and
    /// they are not known yet, or were counted at an older token (the old bars stay until then).
    static func zoneBars(_ state: inout DashboardState) -> [Effect] {
        guard state.tab == .zones, Layout.zoneBarsHeight(state.size) > 0, state.zones.indices.contains(state.zonesTab.list.selected) else { return [] }
        let zone = state.zones[state.zonesTab.list.selected]
        guard state.zonesTab.typeCounts[zone.zoneID] == nil || state.zonesTab.countedTokens[zone.zoneID] != zone.currentToken,
              !state.zonesTab.typeCountsPending.contains(zone.zoneID) else { return [] }
        state.zonesTab.typeCountsPending.insert(zone.zoneID)
        return [.zones(.typeCounts(zone: zone.zoneID, token: zone.currentToken, scope: state.scope))]
    }

    /// Shows the zones as read, the selection staying on its zone (else the one in use).
    static func show(_ state: inout DashboardState, _ zones: [RecordZone]) {
        let selected = state.zones.indices.contains(state.zonesTab.list.selected) ? state.zones[state.zonesTab.list.selected].zoneID : state.zone
        state.zones = zones
        if let index = zones.firstIndex(where: { $0.zoneID == selected }) { state.zonesTab.list.selected = index }
        state.zonesTab.list.clamp(count: zones.count, visible: Layout.zonesRows(state.size))
    }

    /// A zone made or deleted: the list shows the database's zones after it; a deleted current
    /// zone gives way to the default zone.
    static func receive(_ state: inout DashboardState, _ message: ZonesMessage) -> [Effect] {
        switch message {
        case .saved(let job, let zoneID, let result):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let zones):
                state.zones = zones
                let index = zones.firstIndex { $0.zoneID == zoneID } ?? state.zonesTab.list.selected
                state.zonesTab.list.move(to: index, count: zones.count, visible: Layout.zonesRows(state.size))
                state.status = StatusMessage("Made zone \(zoneID.zoneName); Enter uses it.", kind: .success)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .deleted(let job, let zoneID, let result):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let zones):
                let count = state.zones.first { $0.zoneID == zoneID }?.recordCount
                let deleted = "Deleted zone \(zoneID.zoneName)" + (count.map { " and its \(ViewKit.count($0)) record\($0 == 1 ? "" : "s")" } ?? "")
                state.zones = zones
                state.zonesTab.list.clamp(count: zones.count, visible: Layout.zonesRows(state.size))
                guard state.zone == zoneID else {
                    state.status = StatusMessage(deleted + ".", kind: .success)
                    return []
                }
                state.zone = .default
                let effects = Dashboard.resetResults(&state)
                state.status = StatusMessage(deleted + "; now in \(ZoneID.defaultZoneName).", kind: .success)
                return effects
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .loaded(let job, let scope, let result):
            state.endJob(job)
            guard scope == state.scope else { return [] }
            switch result {
            case .success(let zones):
                state.succeeded()
                show(&state, zones)
                let settled = state.settlesOnBusiestZone ? Dashboard.settleOnBusiestZone(&state) : []
                return settled + zoneBars(&state)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .typeCounts(let zone, let token, let scope, let result):
            state.zonesTab.typeCountsPending.remove(zone)
            guard scope == state.scope, case .success(let counts) = result else { return [] }
            state.zonesTab.typeCounts[zone] = counts
            state.zonesTab.countedTokens[zone] = token
            // Written again while counting: count again.
            return zoneBars(&state)

        case .watched(let job, let scope, let zones):
            guard job == state.zonesTab.watchJob, scope == state.scope, zones != state.zones, !state.zones.isEmpty else { return [] }
            show(&state, zones)
            return zoneBars(&state)
        }
    }
}
