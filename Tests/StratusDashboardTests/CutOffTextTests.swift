import Testing
import StratusModel
import StratusCloud
import StratusTerminal
@testable import StratusDashboard

/// Text that does not fit on one line is wrapped where it is shown, never cut with no way to
/// read it.
@Suite struct CutOffTextTests {
    private func state(_ size: Size) -> DashboardState {
        var state = DashboardState(storePath: "/tmp/demo.sqlite", zone: ZoneID(zoneName: "Travel"), recordType: "Trip", size: size)
        state.recordTypes = [Fixtures.tripSchema]
        return state
    }

    /// Text with box edges and runs of white space folded to one space: a wrapped line reads
    /// as the line it was.
    private func flat(_ text: String) -> String {
        text.replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private func render(_ state: DashboardState) -> String {
        var canvas = Canvas(width: state.size.width, height: state.size.height)
        DashboardView.render(state, into: &canvas)
        return canvas.text
    }

    @Test func anEditFormErrorWrapsInFull() {
        var state = state(Size(width: 80, height: 24))
        var form = EditFormState(isNew: false, base: Fixtures.trips(1)[0], rows: [])
        form.rows = Fixtures.tripSchema.sortedFields.map { field in
            FormRow(name: field.name, type: field.type, field: TextField(""), readOnly: false,
                    error: field.name == "nights" ? "'x' is not a whole number: type digits, an optional minus sign first, up to 9223372036854775807 (the end)" : nil,
                    original: "")
        }
        form.list = ListCursor(selected: Fixtures.tripSchema.sortedFields.firstIndex { $0.name == "nights" } ?? 0)
        form.error = "serverRecordChanged (14): the record changed on the server since it was read; Esc and open it again, or save with the conflict dialog (its last words)"
        state.modals = [.form(form)]
        let text = flat(render(state))
        #expect(text.contains("9223372036854775807 (the end)"), "\(render(state))")
        #expect(text.contains("(its last words)"), "\(render(state))")
    }

    /// A schema-diff line whose refusal is wider than the screen is shown whole under the list.
    @Test func aSchemaDiffReasonIsReadableInFull() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 80, height: 24))
        let file = harness.directory.appendingPathComponent("production.ckdb").path
        try "DEFINE SCHEMA RECORD TYPE Trip (nights STRING QUERYABLE);".write(toFile: file, atomically: true, encoding: .utf8)
        harness.press(.char("5"), .char("v"), .ctrl("u"))
        harness.type(file)
        harness.press(.enter)
        let lines = SchemaLines.lines(harness.state)
        let refused = try #require(lines.firstIndex { !$0.indexes.isEmpty && DisplayWidth.of(SchemaTabView.diffText($0)) > 78 },
                                   "a refusal too wide for one line: \(lines.map(SchemaTabView.diffText))")
        harness.press(.char("g"))
        for _ in 0..<refused { harness.press(.down) }
        #expect(flat(harness.screen()).contains(flat(SchemaTabView.diffText(lines[refused]))), "\n\(harness.screen())")
    }

    /// A subscription ID wider than its column is shown whole under the list when selected.
    @Test func aLongSubscriptionIDIsReadableInFull() {
        var state = Fixtures.subscriptionsState(size: Size(width: 80, height: 24))
        let id = "com.apple.coredata.cloudkit.private.subscription"
        state.subscriptions.subscriptions.insert(.database(recordType: nil, subscriptionID: id), at: 0)
        state.subscriptions.list = ListCursor(selected: 0, offset: 0)
        #expect(render(state).contains(id), "\n\(render(state))")
    }

    /// Every option's hint in a picker can be read whole: the selected one's, under the list,
    /// when its row cuts it.
    @Test func aPickerOptionsHintIsReadableInFull() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 40, height: 14))
        harness.press(.char("9"), .char("a"))
        guard case .picker(let picker)? = harness.state.topModal else { Issue.record("no picker"); return }
        #expect(picker.items.contains { DisplayWidth.of($0.label) + DisplayWidth.of($0.detail) > 36 }, "a hint too long for its row")
        for (index, item) in picker.items.enumerated() {
            if index > 0 { harness.press(.down) }
            #expect(flat(harness.screen()).contains(flat(item.detail)), "\(item.label): \n\(harness.screen())")
        }
    }
}
