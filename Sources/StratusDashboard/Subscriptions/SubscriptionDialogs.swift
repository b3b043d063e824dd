import Foundation
import StratusCloud

/// The pickers of the create dialog (which is on top again when they choose): kind, record
/// type, what a query subscription fires on, desired keys, zone.
enum SubscriptionDraftPick: PickerPurpose {
    case kind, recordType, firesOn, desiredKeys, zone

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard case .subscriptionDraft(var draft)? = state.topModal else { return [] }
        let item = picker.selectedItem
        switch self {
        case .kind:
            guard let item, let kind = SubscriptionType.allCases.first(where: { $0.name == item.value }) else { return [] }
            draft.kind = kind
            if kind != .query, draft.recordType != nil, !state.pickableTypes.contains(where: { $0.name == draft.recordType }) { draft.recordType = nil }
            if kind == .query, draft.recordType == nil { draft.recordType = state.pickableTypes.first?.name }
            if kind == .database { draft.zone = nil }
            draft.list.clamp(count: draft.rows.count, visible: Layout.formRows(state.size))
        case .recordType:
            guard let item else { return [] }
            let type = item.value.isEmpty ? nil : item.value
            if type != draft.recordType {
                draft.recordType = type
                draft.predicate = "TRUEPREDICATE"
                draft.arguments = []
                draft.desiredKeys = []
            }
        case .firesOn:
            var options: QuerySubscriptionOptions = []
            let all: [QuerySubscriptionOptions] = [.firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion]
            for (index, option) in all.enumerated() where picker.items.indices.contains(index) && picker.items[index].checked {
                options.insert(option)
            }
            guard !options.isEmpty else {
                draft.error = "A query subscription must fire on something: check create, update or delete."
                state.topModal = .subscriptionDraft(draft)
                return []
            }
            draft.firesOn = options
        case .desiredKeys:
            let keys = picker.checkedValues
            guard keys.count <= NotificationInfo.maximumDesiredKeys else {
                draft.error = "\(keys.count) desired keys checked; CloudKit takes at most \(NotificationInfo.maximumDesiredKeys)."
                state.topModal = .subscriptionDraft(draft)
                return []
            }
            draft.desiredKeys = keys
        case .zone:
            guard let item else { return [] }
            draft.zone = item.value.isEmpty ? nil : item.value
        }
        draft.error = nil
        state.topModal = .subscriptionDraft(draft)
        return []
    }
}

/// The create dialog's subscription ID (empty: a UUID when saved).
struct SubscriptionIDEntry: TextInputPurpose {
    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        guard case .subscriptionDraft(var draft)? = state.topModal else { return [] }
        draft.subscriptionID = text.trimmingCharacters(in: .whitespaces)
        state.topModal = .subscriptionDraft(draft)
        return []
    }
}

/// Deleting a subscription (its notifications stay).
struct SubscriptionDeletion: ConfirmAction {
    var subscriptionID: String

    func confirmed(in state: inout DashboardState) -> [Effect] {
        let job = state.startJob(.deleteSubscription, "delete subscription \(subscriptionID)")
        return [.subscriptions(.delete(job: job, subscriptionID: subscriptionID, scope: state.scope))]
    }
}
