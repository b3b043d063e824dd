import StratusEngine
import StratusCloud

/// The Sharing tab: shares the acting user owns (with participants to add and remove, and URLs
/// to copy) and shares they accepted (Enter opens the zone in the shared database); and the
/// inspector's line on where a record stands with sharing.
enum SharingTab {
    static func loadShares(_ state: inout DashboardState) -> [Effect] {
        guard !state.jobs.contains(where: { $0.kind == .shares }) else { return [] }
        return [.sharing(.load(job: state.startJob(.shares, "shares")))]
    }

    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        let rows = state.sharing.rows
        let row = rows.indices.contains(state.sharing.list.selected) ? rows[state.sharing.list.selected] : nil
        switch action {
        case .run:
            return loadShares(&state)
        case .newShare:
            return newShare(&state)
        case .permission:
            return changePermission(&state)
        case .acceptShare:
            return askShareURL(&state)
        case .copy:
            guard let (share, _) = state.sharing.selectedShare else { return [] }
            return Dashboard.copy(&state, share.url, what: "share URL")
        case .open:
            guard let (share, owned) = state.sharing.selectedShare else { return [] }
            let zone = share.recordID.zoneID
            var effects = Dashboard.switchScope(&state, to: owned ? .private : .shared)
            state.zone = zone
            state.status = StatusMessage("Zone \(zone.zoneName) of \(share.ownerAlias) (\(state.scope.name) database).")
            effects += Dashboard.resetResults(&state)
            state.tab = .query
            return effects
        case .create:
            guard let (share, owned) = state.sharing.selectedShare, owned else {
                state.status = StatusMessage("Pick a share you own to invite someone to it.", kind: .error)
                return []
            }
            guard share.publicPermission == .none else {
                state.status = StatusMessage("This share is public (\(share.publicPermission)): anyone with its URL joins; it takes no invitations.", kind: .error)
                return []
            }
            if state.remote != nil {
                // CKWS lists no users: the invitee is named by their user record name.
                state.modals.append(.textInput(TextInputState(purpose: ShareInviteeEntry(url: share.url), title: "Invite to the share",
                                                              hint: "the user record name (_ and 32 hex digits)")))
                return []
            }
            let inside = Set(share.participants.filter { $0.status != .removed }.map(\.userRecordName))
            let items = state.users.filter { !inside.contains($0.recordName) }.map { PickerItem(label: $0.alias, detail: $0.recordName, value: $0.recordName) }
            guard !items.isEmpty else {
                state.status = StatusMessage("Every user of the store is in this share already (stratus users create ALIAS makes more).", kind: .error)
                return []
            }
            state.modals.append(.picker(PickerState(purpose: SharePick.participant(url: share.url), title: "Invite to the share", items: items)))
            return []
        case .delete:
            guard case .participant(let share, let participant)? = row, participant.status != .removed else {
                state.status = StatusMessage("Pick a participant to remove.", kind: .error)
                return []
            }
            state.modals.append(.confirm(ConfirmState(
                title: "Remove participant",
                message: "Take \(participant.alias) out of the share? The zone leaves their shared database and their sync sees it deleted.",
                action: ParticipantRemoval(url: share.url, user: participant.userRecordName, alias: participant.alias))))
            return []
        default:
            return []
        }
    }

    static func receive(_ state: inout DashboardState, _ message: SharingMessage) -> [Effect] {
        switch message {
        case .shares(let job, let result, let done): return sharesLoaded(&state, job: job, result, done: done)
        case .shareStatus(let recordID, let note): return shareStatusLoaded(&state, recordID, note)
        }
    }

    static func sharesLoaded(_ state: inout DashboardState, job: Int, _ result: Result<SharesSnapshot, CloudKitError>, done: String?) -> [Effect] {
        guard state.job(job) != nil else { return [] }
        state.endJob(job)
        switch result {
        case .success(let snapshot):
            state.sharing.owned = snapshot.owned
            state.sharing.accepted = snapshot.accepted
            state.sharing.loaded = true
            state.sharing.list.clamp(count: state.sharing.rows.count, visible: Layout.zonesRows(state.size))
            state.succeeded()
            if let done { state.status = StatusMessage(done, kind: .success) }
        case .failure(let error):
            state.status = .error(error)
        }
        return []
    }

    static func shareStatusLoaded(_ state: inout DashboardState, _ recordID: RecordID, _ note: String?) -> [Effect] {
        guard case .inspector(var inspector)? = state.topModal, inspector.record.recordID == recordID else { return [] }
        inspector.shareNote = note
        state.topModal = .inspector(inspector)
        return []
    }
}
