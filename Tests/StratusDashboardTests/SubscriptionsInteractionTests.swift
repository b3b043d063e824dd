import Foundation
import StratusCloud
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusSQLite
import StratusTerminal
import Testing

/// The Subscriptions tab with scripted keys against a real store: making a subscription with
/// the dialog and the filter editor, deleting one, and notifications arriving in the panel.
@Suite struct SubscriptionsInteractionTests {
    func trip(_ name: String, nights: Int64) -> Record {
        var record = Record(recordType: "Trip", recordID: RecordID(recordName: name, zoneID: ZoneID(zoneName: "Travel")))
        record["title"] = .string("通知 test 🔔")
        record["nights"] = .int64(nights)
        return record
    }

    @Test func createsAQuerySubscriptionWithTheDialog() throws {
        let harness = try Harness(records: Fixtures.trips(20))
        harness.press(.char("6"))
        #expect(harness.state.tab == .subscriptions)
        #expect(harness.state.subscriptions.loaded)
        #expect(harness.state.subscriptions.watchJob != nil)
        #expect(harness.screen().contains("No subscriptions yet"))

        harness.press(.char("n"))
        guard case .subscriptionDraft(let opened)? = harness.state.topModal else {
            Issue.record("no dialog")
            return
        }
        #expect(opened.kind == .query)
        #expect(opened.recordType == "Trip")
        #expect(opened.zone == "Travel")
        #expect(harness.screen().contains("New subscription (private database)"))

        // Predicate: the filter editor, applied back into the dialog (the query is untouched).
        harness.press(.down, .down, .enter)
        guard case .filterEditor(let editor)? = harness.state.topModal else {
            Issue.record("no filter editor")
            return
        }
        #expect(editor.target == .subscription)
        harness.press(.tab)
        harness.type("nights > 3")
        harness.press(.ctrl("s"))
        guard case .subscriptionDraft(var draft)? = harness.state.topModal else {
            Issue.record("dialog gone")
            return
        }
        #expect(draft.predicate == "nights > 3")
        #expect(harness.state.query.filter == "")

        // Fires on: uncheck create.
        harness.press(.down, .enter, .char(" "), .enter)
        guard case .subscriptionDraft(let afterFires)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        draft = afterFires
        #expect(draft.firesOn == [.firesOnRecordUpdate, .firesOnRecordDeletion])

        // Once: Enter toggles.
        harness.press(.down, .enter)
        guard case .subscriptionDraft(let afterOnce)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(afterOnce.once)
        harness.press(.enter)

        // Desired keys: four are refused, two are kept.
        harness.press(.down, .enter, .char(" "), .char(" "), .char(" "), .char(" "), .enter)
        guard case .subscriptionDraft(let refused)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(refused.desiredKeys.isEmpty)
        #expect(refused.error?.contains("at most 3") == true)
        #expect(harness.screen().contains("at most 3"))
        harness.press(.enter, .char(" "), .char(" "), .enter)
        guard case .subscriptionDraft(let keyed)? = harness.state.topModal else { Issue.record("unexpected modal: \(String(describing: harness.state.topModal))"); return }
        #expect(keyed.desiredKeys.count == 2)
        #expect(keyed.error == nil)

        // ID, then save.
        harness.press(.down, .down, .enter)
        harness.type("long-trips")
        harness.press(.enter)
        harness.press(.ctrl("s"))
        #expect(harness.state.topModal == nil)
        let saved = try harness.database.subscription(for: "long-trips")
        guard case .query(let type, let format, _, let options, let zone) = saved.kind else {
            Issue.record("not a query subscription")
            return
        }
        #expect(type == "Trip")
        #expect(format == "nights > 3")
        #expect(options == [.firesOnRecordUpdate, .firesOnRecordDeletion])
        #expect(zone == ZoneID(zoneName: "Travel"))
        #expect(saved.notificationInfo?.desiredKeys == keyed.desiredKeys)
        #expect(harness.state.subscriptions.subscriptions.map(\.subscriptionID) == ["long-trips"])
        let screen = harness.screen()
        #expect(screen.contains("long-trips"))
        #expect(screen.contains("update,delete"))
        #expect(screen.contains("Saved the query subscription long-trips"))
    }

    @Test func aSubscriptionTheEngineRefusesKeepsTheDialogWithTheError() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        harness.press(.char("D"))
        // The shared database has no query subscriptions: the dialog starts on a database one.
        harness.press(.down, .down, .enter)
        #expect(harness.state.scope == .shared)
        harness.press(.char("6"), .char("n"))
        guard case .subscriptionDraft(let draft)? = harness.state.topModal else {
            Issue.record("no dialog")
            return
        }
        #expect(draft.kind == .database)
        // Choose query anyway: CloudKit's refusal shows in the dialog.
        harness.press(.enter, .up, .up, .enter)  // the kind picker, up to query
        harness.press(.ctrl("s"))
        guard case .subscriptionDraft(let refused)? = harness.state.topModal else {
            Issue.record("dialog closed")
            return
        }
        #expect(refused.error?.contains("shared database") == true)
    }

    @Test func deletesASubscriptionAfterConfirmation() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        try harness.database.save(.query("Trip", subscriptionID: "a-first", options: .firesOnAnyChange))
        try harness.database.save(.query("Trip", subscriptionID: "b-second", options: [.firesOnRecordCreation]))
        harness.press(.char("6"))
        #expect(harness.state.subscriptions.subscriptions.map(\.subscriptionID) == ["a-first", "b-second"])
        harness.press(.down, .char("d"))
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("no confirmation")
            return
        }
        #expect((confirm.action as? SubscriptionDeletion)?.subscriptionID == "b-second")
        #expect(harness.screen().contains("b-second"))
        harness.press(.char("n"))
        #expect(try harness.database.allSubscriptions().count == 2)
        harness.press(.char("d"), .char("y"))
        #expect(try harness.database.allSubscriptions().map(\.subscriptionID) == ["a-first"])
        #expect(harness.state.subscriptions.subscriptions.map(\.subscriptionID) == ["a-first"])
        #expect(harness.screen().contains("Deleted the subscription b-second"))
    }

    @Test func notificationsArriveFromOtherDevicesAndOpenTheRecord() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        try harness.database.save(.query("Trip", predicateFormat: "nights > 3", subscriptionID: "long", options: .firesOnAnyChange,
                                         notificationInfo: NotificationInfo(desiredKeys: ["nights"])))
        harness.press(.char("6"))
        #expect(harness.state.subscriptions.notifications.isEmpty)
        #expect(harness.screen().contains("Waiting: notifications appear here"))

        // Another device (the store's default, as `stratus save` is) saves a matching record.
        try harness.database.save(trip("far-away", nights: 9))
        // The dashboard's own device does too: CloudKit does not notify the originating device.
        try harness.store.database(.private, device: DashboardServices.defaultDevice).save(trip("own-edit", nights: 7))
        // And a record that does not match.
        try harness.database.save(trip("short", nights: 1))
        harness.poll()
        let arrived = harness.state.subscriptions.notifications
        #expect(arrived.map { $0.recordID?.recordName } == ["far-away"])
        #expect(arrived.first?.queryNotificationReason == .recordCreated)
        let screen = harness.screen()
        #expect(screen.contains("created"))
        #expect(screen.contains("far-away"))
        #expect(screen.contains("nights=9"))

        // An update arrives on the next poll.
        var changed = try harness.database.record(for: RecordID(recordName: "far-away", zoneID: ZoneID(zoneName: "Travel")))
        changed["nights"] = .int64(10)
        try harness.database.save(changed)
        harness.poll()
        #expect(harness.state.subscriptions.notifications.count == 2)
        #expect(harness.state.subscriptions.notificationList.selected == 1)

        // Enter opens the record in the inspector.
        harness.press(.tab)
        #expect(harness.state.subscriptions.focus == .notifications)
        harness.press(.enter)
        guard case .inspector(let inspector)? = harness.state.topModal else {
            Issue.record("no inspector")
            return
        }
        #expect(inspector.record.recordName == "far-away")
        #expect(inspector.record["nights"] == .int64(10))
        harness.press(.escape, .char("x"))
        #expect(harness.state.subscriptions.notifications.isEmpty)
    }

    @Test func thePanelCatchesUpWithEarlierNotificationsAndStopsOnQuit() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        try harness.database.save(.query("Trip", subscriptionID: "all", options: .firesOnAnyChange))
        try harness.database.save(trip("before-1", nights: 2))
        try harness.database.save(trip("before-2", nights: 2))
        harness.press(.char("6"))
        #expect(harness.state.subscriptions.notifications.map { $0.recordID?.recordName } == ["before-1", "before-2"])
        let watch = try #require(harness.state.subscriptions.watchJob)
        harness.press(.char("q"))
        #expect(harness.state.wantsQuit)
        #expect(harness.runner.isCancelled(watch))
    }

    @Test func schemaTabShowsRolesAndGrantsAndExports() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        try harness.store.importSchema(text: """
            DEFINE SCHEMA
                CREATE ROLE Editor;
                RECORD TYPE Trip (
                    "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                    "___modTime" TIMESTAMP QUERYABLE SORTABLE,
                    title STRING QUERYABLE SEARCHABLE SORTABLE,
                    nights INT64 QUERYABLE SORTABLE,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world",
                    GRANT READ, WRITE TO Editor
                );
            """, force: true)
        harness.press(.char("5"), .char("r"))
        #expect(harness.state.schemaTab.roles == ["Editor"])
        #expect(harness.state.schemaTab.grants["Trip"]?.count == 4)
        let lines = SchemaLines.lines(harness.state)
        #expect(lines.contains { $0.kind == .grant && $0.type == "READ, WRITE" && $0.indexes == "TO Editor" })
        #expect(lines.last?.kind == .role)
        harness.press(.char("G"))
        let screen = harness.screen(height: 60)
        #expect(screen.contains("GRANT"))
        #expect(screen.contains("Editor"))

        let path = harness.directory.appendingPathComponent("exported.ckdb").path
        harness.press(.char("x"))
        guard case .textInput(let input)? = harness.state.topModal else {
            Issue.record("no path dialog")
            return
        }
        #expect(input.field.text.hasSuffix("demo.ckdb"))
        harness.press(.ctrl("u"))
        harness.type(path)
        harness.press(.enter)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("CREATE ROLE Editor"))
        #expect(text.contains("GRANT READ, WRITE TO Editor"))
        #expect(harness.state.status?.text == "Exported the schema to \(path).")
    }
}

/// The live panel and the benchmark probe with the real event loop and background threads.
@Suite struct LiveDashboardTests {
    @Test func theLivePanelShowsWhatAnotherConnectionWrites() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        try harness.database.save(.query("Trip", subscriptionID: "all-trips", options: .firesOnAnyChange))
        let backend = MemoryBackend(width: 120, height: 40, colorDepth: .none)
        let mailbox = Mailbox<DashboardMail>()
        let state = DashboardState(storePath: harness.state.storePath, zone: ZoneID(zoneName: "Travel"), recordType: "Trip", size: backend.size)
        var app = DashboardApp(state: state, runner: harness.runner, mailbox: mailbox)
        app.start()
        let loop = EventLoop(app: app, backend: backend, mailbox: mailbox)
        loop.send(.key(.char("6")))
        let clock = ContinuousClock()
        var deadline = clock.now + .seconds(5)
        while clock.now < deadline, !backend.text.contains("all-trips") || loop.app.state.subscriptions.lastSequence == 0 && !backend.text.contains("Waiting") {
            loop.step(timeout: .zero)
            Thread.sleep(forTimeInterval: 0.01)
        }
        // A second connection to the file, as another process has.
        let other = try Store(path: harness.state.storePath)
        var record = Record(recordType: "Trip", recordID: RecordID(recordName: "written-elsewhere", zoneID: ZoneID(zoneName: "Travel")))
        record["title"] = .string("elsewhere ✈️")
        try other.database(.private).save(record)
        deadline = clock.now + .seconds(5)
        while clock.now < deadline, !backend.text.contains("written-elsewhere") {
            loop.step(timeout: .zero)
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(backend.text.contains("written-elsewhere"))
        #expect(backend.text.contains("created"))
        loop.send(.key(.char("q")))
        #expect(loop.app.wantsQuit)
    }
}
