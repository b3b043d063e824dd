import StratusEngine
import StratusCloud

/// Act As: which user the dashboard acts as, as the CloudKit Console's Act As, kept for the
/// store across restarts (in its preferences).
extension Dashboard {
    /// Loads the store's users for the picker and the breadcrumb.
    static func loadUsers(_ state: inout DashboardState) -> [Effect] {
        [.loadUsers(job: state.startJob(.users, "users"))]
    }

    static func usersLoaded(_ state: inout DashboardState, job: Int, _ result: Result<[StoreUser], CloudKitError>) -> [Effect] {
        state.endJob(job)
        switch result {
        case .success(let users):
            state.users = users
            // The Act As picker opened before the users were in: it lists them now.
            if case .picker(let picker)? = state.topModal, (picker.purpose as? AppPick) == .user, !users.isEmpty {
                state.modals.removeLast()
                _ = openUserPicker(&state)
            }
        case .failure(let error): state.status = StatusMessage("Users not loaded: \(error.description)", kind: .error)
        }
        return []
    }

    /// The Act As picker: every user (the one acting marked) and "no user".
    static func openUserPicker(_ state: inout DashboardState) -> [Effect] {
        if state.remote != nil { return openDatabasePickerAsActAs(&state) }
        var items = state.users.map { user in
            PickerItem(label: user.alias, detail: (isActing(user, state) ? "acting · " : "") + (user.isOwner ? "owner · " : "") + user.recordName,
                       value: user.recordName)
        }
        items.append(PickerItem(label: "no user", detail: (state.acting == .anonymous ? "acting · " : "") + "only what _world may", value: "none"))
        let selected = items.firstIndex { $0.detail.hasPrefix("acting") } ?? 0
        state.modals.append(.picker(PickerState(purpose: AppPick.user, title: "Act as", items: items, selected: selected)))
        return state.users.isEmpty ? loadUsers(&state) : []
    }

    private static func isActing(_ user: StoreUser, _ state: DashboardState) -> Bool {
        switch state.acting {
        case nil: return user.isOwner
        case .user(let name)?: return name == user.recordName
        case .anonymous?: return false
        }
    }

    /// `:user NAME`: an alias, a user record name, or `none`.
    static func actAs(_ state: inout DashboardState, named name: String) -> [Effect] {
        if let remote = state.remote {
            state.status = StatusMessage("Remote \(remote.name) acts as its signed-in user only; Act As (:user) picks among their databases.", kind: .error)
            return []
        }
        if name.lowercased() == "none" || name == "no user" { return actAs(&state, .anonymous) }
        guard let user = state.users.first(where: { $0.alias.lowercased() == name.lowercased() || $0.recordName == name }) else {
            let aliases = state.users.map(\.alias) + ["none"]
            state.status = StatusMessage("No user \(name) in this store (users: \(aliases.joined(separator: ", "))).", kind: .error)
            return []
        }
        return actAs(&state, .user(user.recordName))
    }

    /// Switches who acts: the databases are seen anew (zones, the query, subscriptions) and
    /// the choice is kept for this store.
    static func actAs(_ state: inout DashboardState, _ caller: Caller) -> [Effect] {
        let current = state.acting ?? state.users.first(where: \.isOwner).map { .user($0.recordName) }
        guard caller != current else { return [] }
        state.acting = caller
        state.preferences.actingUser = caller.userRecordName ?? "none"
        state.sharing = SharingTabState()
        let effects: [Effect] = [.actAs(caller), .savePreferences(state.preferences)] + seeDatabaseAnew(&state)
        state.status = StatusMessage("Acting as \(state.actingLabel): the \(state.scope.name) database as they see it.", kind: .success)
        return effects
    }
}
