import StratusEngine

/// The invite pickers: who joins the share at `url`, then with what permission.
enum SharePick: PickerPurpose {
    case participant(url: String)
    case permission(url: String, user: String)

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let item = picker.selectedItem else { return [] }
        switch self {
        case .participant(let url):
            let items = [SharePermission.readOnly, .readWrite].map { PickerItem(label: $0.description, value: "\($0.rawValue)") }
            state.modals.append(.picker(PickerState(purpose: SharePick.permission(url: url, user: item.value), title: "\(item.label) may", items: items)))
            return []
        case .permission(let url, let user):
            guard let raw = Int(item.value), let permission = SharePermission(rawValue: raw) else { return [] }
            return [.sharing(.changeParticipant(job: state.startJob(.shareChange, "invite"), url: url, user: user, permission: permission))]
        }
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
