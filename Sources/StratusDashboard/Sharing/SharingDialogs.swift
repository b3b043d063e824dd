import StratusEngine
import StratusCloud
import Foundation

/// The invite pickers: who joins the share at `url`, then with what permission.
enum SharePick: PickerPurpose {
    case participant(url: String)
    case permission(url: String, user: String)

    /// The second step of an invitation: with what permission `user` joins.
    static func askPermission(url: String, user: String, label: String, in state: inout DashboardState) -> [Effect] {
        let items = [SharePermission.readOnly, .readWrite].map { PickerItem(label: $0.description, value: "\($0.rawValue)") }
        state.modals.append(.picker(PickerState(purpose: SharePick.permission(url: url, user: user), title: "\(label) may", items: items)))
        return []
    }

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let item = picker.selectedItem else { return [] }
        switch self {
        case .participant(let url):
            return SharePick.askPermission(url: url, user: item.value, label: item.label, in: &state)
        case .permission(let url, let user):
            guard let raw = Int(item.value), let permission = SharePermission(rawValue: raw) else { return [] }
            let inside = state.sharing.owned.first { $0.url == url }?.participants.contains { $0.userRecordName == user && $0.status != .removed } ?? false
            return [.sharing(.changeParticipant(job: state.startJob(.shareChange, inside ? "permission" : "invite"), url: url, user: user,
                                                permission: permission))]
        }
    }
}

/// The invitee of a share on a remote, typed: CKWS lists no users to pick from.
struct ShareInviteeEntry: TextInputPurpose {
    var url: String

    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? {
        let name = text.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return typing ? nil : "Type the user record name of the one to invite." }
        return name.contains(" ") ? "A user record name has no spaces." : nil
    }

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        let user = text.trimmingCharacters(in: .whitespaces)
        return SharePick.askPermission(url: url, user: user, label: user, in: &state)
    }
}

/// Taking a participant (user record name, alias) out of the share at `url`.
struct ParticipantRemoval: ConfirmAction {
    var url: String
    var user: String
    var alias: String

    func confirmed(in state: inout DashboardState) -> [Effect] {
        [.sharing(.changeParticipant(job: state.startJob(.shareChange, "remove \(alias)"), url: url, user: user, permission: nil))]
    }
}

/// Making a share (`n`): what to share, then who may join.
enum NewSharePick: PickerPurpose {
    case what(zone: ZoneID)
    case publicPermission(zone: ZoneID, root: String?)

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let item = picker.selectedItem else { return [] }
        switch self {
        case .what(let zone):
            let root = item.value.isEmpty ? nil : item.value
            state.modals.append(.picker(PickerState(purpose: NewSharePick.publicPermission(zone: zone, root: root), title: "Who may join",
                                                    items: SharingTab.publicPermissionItems)))
            return []
        case .publicPermission(let zone, let root):
            guard let raw = Int(item.value), let permission = SharePermission(rawValue: raw) else { return [] }
            let job = state.startJob(.shareChange, "share \(root ?? zone.zoneName)")
            return [.sharing(.createShare(job: job, zone: zone, root: root, publicPermission: permission))]
        }
    }
}

/// A share's public permission (`p` on a share you own).
struct PublicPermissionPick: PickerPurpose {
    var url: String

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let item = picker.selectedItem, let raw = Int(item.value), let permission = SharePermission(rawValue: raw) else { return [] }
        return [.sharing(.setPublicPermission(job: state.startJob(.shareChange, "share permission"), url: url, permission: permission))]
    }
}

/// The URL of a share to accept (`J`), as the user the dashboard acts as.
struct ShareURLEntry: TextInputPurpose {
    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? {
        let url = text.trimmingCharacters(in: .whitespaces)
        if typing { return nil }
        if url.isEmpty { return "Paste the share's URL (the owner copies it with y on this tab)." }
        if url.contains(" ") { return "A share URL has no spaces." }
        return nil
    }

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        [.sharing(.accept(job: state.startJob(.shareChange, "accept share"), url: text.trimmingCharacters(in: .whitespaces)))]
    }
}
