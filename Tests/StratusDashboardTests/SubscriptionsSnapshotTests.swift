import Foundation
@testable import StratusDashboard
@testable import StratusEngine
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

extension Fixtures {
    static let subscriptions: [Subscription] = [
        .query("Trip", predicateFormat: "nights > 3", subscriptionID: "long-trips", options: [.firesOnRecordCreation, .firesOnRecordUpdate],
               zoneID: ZoneID(zoneName: "Travel"), notificationInfo: NotificationInfo(desiredKeys: ["title", "nights"])),
        .query("Place", predicateFormat: "name BEGINSWITH \"京\"", subscriptionID: "京都-places", options: [.firesOnRecordDeletion, .firesOnce]),
        .recordZone(ZoneID(zoneName: "Travel"), subscriptionID: "travel-zone"),
        .database(recordType: "Trip", subscriptionID: "all-trips 🧳"),
    ]

    static func notifications(_ count: Int) -> [CloudNotification] {
        let reasons: [CloudNotification.Reason] = [.recordCreated, .recordUpdated, .recordDeleted]
        var result: [CloudNotification] = []
        let zone = ZoneID(zoneName: "Travel")
        for index in 0..<count {
            let fields: [String: FieldValue] = index % 3 == 2 ? [:] : ["title": .string("京都 旅行 🍵"), "nights": .int64(Int64(index % 9 + 1))]
            let date = base.addingTimeInterval(Double(index) * 61)
            let recordID = RecordID(recordName: "trip-\(index)", zoneID: zone)
            result.append(CloudNotification(notificationID: "n\(index)", sequence: Int64(index + 1), notificationType: .query,
                                            subscriptionID: "long-trips", databaseScope: .private, queryNotificationReason: reasons[index % 3],
                                            recordID: recordID, recordType: "Trip", recordFields: fields, recordZoneID: zone, date: date,
                                            originatingDevice: "laptop", isRead: false))
        }
        return result
    }

    /// The Subscriptions tab with a list and a live panel.
    static func subscriptionsState(size: Size) -> DashboardState {
        var state = state(size: size)
        state.tab = .subscriptions
        state.subscriptions.subscriptions = subscriptions
        state.subscriptions.loaded = true
        state.subscriptions.watchJob = 99
        state.subscriptions.receive(notifications(12), visible: Layout.notificationRows(size))
        return state
    }
}

extension SnapshotTests {
    @Test func subscriptionsTab() {
        assertSnapshot("subscriptions") { state in
            state = Fixtures.subscriptionsState(size: state.size)
            state.subscriptions.list = ListCursor(selected: 1, offset: 0)
        }
    }

    @Test func subscriptionsTabNotificationsFocusedAndEmpty() {
        assertSnapshot("subscriptions-notifications") { state in
            state = Fixtures.subscriptionsState(size: state.size)
            state.subscriptions.focus = .notifications
        }
        assertSnapshot("subscriptions-empty") { state in
            state.tab = .subscriptions
            state.subscriptions.loaded = true
            state.subscriptions.watchJob = 1
        }
    }

    @Test func subscriptionDraftDialog() {
        assertSnapshot("subscription-draft") { state in
            state = Fixtures.subscriptionsState(size: state.size)
            var draft = SubscriptionDraft(recordType: "Trip", zone: "Travel")
            draft.predicate = "nights > 3 AND title BEGINSWITH \"京\""
            draft.desiredKeys = ["title", "nights"]
            draft.list = ListCursor(selected: 2)
            draft.error = "4 desired keys checked; CloudKit takes at most 3."
            state.modals = [.subscriptionDraft(draft)]
        }
    }

    @Test func schemaTabWithRolesAndGrants() {
        assertSnapshot("schema-roles") { state in
            state.tab = .schema
            state.schemaTab.grants = ["Trip": [GrantDeclaration([.read, .write], to: "_creator"),
                                           GrantDeclaration([.read], to: "_world")]]
            state.schemaTab.roles = ["Editor", "旅行者"]
            state.schemaTab.list = ListCursor(selected: 3)
        }
    }
}
