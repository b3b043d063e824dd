import StratusEngine
import StratusTerminal

/// Draws the whole dashboard: breadcrumb, tabs, the current tab, dialogs on top, the hint bar
/// and the status line.
enum DashboardView {
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// The smallest screen the dashboard draws on.
    static let minimumSize = Size(width: 20, height: 8)

    /// Says, wrapped to whatever room there is, that the window must grow; nothing else is drawn
    /// and keys keep working, so `q` still quits.
    static func drawTooSmall(_ size: Size, _ canvas: inout Canvas, style: Style) {
        let message = "Stratus needs \(minimumSize.width)x\(minimumSize.height); window is \(size.width)x\(size.height). Enlarge it or press q."
        var lines: [String] = []
        var line = ""
        for word in message.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if DisplayWidth.of(candidate) <= size.width || line.isEmpty {
                line = candidate
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        for (row, text) in lines.prefix(size.height).enumerated() {
            canvas.put(text, x: 0, y: row, style: style, maxWidth: size.width)
        }
    }

    static func render(_ state: DashboardState, into canvas: inout Canvas) {
        let size = Size(width: canvas.width, height: canvas.height)
        let theme = state.theme
        canvas.fill(canvas.bounds, style: theme[.text])
        guard size.width >= 20, size.height >= 8 else {
            drawTooSmall(size, &canvas, style: theme[.warning])
            return
        }
        drawBreadcrumb(state, &canvas, width: size.width)
        drawTabs(state, &canvas, width: size.width)
        let body = Layout.body(size)
        canvas.region(body) { area in
            if let line = state.localOnlyLine {
                // A tab only a local store has, on a remote: one line says so and why.
                for (row, text) in ViewKit.wrap(line, width: max(1, area.width - 2)).prefix(area.height).enumerated() {
                    area.put(text, x: 1, y: 1 + row, style: theme[.dim])
                }
                return
            }
            switch state.tab {
            case .query: QueryTabView.draw(state, in: &area)
            case .fetch: FetchTabView.draw(state, in: &area)
            case .changes: ChangesTabView.draw(state, in: &area)
            case .zones: ZonesTabView.draw(state, in: &area)
            case .schema: SchemaTabView.draw(state, in: &area)
            case .subscriptions: SubscriptionsTabView.draw(state, in: &area)
            case .sharing: SharingTabView.draw(state, in: &area)
            case .logs: LogsTabView.draw(state, in: &area)
            case .faults: FaultsTabView.draw(state, in: &area)
            }
        }
        for (index, modal) in state.modals.enumerated() {
            let isTop = index == state.modals.count - 1
            canvas.region(body) { area in
                if !isTop { area.hideCursor() }
                drawModal(modal, state: state, in: &area, isTop: isTop)
            }
        }
        drawHints(state, &canvas, y: size.height - 2, width: size.width)
        drawStatus(state, &canvas, y: size.height - 1, width: size.width)
    }

    static func drawModal(_ modal: Modal, state: DashboardState, in canvas: inout Canvas, isTop: Bool) {
        switch modal {
        case .help(let help): HelpOverlayView.draw(help, state: state, in: &canvas)
        case .commandLine: break
        case .picker(let picker): PickerDialogView.draw(picker, state: state, in: &canvas)
        case .textInput(let input): TextInputDialogView.draw(input, state: state, in: &canvas, focused: isTop)
        case .inspector(let inspector): InspectorView.draw(inspector, state: state, in: &canvas)
        case .filterEditor(let editor): FilterEditorView.draw(editor, state: state, in: &canvas, focused: isTop)
        case .form(let form): EditFormView.draw(form, state: state, in: &canvas, focused: isTop)
        case .confirm(let confirm): ConfirmDialogView.draw(confirm, state: state, in: &canvas)
        case .conflict(let conflict): ConflictDialogView.draw(conflict, state: state, in: &canvas)
        case .subscriptionDraft(let draft): SubscriptionDraftView.draw(draft, state: state, in: &canvas, focused: isTop)
        case .histogram(let histogram): HistogramView.draw(histogram, state: state, in: &canvas)
        case .requestBodies(let bodies): RequestBodiesView.draw(bodies, state: state, in: &canvas)
        }
    }

    static func drawBreadcrumb(_ state: DashboardState, _ canvas: inout Canvas, width: Int) {
        let theme = state.theme
        // Acting as someone other than the store's owner (Act As) is said right after the store.
        var parts = [state.remote?.label ?? state.storeName] + (state.actsAsOther ? ["as " + state.actingLabel] : []) + [state.scope.name, state.zone.zoneName]
        if state.tab == .query, let type = state.query.recordType { parts.append(type) }
        let warning = faultWarning(state, width: width)
        let right = state.environment.rawValue + (state.storeIsReadOnly ? " · read-only" : "")
        let rightWidth = DisplayWidth.of(right) + 1 + (warning.isEmpty ? 0 : DisplayWidth.of(warning) + 2)
        let available = width - rightWidth - 1
        var x = canvas.put(" Stratus", x: 0, y: 0, style: theme[.accent].adding(.bold), maxWidth: available)
        for part in parts {
            let room = available - x - 3
            guard room >= 2 else { break }
            x += canvas.put(" ▸ ", x: x, y: 0, style: theme[.dim])
            x += canvas.put(DisplayWidth.truncate(part, to: room), x: x, y: 0, style: theme[.breadcrumb])
        }
        if !warning.isEmpty { canvas.put(warning, x: width - rightWidth, y: 0, style: theme[.warning]) }
        canvas.put(right, x: width - DisplayWidth.of(right) - 1, y: 0, style: state.environment == .production ? theme[.warning] : theme[.dim])
    }

    /// The header's word on the fault plan: how many faults can still fire, and whether this
    /// dashboard's own reads meet any (else whom they are for); shorter on a narrow screen.
    static func faultWarning(_ state: DashboardState, width: Int) -> String {
        let armed = state.faults.armed
        guard !armed.isEmpty else { return "" }
        let count = "⚠ \(armed.count) fault\(armed.count == 1 ? "" : "s")"
        let mine = armed.filter { $0.clients.contains(.dashboard) }.count
        let others = Set(armed.flatMap(\.clients)).sorted().map(\.rawValue).joined(separator: ", ")
        let long = mine == 0 ? "\(count) armed for \(others)"
            : mine == armed.count ? "\(count) armed for this dashboard" : "\(count) armed, \(mine) for this dashboard"
        if DisplayWidth.of(long) <= width / 2 { return long }
        return mine > 0 ? count + " (here)" : count
    }

    /// Where each tab's label stands on the tab bar (row 1): full titles when they fit, then
    /// short ones, then short ones without their padding (every name at 80 columns), five
    /// letters each, three (the current tab's whole); narrower still, the current tab's title
    /// and the others' numbers. The mouse finds tabs by it too.
    static func tabLayout(_ state: DashboardState, width: Int) -> [(tab: DashboardTab, label: String, x: Range<Int>)] {
        let current = state.tab
        typealias Form = (title: (DashboardTab) -> String, padded: Bool)
        let forms: [Form] = [({ $0.title }, true), ({ $0.shortTitle }, true), ({ $0.shortTitle }, false),
                             ({ String($0.shortTitle.prefix(5)) }, false), ({ $0 == current ? $0.shortTitle : String($0.title.prefix(3)) }, false),
                             ({ $0 == current ? $0.title : "" }, true), ({ $0 == current ? $0.title : "" }, false)]
        func label(_ tab: DashboardTab, _ form: Form) -> String {
            let title = form.title(tab)
            let text = title.isEmpty ? "\(tab.rawValue)" : "\(tab.rawValue) \(title)"
            return form.padded ? " \(text) " : text
        }
        let titles = forms.first { form in DashboardTab.allCases.reduce(1) { $0 + DisplayWidth.of(label($1, form)) + 1 } <= width } ?? forms[forms.count - 1]
        var x = 1
        return DashboardTab.allCases.map { tab in
            let text = label(tab, titles)
            let start = x
            x += DisplayWidth.of(text) + 1
            return (tab, text, start..<(start + DisplayWidth.of(text)))
        }
    }

    static func drawTabs(_ state: DashboardState, _ canvas: inout Canvas, width: Int) {
        let theme = state.theme
        canvas.horizontalLine(x: 0, y: 1, length: width, style: theme[.border])
        for item in tabLayout(state, width: width) where item.x.lowerBound < width {
            let style = item.tab == state.tab ? theme[.tabActive] : theme[.tabInactive]
            canvas.put(item.label, x: item.x.lowerBound, y: 1, style: style, maxWidth: width - item.x.lowerBound)
        }
    }

    /// The hint bar's items: each binding's key and words and where they stand, `? help` and
    /// `q quit` at the right end. The mouse presses a hint's key by it.
    static func hintLayout(_ state: DashboardState, width: Int) -> [(binding: KeyBinding, text: String, x: Range<Int>)] {
        let hints = KeyMap.hints(in: Dashboard.contexts(state))
        let help = hints.first { $0.action == .help }
        let quit = hints.first { $0.action == .quit }
        let tail = (help != nil ? "? help" : "") + (quit != nil ? "  q quit" : "")
        let limit = width - DisplayWidth.of(tail) - 2
        var items: [(binding: KeyBinding, text: String, x: Range<Int>)] = []
        var x = 1
        var shown = Set<String>()
        for binding in hints where binding.action != .help && binding.action != .quit {
            let text = binding.hintText
            guard !shown.contains(text) else { continue }
            shown.insert(text)
            let itemWidth = DisplayWidth.of(binding.label) + 1 + DisplayWidth.of(text)
            if x + itemWidth > limit { break }
            items.append((binding, text, x..<(x + itemWidth)))
            x += itemWidth + 2
        }
        var tailX = max(x, width - DisplayWidth.of(tail) - 1)
        if let help {
            items.append((help, "help", tailX..<(tailX + 6)))
            tailX += 6
        }
        if let quit {
            tailX += 2
            items.append((quit, "quit", tailX..<(tailX + 6)))
        }
        return items
    }

    static func drawHints(_ state: DashboardState, _ canvas: inout Canvas, y: Int, width: Int) {
        let theme = state.theme
        if case .commandLine(let line)? = state.topModal {
            let text = line.completions.isEmpty ? "Tab completes · Enter runs · Esc cancels"
                : line.completions.prefix(12).joined(separator: "  ")
            canvas.put(" " + text, x: 0, y: y, style: theme[.hint], maxWidth: width)
            return
        }
        for item in hintLayout(state, width: width) where item.x.lowerBound < width {
            let x = item.x.lowerBound
            let isTail = item.binding.action == .help || item.binding.action == .quit
            if item.binding.action == .quit, x >= 2 { canvas.put("  ", x: x - 2, y: y, style: theme[.hint]) }
            let keyWidth = canvas.put(item.binding.label, x: x, y: y, style: theme[.hintKey], maxWidth: width - x)
            canvas.put(" " + item.text + (isTail ? "" : "  "), x: x + keyWidth, y: y, style: theme[.hint], maxWidth: width - x - keyWidth)
        }
    }

    static func drawStatus(_ state: DashboardState, _ canvas: inout Canvas, y: Int, width: Int) {
        let theme = state.theme
        if case .commandLine(let line)? = state.topModal {
            canvas.fill(Rect(x: 0, y: y, width: width, height: 1), style: theme[.input])
            canvas.put(":", x: 0, y: y, style: theme[.input].adding(.bold))
            TextFieldView.draw(line.field, in: &canvas, x: 1, y: y, width: width - 1, style: theme[.input], focused: true)
            return
        }
        var style = theme[.status]
        var text = ""
        if let status = state.status {
            text = status.text
            if status.kind == .error { style = theme[.statusError] }
        }
        if let seconds = state.throttleSecondsLeft {
            text = "throttled by the server — retrying in \(seconds) s, Esc cancels"
            style = theme[.statusError]
        } else if let job = state.jobs.last {
            let spin = spinner[state.spinnerFrame % spinner.count]
            let busy = "\(spin) \(job.label)… (Esc cancels)"
            text = text.isEmpty ? busy : busy + " · " + text
        }
        canvas.fill(Rect(x: 0, y: y, width: width, height: 1), style: style)
        canvas.put(" " + text, x: 0, y: y, style: style, maxWidth: width)
    }
}
