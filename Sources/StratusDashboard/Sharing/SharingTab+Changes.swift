import StratusCloud
import StratusEngine

/// Making shares, accepting them and changing who may do what, from the Sharing tab.
extension SharingTab {
    static let publicPermissionItems = [
        PickerItem(label: "invited users only", detail: "a invites them", value: "\(SharePermission.none.rawValue)"),
        PickerItem(label: "anyone with the URL may read", detail: SharePermission.readOnly.description, value: "\(SharePermission.readOnly.rawValue)"),
        PickerItem(label: "anyone with the URL may read and write", detail: SharePermission.readWrite.description,
                   value: "\(SharePermission.readWrite.rawValue)"),
    ]

    /// `n`: the zone on screen, or the record selected in the Query tab, in the private database.
    static func newShare(_ state: inout DashboardState) -> [Effect] {
        guard state.scope == .private else {
            state.status = StatusMessage("Shares are made in the owner's private database; D switches to it.", kind: .error)
            return []
        }
        guard !state.zone.isDefault else {
            state.status = StatusMessage("The default zone cannot be shared (CloudKit's rule); pick a custom zone (z).", kind: .error)
            return []
        }
        var items = [PickerItem(label: "zone \(state.zone.zoneName)", detail: "every record in it, as CKShare(recordZoneID:)", value: "")]
        if let record = QueryTab.selectedQueryRecord(state), record.recordID.zoneID == state.zone {
            items.append(PickerItem(label: "record \(record.recordName)", detail: "and the records whose parent leads to it", value: record.recordName))
        }
        state.modals.append(.picker(PickerState(purpose: NewSharePick.what(zone: state.zone), title: "Share", items: items)))
        return []
    }

    /// `p`: a participant's permission, or the public permission of a share you own.
    static func changePermission(_ state: inout DashboardState) -> [Effect] {
        let rows = state.sharing.rows
        guard rows.indices.contains(state.sharing.list.selected) else { return [] }
        switch rows[state.sharing.list.selected] {
        case .participant(let share, let participant):
            guard participant.status != .removed else {
                state.status = StatusMessage("\(participant.alias) was removed from this share; a invites them again.", kind: .error)
                return []
            }
            let items = [SharePermission.readOnly, .readWrite].map { PickerItem(label: $0.description, value: "\($0.rawValue)") }
            let selected = items.firstIndex { $0.value == "\(participant.permission.rawValue)" } ?? 0
            state.modals.append(.picker(PickerState(purpose: SharePick.permission(url: share.url, user: participant.userRecordName),
                                                    title: "\(participant.alias) may", items: items, selected: selected)))
        case .share(let share, owned: true):
            let selected = publicPermissionItems.firstIndex { $0.value == "\(share.publicPermission.rawValue)" } ?? 0
            state.modals.append(.picker(PickerState(purpose: PublicPermissionPick(url: share.url), title: "Who may join",
                                                    items: publicPermissionItems, selected: selected)))
        default:
            state.status = StatusMessage("Pick a participant, or a share you own, to change what they may do.", kind: .error)
        }
        return []
    }

    /// `J`: the URL of a share to accept (join).
    static func askShareURL(_ state: inout DashboardState) -> [Effect] {
        // Nil is the store's owner (on a remote, the signed-in user): a user either way.
        guard state.acting != .anonymous else {
            state.status = StatusMessage("Accepting a share needs a user; A (act as) picks one.", kind: .error)
            return []
        }
        state.modals.append(.textInput(TextInputState(purpose: ShareURLEntry(), title: "Accept a share",
                                                      hint: "its URL, as the owner copies it (y)")))
        return []
    }
}
