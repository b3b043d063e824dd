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
            return effects
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

    /// Asks for the selected zone's records per type when the Zones tab shows its bars and
    /// they are not known yet.
    /// The Zones tab opens on the zone in use, with the zones read again: their counts and
    /// tokens are the store's now, whoever wrote since.
    static func entered(_ state: inout DashboardState) -> [Effect] {
        if let index = state.zones.firstIndex(where: { $0.zoneID == state.zone }) {
            state.zonesTab.list.move(to: index, count: state.zones.count, visible: Layout.zonesRows(state.size))
        }
        let reading = state.jobs.contains { $0.kind == .zones } ? [] : Dashboard.loadZones(&state)
        return reading + zoneBars(&state)
    }

    static func zoneBars(_ state: inout DashboardState) -> [Effect] {
        guard state.tab == .zones, Layout.zoneBarsHeight(state.size) > 0, state.zones.indices.contains(state.zonesTab.list.selected) else { return [] }
        let zone = state.zones[state.zonesTab.list.selected].zoneID
        guard state.zonesTab.typeCounts[zone] == nil, !state.zonesTab.typeCountsPending.contains(zone) else { return [] }
        state.zonesTab.typeCountsPending.insert(zone)
        return [.zones(.typeCounts(zone: zone, scope: state.scope))]
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
                // The selection stays on its zone (else the one in use) when the list changes.
                let selected = state.zones.indices.contains(state.zonesTab.list.selected) ? state.zones[state.zonesTab.list.selected].zoneID : state.zone
                state.zones = zones
                if let index = zones.firstIndex(where: { $0.zoneID == selected }) { state.zonesTab.list.selected = index }
                state.zonesTab.list.clamp(count: zones.count, visible: Layout.zonesRows(state.size))
                state.zonesTab.typeCounts = [:]
                let settled = state.settlesOnBusiestZone ? Dashboard.settleOnBusiestZone(&state) : []
                return settled + zoneBars(&state)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .typeCounts(let zone, let scope, let result):
            state.zonesTab.typeCountsPending.remove(zone)
            guard scope == state.scope, case .success(let counts) = result else { return [] }
            state.zonesTab.typeCounts[zone] = counts
            return []
        }
    }
}
