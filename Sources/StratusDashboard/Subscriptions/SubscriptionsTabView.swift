import StratusEngine
import StratusTerminal

/// The Subscriptions tab: the database's subscriptions on top, the live notifications panel
/// below; Tab moves the focus between them.
enum SubscriptionsTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let tab = state.subscriptions
        let size = state.size
        let topHeight = min(canvas.height, Layout.subscriptionsHeight(size))
        let width = canvas.width - 2

        // Subscriptions
        let listFocused = tab.focus == .subscriptions
        var x = 1 + canvas.put("Subscriptions", x: 1, y: 0, style: listFocused ? theme[.title].adding(.bold) : theme[.dim], maxWidth: width)
        let summary = tab.loaded ? " · \(tab.subscriptions.count) in the \(state.scope.name) database" : " · loading…"
        x += canvas.put(summary, x: x, y: 0, style: theme[.dim], maxWidth: width - x)
        var table = Rect(x: 1, y: 1, width: width, height: max(1, topHeight - 1))
        if tab.loaded, tab.subscriptions.isEmpty {
            canvas.put("No subscriptions yet: n makes one.", x: 1, y: 1, style: theme[.dim], maxWidth: width)
        } else {
            let subscriptions = tab.subscriptions
            let values = subscriptions.map { subscription in
                [subscription.subscriptionID, subscription.subscriptionType.name, subscription.recordType ?? "(any)",
                 SubscriptionText.predicate(subscription), SubscriptionText.firesOn(subscription.querySubscriptionOptions),
                 SubscriptionText.zone(subscription)]
            }
            let titles = ["ID", "kind", "type", "predicate", "fires on", "zone"]
            var widths = ViewKit.widths(titles: titles, values: values, cap: 18)
            widths[0] = min(widths[0], max(8, width / 5))
            widths[3] = max(9, width - widths[0] - widths[1] - widths[2] - widths[4] - widths[5] - 5)
            let columns = titles.indices.map { ViewKit.Column(title: titles[$0], width: widths[$0]) }
            // The selected subscription's ID and predicate in full under the list when its
            // row cuts them.
            if values.indices.contains(tab.list.selected), table.height > 4 {
                let row = values[tab.list.selected]
                if DisplayWidth.of(row[0]) > widths[0] || DisplayWidth.of(row[3]) > widths[3] {
                    let detail = Array(ViewKit.wrap("\(row[0]) · \(row[2]) · \(row[3])", width: width).prefix(2))
                    table.height -= detail.count
                    for (index, line) in detail.enumerated() {
                        canvas.put(line, x: 1, y: table.maxY + index, style: theme[.dim], maxWidth: width)
                    }
                }
            }
            ViewKit.table(&canvas, rect: table, columns: columns, rowCount: subscriptions.count, cursor: tab.list, theme: theme,
                          focused: listFocused) { row, column in
                let value = values[row][column]
                switch column {
                case 0: return (value, theme[.accent])
                case 3: return (value, theme[.fieldType])
                case 1, 5: return (value, theme[.dim])
                default: return (value, nil)
                }
            }
        }

        // Notifications
        let panelY = topHeight
        guard panelY < canvas.height - 1 else { return }
        canvas.divider(across: canvas.bounds, y: panelY, style: theme[.border])
        let panelFocused = tab.focus == .notifications
        var title = " Notifications "
        if tab.watchError != nil {
            title += "· stopped "
        } else if tab.watchJob != nil {
            title += "· live "
        }
        x = 1 + canvas.put(title, x: 1, y: panelY, style: panelFocused ? theme[.title].adding(.bold) : theme[.dim], maxWidth: width)
        let count = tab.notificationCount == tab.notifications.count ? "\(tab.notifications.count)" : "\(tab.notifications.count) of \(tab.notificationCount)"
        canvas.put("· \(count) · from other devices ", x: x, y: panelY, style: theme[.dim], maxWidth: width - x)
        let panel = Rect(x: 1, y: panelY + 1, width: width, height: canvas.height - panelY - 1)
        if let error = tab.watchError {
            canvas.put("✗ " + error, x: 1, y: panel.y, style: theme[.error], maxWidth: width)
            return
        }
        guard !tab.notifications.isEmpty else {
            let text = tab.watchJob == nil ? "Open this tab to watch for notifications."
                : "Waiting: notifications appear here as another process changes matching records."
            canvas.put(text, x: 1, y: panel.y, style: theme[.dim], maxWidth: width)
            return
        }
        let notifications = tab.notifications
        let titles = ["time", "reason", "type", "record", "subscription", "fields"]
        let visible = notifications[tab.notificationList.offset..<min(notifications.count, tab.notificationList.offset + panel.height)]
        let sample = visible.map { notification in
            [SubscriptionText.time(notification.date), SubscriptionText.reason(notification), notification.recordType ?? "",
             notification.recordID?.recordName ?? notification.recordZoneID?.zoneName ?? "", notification.subscriptionID, ""]
        }
        var widths = ViewKit.widths(titles: titles, values: sample, cap: 20)
        widths[4] = min(widths[4], 14)
        widths[5] = max(6, width - widths[0] - widths[1] - widths[2] - widths[3] - widths[4] - 5)
        let columns = titles.indices.map { ViewKit.Column(title: titles[$0], width: widths[$0]) }
        ViewKit.table(&canvas, rect: panel, columns: columns, rowCount: notifications.count, cursor: tab.notificationList, theme: theme,
                      focused: panelFocused) { row, column in
            let notification = notifications[row]
            switch column {
            case 0: return (SubscriptionText.time(notification.date), theme[.dim])
            case 1:
                let style: Style
                switch notification.queryNotificationReason {
                case .recordCreated?: style = theme[.success]
                case .recordDeleted?: style = theme[.error]
                default: style = theme[.accent]
                }
                return (SubscriptionText.reason(notification), style)
            case 2: return (notification.recordType ?? "", nil)
            case 3: return (notification.recordID?.recordName ?? notification.recordZoneID?.zoneName ?? "", theme[.title])
            case 4: return (notification.subscriptionID, theme[.dim])
            default: return (SubscriptionText.fields(notification), theme[.fieldType])
            }
        }
    }
}

/// The dialog that makes a subscription: a row per setting, Enter changes one (a picker, the
/// filter editor, a toggle or a text), Ctrl-S saves.
enum SubscriptionDraftView {
    static func draw(_ draft: SubscriptionDraft, state: DashboardState, in canvas: inout Canvas, focused: Bool) {
        let theme = state.theme
        canvas.fill(canvas.bounds, style: theme[.text])
        let inner = canvas.box(canvas.bounds, title: "New subscription (\(state.scope.name) database)", style: theme[.border],
                               titleStyle: theme[.title])
        guard inner.height >= 4 else { return }
        let x = inner.x + 1
        let width = inner.width - 2
        let rows = draft.rows
        let labelWidth = 16
        let listHeight = min(Layout.formRows(state.size), inner.height - 3)
        for line in 0..<max(0, listHeight) {
            let index = draft.list.offset + line
            guard index < rows.count else { break }
            let row = rows[index]
            let y = inner.y + line
            let selected = index == draft.list.selected
            canvas.put((selected ? "▸" : " ") + DisplayWidth.fit(row.label, to: labelWidth - 1), x: x, y: y, style: theme[.title])
            let value = draft.value(row)
            let style = row == .predicate ? theme[.fieldType] : theme[.input]
            canvas.put(value, x: x + labelWidth + 1, y: y, style: selected && focused ? style.adding(.bold).adding(.underline) : style,
                       maxWidth: max(1, width - labelWidth - 1))
        }
        let footY = inner.maxY - 3
        canvas.divider(across: canvas.bounds, y: footY, style: theme[.border])
        let selectedRow = rows.indices.contains(draft.list.selected) ? rows[draft.list.selected] : .kind
        canvas.put(hint(selectedRow), x: x, y: footY + 1, style: theme[.dim], maxWidth: width)
        if let error = draft.error {
            canvas.put("✗ " + error, x: x, y: footY + 2, style: theme[.error], maxWidth: width)
        } else if draft.savingJob != nil {
            canvas.put("Saving…", x: x, y: footY + 2, style: theme[.accent], maxWidth: width)
        } else {
            canvas.put("Enter changes the row · Ctrl-S saves · Esc cancels", x: x, y: footY + 2, style: theme[.dim], maxWidth: width)
        }
    }

    static func hint(_ row: SubscriptionDraft.Row) -> String {
        switch row {
        case .kind: return "query (public, private), zone or database (private, shared), as CloudKit allows."
        case .recordType: return "The records it watches."
        case .predicate: return "Enter opens the filter editor; CloudKit's query rules apply."
        case .firesOn: return "create, update, delete: at least one."
        case .once: return "Enter toggles: the subscription is removed after it fires once."
        case .desiredKeys: return "Field values the notification carries, at most 3."
        case .zone: return "A zone subscription needs a custom zone; a query one can watch every zone."
        case .subscriptionID: return "Empty makes a UUID."
        }
    }
}
