import Foundation
import StratusEngine
import StratusModel
import StratusPredicates
import StratusTerminal
import StratusCloud

/// The Subscriptions tab: the database's subscriptions, the create dialog, and the live
/// notifications panel this dashboard's device polls.
enum SubscriptionsTab {
    /// The tab is shown: it loads the subscriptions once and starts the notifications poll.
    static func entered(_ state: inout DashboardState) -> [Effect] {
        var effects: [Effect] = []
        if !state.subscriptions.loaded, !state.jobs.contains(where: { $0.kind == .subscriptions }) {
            effects += loadSubscriptions(&state)
        }
        if state.subscriptions.watchJob == nil {
            effects += startWatching(&state)
        }
        return effects
    }

    static func loadSubscriptions(_ state: inout DashboardState) -> [Effect] {
        let job = state.startJob(.subscriptions, "subscriptions")
        return [.subscriptions(.load(job: job, scope: state.scope))]
    }

    /// Starts the notifications poll (not a job of the status line: it runs while the
    /// dashboard does).
    static func startWatching(_ state: inout DashboardState) -> [Effect] {
        if state.remote != nil {
            state.subscriptions.watchError = "local-only: CloudKit Web Services delivers notifications by push, not to a reader."
            return []
        }
        let job = state.nextJobID
        state.nextJobID += 1
        state.subscriptions.watchJob = job
        state.subscriptions.watchError = nil
        let after: Int64? = state.subscriptions.lastSequence > 0 ? state.subscriptions.lastSequence : nil
        return [.subscriptions(.watchNotifications(job: job, scope: state.scope, afterSequence: after))]
    }

    static func stopWatching(_ state: inout DashboardState) -> [Effect] {
        guard let job = state.subscriptions.watchJob else { return [] }
        state.subscriptions.watchJob = nil
        return [.cancel(job: job)]
    }

    // MARK: - Keys

    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        if state.subscriptions.focus == .notifications { return notificationsAction(&state, action) }
        let index = state.subscriptions.list.selected
        let list = state.subscriptions.subscriptions
        switch action {
        case .switchFocus:
            state.subscriptions.focus = .notifications
        case .run:
            return loadSubscriptions(&state)
        case .create:
            let type = state.query.recordType ?? state.pickableTypes.first?.name
            let zone: String? = state.zone.isDefault ? nil : state.zone.zoneName
            var draft = SubscriptionDraft(recordType: type, zone: zone)
            if state.scope == .shared { draft.kind = .database; draft.zone = nil }
            state.modals.append(.subscriptionDraft(draft))
        case .delete:
            guard list.indices.contains(index) else { return [] }
            let subscription = list[index]
            state.modals.append(.confirm(ConfirmState(
                title: "Delete subscription",
                message: "Delete the \(subscription.subscriptionType.name) subscription \(subscription.subscriptionID)"
                    + (subscription.recordType.map { " on \($0)" } ?? "") + "? Its notifications stay.",
                action: SubscriptionDeletion(subscriptionID: subscription.subscriptionID))))
        case .copy:
            guard list.indices.contains(index) else { return [] }
            return Dashboard.copy(&state, list[index].subscriptionID, what: "subscription ID")
        default:
            break
        }
        return []
    }

    static func notificationsAction(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        let index = state.subscriptions.notificationList.selected
        let list = state.subscriptions.notifications
        switch action {
        case .switchFocus:
            state.subscriptions.focus = .subscriptions
        case .clear:
            state.subscriptions.notifications = []
            state.subscriptions.notificationList = ListCursor()
            state.status = StatusMessage("Cleared the panel; new notifications keep arriving.")
        case .open:
            guard list.indices.contains(index) else { return [] }
            let notification = list[index]
            guard let recordID = notification.recordID else {
                let zone = notification.recordZoneID.map { " in zone \($0.zoneName)" } ?? ""
                state.status = StatusMessage("A \(notification.notificationType.name) notification\(zone) names no record.", kind: .error)
                return []
            }
            guard notification.queryNotificationReason != .recordDeleted else {
                state.status = StatusMessage("\(recordID.recordName) was deleted.", kind: .error)
                return []
            }
            let job = state.startJob(.loadRecord, "record \(recordID.recordName)")
            return [.record(.load(job: job, recordID: recordID, scope: notification.databaseScope, purpose: .openInspector))]
        case .copy:
            guard list.indices.contains(index), let name = list[index].recordID?.recordName else { return [] }
            return Dashboard.copy(&state, name, what: "record name")
        default:
            break
        }
        return []
    }

    // MARK: - The create dialog

    static func subscriptionDraftKey(_ state: inout DashboardState, _ draft: SubscriptionDraft, action: KeyAction?) -> [Effect] {
        var draft = draft
        let rows = draft.rows
        let visible = Layout.formRows(state.size)
        switch action {
        case .back?:
            state.topModal = nil
            return []
        case .previousField?:
            draft.list.move(by: -1, count: rows.count, visible: visible)
        case .nextField?:
            draft.list.move(by: 1, count: rows.count, visible: visible)
        case .save?:
            return saveDraft(&state, draft)
        case .editCell?:
            guard rows.indices.contains(draft.list.selected) else { return [] }
            draft.error = nil
            state.topModal = .subscriptionDraft(draft)
            return editDraftRow(&state, draft, rows[draft.list.selected])
        default:
            break
        }
        state.topModal = .subscriptionDraft(draft)
        return []
    }

    static func editDraftRow(_ state: inout DashboardState, _ draft: SubscriptionDraft, _ row: SubscriptionDraft.Row) -> [Effect] {
        var draft = draft
        switch row {
        case .kind:
            let kinds = SubscriptionType.allCases
            let items = kinds.map { kind -> PickerItem in
                let detail: String
                switch kind {
                case .query: detail = "records of a type matching a predicate"
                case .recordZone: detail = "every change in one custom zone"
                case .database: detail = "every change in the database's custom zones"
                }
                return PickerItem(label: kind.name, detail: detail)
            }
            state.modals.append(.picker(PickerState(purpose: SubscriptionDraftPick.kind, title: "Kind", items: items,
                                                    selected: kinds.firstIndex(of: draft.kind) ?? 0)))
        case .recordType:
            var items = draft.kind == .query ? [] : [PickerItem(label: "(any)", detail: "every record type", value: "")]
            items += state.pickableTypes.map { PickerItem(label: $0.name, detail: "\($0.fields.count) fields") }
            let selected = items.firstIndex { $0.value == (draft.recordType ?? "") } ?? 0
            state.modals.append(.picker(PickerState(purpose: SubscriptionDraftPick.recordType, title: "Record type", items: items, selected: selected)))
        case .predicate:
            guard let recordType = draft.recordType else {
                state.status = StatusMessage("Choose the record type first.", kind: .error)
                return []
            }
            let text = draft.predicate == "TRUEPREDICATE" ? "" : draft.predicate
            var editor = FilterEditorState(recordType: recordType, fields: BuilderField.fields(for: state.schema(named: recordType)), text: text,
                                           arguments: draft.arguments)
            editor.target = .subscription
            state.modals.append(.filterEditor(editor))
            return FilterEditor.filterTextChanged(&state, focusText: false)
        case .firesOn:
            let options: [(String, QuerySubscriptionOptions, String)] = [
                ("create", .firesOnRecordCreation, "a record starts to match"),
                ("update", .firesOnRecordUpdate, "a matching record changes"),
                ("delete", .firesOnRecordDeletion, "a matching record is deleted or stops matching"),
            ]
            let items = options.map { PickerItem(label: $0.0, detail: $0.2, checked: draft.firesOn.contains($0.1)) }
            state.modals.append(.picker(PickerState(purpose: SubscriptionDraftPick.firesOn, title: "Fires on (Space checks; at least one)",
                                                    items: items, multiple: true)))
        case .once:
            draft.once.toggle()
            state.topModal = .subscriptionDraft(draft)
        case .desiredKeys:
            guard let recordType = draft.recordType, let schema = state.schema(named: recordType) else {
                state.status = StatusMessage("Choose the record type first.", kind: .error)
                return []
            }
            let items = schema.sortedFields.map { PickerItem(label: $0.name, detail: $0.type.description, checked: draft.desiredKeys.contains($0.name)) }
            state.modals.append(.picker(PickerState(
                purpose: SubscriptionDraftPick.desiredKeys, title: "Desired keys (at most \(NotificationInfo.maximumDesiredKeys))", items: items, multiple: true)))
        case .zone:
            var items = draft.kind == .query ? [PickerItem(label: "(every zone)", value: "")] : []
            items += state.zones.filter { draft.kind == .query || !$0.zoneID.isDefault }.map {
                PickerItem(label: $0.zoneID.zoneName, detail: "\($0.recordCount) records")
            }
            guard !items.isEmpty else {
                state.status = StatusMessage("The \(state.scope.name) database has no custom zone to subscribe to.", kind: .error)
                return []
            }
            let selected = items.firstIndex { $0.value == (draft.zone ?? "") } ?? 0
            state.modals.append(.picker(PickerState(purpose: SubscriptionDraftPick.zone, title: "Zone", items: items, selected: selected)))
        case .subscriptionID:
            state.modals.append(.textInput(TextInputState(purpose: SubscriptionIDEntry(), title: "Subscription ID",
                                                          hint: "empty makes a UUID; saving an existing ID replaces it", text: draft.subscriptionID)))
        }
        return []
    }

    /// The filter editor applied a predicate for the dialog under it.
    static func draftPredicateApplied(_ state: inout DashboardState, text: String, arguments: [String]) {
        guard case .subscriptionDraft(var draft)? = state.topModal else { return }
        draft.predicate = text.isEmpty ? "TRUEPREDICATE" : text
        draft.arguments = arguments
        draft.error = nil
        state.topModal = .subscriptionDraft(draft)
    }

    /// The subscription the dialog describes, or what is missing.
    static func subscription(from draft: SubscriptionDraft, scope: DatabaseScope) -> Result<Subscription, CloudKitError> {
        let id = draft.subscriptionID.isEmpty ? UUID().uuidString : draft.subscriptionID
        let info = draft.desiredKeys.isEmpty ? nil : NotificationInfo(desiredKeys: draft.desiredKeys)
        switch draft.kind {
        case .query:
            guard let recordType = draft.recordType else {
                return .failure(CloudKitError(.invalidArguments, "A query subscription needs a record type."))
            }
            let arguments: [PredicateArgument]
            do {
                arguments = try draft.arguments.map { text throws(PredicateArgumentError) in try PredicateArgument(parsing: text) }
            } catch {
                return .failure(CloudKitError(.invalidArguments, error.message))
            }
            var options = draft.firesOn
            if draft.once { options.insert(.firesOnce) }
            return .success(.query(recordType, predicateFormat: draft.predicate.isEmpty ? "TRUEPREDICATE" : draft.predicate,
                                   arguments: arguments, subscriptionID: id, options: options,
                                   zoneID: draft.zone.map { ZoneID(zoneName: $0) }, notificationInfo: info))
        case .recordZone:
            guard let zone = draft.zone else {
                return .failure(CloudKitError(.invalidArguments, "A zone subscription needs a zone."))
            }
            return .success(.recordZone(ZoneID(zoneName: zone), recordType: draft.recordType, subscriptionID: id, notificationInfo: info))
        case .database:
            return .success(.database(recordType: draft.recordType, subscriptionID: id, notificationInfo: info))
        }
    }

    static func saveDraft(_ state: inout DashboardState, _ draft: SubscriptionDraft) -> [Effect] {
        var draft = draft
        switch subscription(from: draft, scope: state.scope) {
        case .failure(let error):
            draft.error = error.message
            state.topModal = .subscriptionDraft(draft)
            return []
        case .success(let subscription):
            let job = state.startJob(.saveSubscription, "save subscription \(subscription.subscriptionID)")
            draft.savingJob = job
            draft.error = nil
            state.topModal = .subscriptionDraft(draft)
            return [.subscriptions(.save(job: job, subscription: subscription, scope: state.scope))]
        }
    }

    // MARK: - Results

    static func receive(_ state: inout DashboardState, _ message: SubscriptionsMessage) -> [Effect] {
        switch message {
        case .loaded(let job, let result):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let subscriptions):
                state.succeeded()
                setSubscriptions(&state, subscriptions)
            case .failure(let error):
                state.status = .error(error)
            }
        case .saved(let job, let result):
            state.endJob(job)
            switch result {
            case .success(let subscription):
                if case .subscriptionDraft(let draft)? = state.topModal, draft.savingJob == job { state.topModal = nil }
                var list = state.subscriptions.subscriptions.filter { $0.subscriptionID != subscription.subscriptionID }
                list.append(subscription)
                setSubscriptions(&state, list.sorted { $0.subscriptionID < $1.subscriptionID })
                if let index = state.subscriptions.subscriptions.firstIndex(where: { $0.subscriptionID == subscription.subscriptionID }) {
                    state.subscriptions.list.move(to: index, count: state.subscriptions.subscriptions.count,
                                                  visible: Layout.subscriptionRows(state.size))
                }
                state.status = StatusMessage("Saved the \(subscription.subscriptionType.name) subscription \(subscription.subscriptionID).", kind: .success)
            case .failure(let error):
                if case .subscriptionDraft(var draft)? = state.topModal, draft.savingJob == job {
                    draft.savingJob = nil
                    draft.error = error.description
                    state.topModal = .subscriptionDraft(draft)
                }
                state.status = .error(error)
            }
        case .deleted(let job, let result):
            state.endJob(job)
            switch result {
            case .success(let id):
                setSubscriptions(&state, state.subscriptions.subscriptions.filter { $0.subscriptionID != id })
                state.status = StatusMessage("Deleted the subscription \(id).", kind: .success)
            case .failure(let error):
                state.status = .error(error)
            }
        case .notificationsArrived(let job, let notifications, _):
            guard state.subscriptions.watchJob == job else { return [] }
            state.subscriptions.receive(notifications, visible: Layout.notificationRows(state.size))
            // A fires-once subscription is gone once it fired: keep the list true.
            let onceIDs = Set(state.subscriptions.subscriptions.filter { $0.querySubscriptionOptions.contains(.firesOnce) }.map(\.subscriptionID))
            if !onceIDs.isDisjoint(with: notifications.map(\.subscriptionID)), !state.jobs.contains(where: { $0.kind == .subscriptions }) {
                return loadSubscriptions(&state)
            }
        case .notificationsFailed(let job, let error):
            guard state.subscriptions.watchJob == job else { return [] }
            state.subscriptions.watchJob = nil
            state.subscriptions.watchError = "\(error.code.name): \(error.message)"
            state.status = .error(error)
        }
        return []
    }

    static func setSubscriptions(_ state: inout DashboardState, _ subscriptions: [Subscription]) {
        state.subscriptions.subscriptions = subscriptions
        state.subscriptions.loaded = true
        state.subscriptions.list.clamp(count: subscriptions.count, visible: Layout.subscriptionRows(state.size))
    }
}
