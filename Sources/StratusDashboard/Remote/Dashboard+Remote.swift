import Foundation
import StratusCloud

/// The dashboard on a remote container: what it loads when it opens, Act As among the
/// signed-in user's databases, and the keys of tabs only a local store has.
extension Dashboard {
    /// The first loads on a remote: its zones and, when the record type is known, the query.
    /// No users (CKWS acts as the signed-in user only), no fault plan, no schema (CKWS has no
    /// schema endpoint; the Query tab learns fields from the records it reads).
    static func startOnRemote(_ state: inout DashboardState, _ remote: RemoteContainer) -> [Effect] {
        state.environment = remote.environment
        state.schemaLoaded = true
        var effects = loadZones(&state)
        if state.query.recordType != nil {
            effects += QueryTab.runQuery(&state)
        } else {
            state.status = StatusMessage("CloudKit Web Services cannot list record types: t names the one to query.")
        }
        return effects
    }

    /// What a remote learns from a message: a query's fields (there is no schema to read), and
    /// whether the sign-in lapsed.
    static func received(_ state: inout DashboardState, _ message: DashboardMessage, on remote: RemoteContainer) {
        if case .query(.page(_, .success(let page), _, _)) = message { LearnedSchema.learn(from: page.records, into: &state) }
        SessionExpiry.note(&state, after: message, on: remote)
    }

    /// Act As on a remote: the signed-in user's own databases, since CKWS acts as no one else.
    static func openDatabasePickerAsActAs(_ state: inout DashboardState) -> [Effect] {
        let items = DatabaseScope.allCases.map { PickerItem(label: $0.name, detail: $0 == state.scope ? "acting · current" : "", value: $0.name) }
        state.modals.append(.picker(PickerState(purpose: AppPick.database, title: "Act as the signed-in user in", items: items,
                                                selected: DatabaseScope.allCases.firstIndex(of: state.scope) ?? 0)))
        return []
    }

    /// A key of a local-only tab on a remote: nothing happens, and the status line says why.
    static func localOnlyKey(_ state: inout DashboardState) -> [Effect] {
        if let line = state.localOnlyLine { state.status = StatusMessage(line, kind: .error) }
        return []
    }
}

/// `t` on a remote: the record type to query, typed (CKWS cannot list a container's types).
struct RemoteRecordTypeEntry: TextInputPurpose {
    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? {
        let name = text.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return typing ? nil : "Type a record type's name." }
        return name.contains(" ") ? "A record type's name has no spaces." : nil
    }

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        QueryTab.chooseRecordType(&state, text.trimmingCharacters(in: .whitespaces))
    }
}
