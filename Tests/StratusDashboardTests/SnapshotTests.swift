import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusPredicates
import StratusTerminal
import Testing
import StratusCloud

/// Render snapshots: each view drawn from a fixed state (CJK and emoji in the data) at 80x24,
/// 120x40 and 60x20, compared with the text in `Snapshots/NAME-WxH.txt`.
/// `STRATUS_RECORD_SNAPSHOTS=1 swift test --filter SnapshotTests` writes them anew.
@Suite struct SnapshotTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 60, height: 20)]

    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    }

    func assertSnapshot(_ name: String, sourceLocation: SourceLocation = #_sourceLocation, _ configure: (inout DashboardState) -> Void) {
        for size in Self.sizes {
            var state = Fixtures.state(size: size)
            configure(&state)
            var canvas = Canvas(size: size)
            DashboardView.render(state, into: &canvas)
            let text = canvas.text + "\n"
            // Wide characters never hang over the right edge: each row is exactly the width.
            for line in canvas.lines() {
                #expect(DisplayWidth.of(line) == size.width, "row wider or narrower than the screen in \(name)", sourceLocation: sourceLocation)
            }
            let file = Self.directory.appendingPathComponent("\(name)-\(size.width)x\(size.height).txt")
            if ProcessInfo.processInfo.environment["STRATUS_RECORD_SNAPSHOTS"] == "1" {
                try? FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
                try? text.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
                Issue.record("No snapshot \(file.lastPathComponent); run with STRATUS_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
                continue
            }
            #expect(text == expected, "snapshot \(file.lastPathComponent) differs:\n\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func queryTab() {
        assertSnapshot("query") { state in
            state.query.list = ListCursor(selected: 2, offset: 0)
        }
    }

    @Test func queryTabScrolledColumnsAndFilter() {
        assertSnapshot("query-filtered") { state in
            state.query.filter = "title BEGINSWITH \"京都\" AND nights > 2"
            state.query.sort = [QuerySort("startDate", ascending: false)]
            state.query.columnOffset = 2
            state.query.list = ListCursor(selected: 25, offset: 10)
        }
    }

    @Test func queryTabEmptyAndError() {
        assertSnapshot("query-error") { state in
            state.query.clearResults()
            state.query.error = "invalidArguments (12): Field 'price' is not marked QUERYABLE in the production schema of Trip."
            state.status = StatusMessage.error(CloudKitError(.invalidArguments, "Field 'price' is not marked QUERYABLE."))
        }
    }

    @Test func filterEditorValid() {
        assertSnapshot("filter-valid") { state in
            var editor = FilterEditorState(recordType: "Trip", fields: BuilderField.fields(for: Fixtures.tripSchema),
                                           text: "title BEGINSWITH \"東京\" AND nights >= 2")
            editor.rows = [BuilderRow(field: "title", op: .beginsWith, value: "東京"), BuilderRow(field: "nights", op: .greaterOrEqual, value: "2")]
            editor.row = 1
            editor.column = 2
            editor.check = .valid(canonical: "title BEGINSWITH \"東京\" AND nights >= 2", indexes: ["title (SORTABLE)", "nights (SORTABLE)"])
            state.preferences.remember(filter: "nights > 3", for: "Trip")
            state.modals = [.filterEditor(editor)]
        }
    }

    @Test func filterEditorError() {
        assertSnapshot("filter-error") { state in
            var editor = FilterEditorState(recordType: "Trip", fields: BuilderField.fields(for: Fixtures.tripSchema),
                                           text: "title == \"京都 🍵\" OR nights > 3")
            editor.focus = .text
            editor.builderSynced = false
            editor.builderNote = "OR is not a builder condition (CloudKit refuses OR anyway)"
            // "OR" starts at code point 16 (the emoji is one code point, two columns).
            editor.check = .invalid("CloudKit does not support OR; run one query per alternative", offset: 16, length: 2)
            state.modals = [.filterEditor(editor)]
        }
    }

    @Test func filterEditorWithArguments() {
        assertSnapshot("filter-arguments") { state in
            let text = "title BEGINSWITH %@ AND nights >= %d"
            var editor = FilterEditorState(recordType: "Trip", fields: BuilderField.fields(for: Fixtures.tripSchema),
                                           text: text, arguments: ["string:東京", "int:two"])
            editor.focus = .arguments
            editor.argumentRow = 1
            editor.builderSynced = false
            if case .failure(let error) = FilterBuilder.rows(from: text, fields: editor.fields) { editor.builderNote = error.message }
            editor.check = FilterArgumentRow.explain(.invalid("no argument for %d", offset: 34, length: 2), rows: editor.argumentRows)
            state.modals = [.filterEditor(editor)]
        }
    }

    @Test func inspector() {
        assertSnapshot("inspector") { state in
            var inspector = InspectorState(record: Fixtures.trips(3)[1])
            inspector.list = ListCursor(selected: 9)
            state.modals = [.inspector(inspector)]
        }
    }

    /// A selected location is drawn on a world map beside its value.
    @Test func inspectorLocation() {
        assertSnapshot("inspector-location") { state in
            let record = Fixtures.trips(3)[1]
            var inspector = InspectorState(record: record)
            let rows = InspectorRows.rows(record, schema: state.schema(named: record.recordType))
            inspector.list = ListCursor(selected: rows.firstIndex { $0.name == "destination" } ?? 0)
            state.modals = [.inspector(inspector)]
        }
    }

    @Test func editForm() {
        assertSnapshot("edit-form") { state in
            var form = EditFormState(isNew: false, base: Fixtures.trips(1)[0], rows: [])
            let record = Fixtures.trips(1)[0]
            form.rows = Fixtures.tripSchema.sortedFields.map { field in
                let text = ValueText.editable(record[field.name])
                return FormRow(name: field.name, type: field.type, field: TextField(text), readOnly: !ValueText.isEditable(field.type),
                               error: field.name == "nights" ? "'x' is not a whole number" : nil, original: text)
            }
            form.list = ListCursor(selected: 3)
            state.modals = [.form(form)]
        }
    }

    @Test func conflictDialog() {
        assertSnapshot("conflict") { state in
            var mine = Fixtures.trips(1)[0]
            mine["title"] = .string("私の旅 ✈️")
            var server = Fixtures.trips(1)[0]
            server["nights"] = .int64(12)
            server.recordChangeTag = "tag9"
            state.modals = [.conflict(ConflictState(mine: mine, server: server))]
        }
    }

    @Test func confirmDialog() {
        assertSnapshot("confirm") { state in
            state.modals = [.confirm(ConfirmState(title: "Delete record",
                                                  message: "Delete Trip trip-1 from Travel? Records pointing at it with DELETE_SELF are deleted too. This cannot be undone.",
                                                  action: RecordDeletion(recordID: RecordID(recordName: "trip-1"))))]
        }
    }

    @Test func pickers() {
        assertSnapshot("picker-fields") { state in
            let items = Fixtures.tripSchema.sortedFields.map { PickerItem(label: $0.name, detail: $0.type.description, checked: $0.name != "cover") }
            state.modals = [.picker(PickerState(purpose: QueryPick.fields, title: "Fields to fetch (desired keys)", items: items, selected: 1, multiple: true))]
        }
    }

    @Test func helpOverlay() {
        assertSnapshot("help") { state in
            state.modals = [.help(HelpState(contexts: Dashboard.contexts(state), title: "Query tab"))]
        }
    }

    @Test func commandLine() {
        assertSnapshot("command-line") { state in
            var line = CommandLineState()
            line.field = TextField("zone ")
            line.completions = Dashboard.completions(state, for: "zone ")
            state.modals = [.commandLine(line)]
        }
    }

    @Test func fetchTab() {
        assertSnapshot("fetch") { state in
            state.tab = .fetch
        }
    }

    @Test func changesTab() {
        assertSnapshot("changes") { state in
            state.tab = .changes
            state.changes.list = ListCursor(selected: 3)
        }
    }

    @Test func changesTabRunning() {
        assertSnapshot("changes-running") { state in
            state.tab = .changes
            state.changes.finished = false
            state.changes.job = 7
            state.jobs = [JobInfo(id: 7, kind: .changes, label: "changes of Travel")]
            state.changes.eventCount = 1200
            state.changes.elapsed = 0.15
        }
    }

    @Test func changesTabCompacted() {
        assertSnapshot("changes-compacted") { state in
            state.tab = .changes
            state.changes.oldestValidToken = (state.zone, "AQEOMNTaAqtIfa7oLQvFVh7lAgMBAuWaEDc", true)
            state.changes.activity = (state.zone, [1, 0, 2, 5, 3, 0, 0, 8, 13, 4, 2, 1, 0, 0, 0, 1, 6, 9, 12, 7, 3, 2, 20, 4])
        }
    }

    @Test func histogramDialog() {
        assertSnapshot("histogram") { state in
            let titles = ["京都 旅行 🍵", "京都 旅行 🍵", "Tokyo weekend ☀️", "Paris food tour 🥐", "서울 hike 🏔️"].map { FieldValue.string($0) }
            state.modals = [.histogram(ValueHistogram(field: "title", values: titles + [nil], sampled: true))]
        }
    }

    @Test func faultsTab() {
        assertSnapshot("faults") { state in
            state.tab = .faults
            let created = Fixtures.base
            state.faults.faults = [
                Fault(id: 1, kind: .zoneBusy, zoneName: "旅行", trigger: .every(2), retryAfter: 3, seen: 4, fired: 2, created: created),
                Fault(id: 2, kind: .serverRecordChanged, recordNames: ["trip-1"], otherDeviceFields: #"{"title": {"value": "東京 🗼"}}"#,
                      seen: 1, fired: 1, created: created),
                Fault(id: 3, kind: .partialFailure, scope: .private, operation: .modify, trigger: .probability(0.25, seed: 7), seen: 9, fired: 3,
                      created: created),
                Fault(id: 4, kind: .limitExceeded, itemLimit: 50, created: created),
            ]
            state.faults.events = [
                FaultEvent(id: 1, faultID: 1, time: created.addingTimeInterval(61), kind: .zoneBusy, operation: .query, database: "private",
                           zoneName: "旅行", message: "zoneBusy (23): Zone '旅行' is busy: try again after 3 s (fault #1 of the store's fault plan)."),
                FaultEvent(id: 2, faultID: 2, time: created.addingTimeInterval(75), kind: .serverRecordChanged, operation: .modify,
                           database: "private", zoneName: "Travel", message: "another device saved trip-1"),
            ]
            state.faults.loaded = true
            state.faults.watchJob = 9
            state.faults.list = ListCursor(selected: 1)
        }
        assertSnapshot("faults-empty") { state in
            state.tab = .faults
            state.faults.loaded = true
        }
    }

    @Test func databaseChanges() {
        assertSnapshot("changes-database") { state in
            state.tab = .changes
            state.changes.mode = .database
        }
    }

    @Test func zonesTab() {
        assertSnapshot("zones") { state in
            state.tab = .zones
            state.zonesTab.list = ListCursor(selected: 1)
            state.zonesTab.typeCounts[ZoneID(zoneName: "Travel")] = ["Trip": 1_000, "Place": 200, "旅行記 ✈️": 33, "Note": 1]
        }
    }

    @Test func schemaTab() {
        assertSnapshot("schema") { state in
            state.tab = .schema
            state.schemaTab.list = ListCursor(selected: 4)
        }
    }
}

extension SnapshotTests {
    @Test func coreDataLensInspector() {
        assertSnapshot("core-data-lens") { state in
            state.coreDataLens = true
            let zone = ZoneID(zoneName: CoreDataLens.zoneName)
            var trip = Record(recordType: "CD_Trip", recordID: RecordID(recordName: "9F1C2A3B-0000-4000-8000-00000000A001", zoneID: zone))
            trip["CD_entityName"] = .string("RoadTrip")
            trip["CD_title"] = .string("京都 紅葉 🍁")
            trip["CD_nights"] = .int64(4)
            trip["CD_notes"] = .string("")
            trip["CD_notes_ckAsset"] = .string("(too long for a field: kept in an asset)")
            trip["CD_owner"] = .string("9F1C2A3B-0000-4000-8000-00000000B002")
            var inspector = InspectorState(record: trip)
            // The relationships as read from the zone: the owner exists, two places link here.
            inspector.graph = CoreDataGraph(recordName: trip.recordName, relationships: [
                .init(name: "owner", kind: .toOne, related: [.init(recordName: "9F1C2A3B-0000-4000-8000-00000000B002", entity: "Owner")], count: 1),
                .init(name: "places", kind: .manyToMany, related: [.init(recordName: "9F1C2A3B-0000-4000-8000-00000000C003", entity: "Place"),
                                                                   .init(recordName: "9F1C2A3B-0000-4000-8000-00000000C004", entity: "Place")], count: 2),
            ])
            state.modals = [.inspector(inspector)]
        }
    }
}
