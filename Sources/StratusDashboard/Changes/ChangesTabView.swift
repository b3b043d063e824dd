import Foundation
import StratusEngine
import StratusTerminal

/// The Changes tab: a zone's change playback (settings, progress, token, events), or the
/// zones changed since a database token.
enum ChangesTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        if state.changes.mode == .database {
            drawDatabase(state, in: &canvas)
            return
        }
        let theme = state.theme
        let changes = state.changes
        let width = canvas.width
        var x = 1
        x += ViewKit.labeled(&canvas, x: x, y: 0, label: "Zone", value: state.zone.zoneName, key: "z", theme: theme, maxWidth: width - x) + 2
        let since = changes.since.isEmpty ? "the beginning" : Dashboard.abbreviated(changes.since)
        x += ViewKit.labeled(&canvas, x: x, y: 0, label: "Since", value: since, key: "i", theme: theme, maxWidth: width - x) + 2
        x += ViewKit.labeled(&canvas, x: x, y: 0, label: "Keys", value: changes.keys.label, key: "c", theme: theme, maxWidth: width - x) + 2
        x += ViewKit.labeled(&canvas, x: x, y: 0, label: "Page", value: "\(changes.pageSize)", key: "p", theme: theme, maxWidth: width - x) + 2
        // Shown only when not the default, so the common header stays as it was.
        if changes.order != .sequence {
            ViewKit.labeled(&canvas, x: x, y: 0, label: "Order", value: orderLabel(changes.order), key: "o", theme: theme, maxWidth: width - x)
        }

        x = 1 + canvas.put(progressText(changes, zone: state.zone.zoneName), x: 1, y: 1, style: changes.job != nil ? theme[.accent] : theme[.text], maxWidth: width - 2)
        // Where the history starts, once compacted: older tokens expire.
        if let oldest = changes.oldestValidToken, oldest.zone == state.zone, oldest.compacted, x < width - 12 {
            x += canvas.put(" · history from \(Dashboard.abbreviated(oldest.token)) (K compacts)", x: x, y: 1, style: theme[.warning], maxWidth: width - 1 - x)
        }
        // How the zone's changes spread over time, where there is room.
        if let activity = changes.activity, activity.zone == state.zone, width - x > 24 {
            let line = Sparkline.line(activity.counts.map(Double.init), width: min(activityBuckets, width - x - 13))
            if !line.isEmpty {
                x += canvas.put(" · activity ", x: x, y: 1, style: theme[.dim], maxWidth: width - 1 - x)
                x += canvas.put(line, x: x, y: 1, style: theme[.accent], maxWidth: width - 1 - x)
            }
        }
        if let token = changes.token {
            x = 1 + canvas.put("Token ", x: 1, y: 2, style: theme[.dim])
            let suffix = "  y copy · m bookmark"
            let room = width - x - DisplayWidth.of(suffix) - 1
            x += canvas.put(DisplayWidth.truncate(token, to: room), x: x, y: 2, style: theme[.success])
            canvas.put(suffix, x: x, y: 2, style: theme[.dim], maxWidth: width - x)
        } else {
            canvas.put("r plays back from the start token; t takes the current token without playback.", x: 1, y: 2, style: theme[.dim], maxWidth: width - 2)
        }
        let table = Rect(x: 1, y: 3, width: width - 2, height: canvas.height - 3)
        guard !changes.events.isEmpty else { return }
        let titles = ["change", "type", "record name", "changed fields"]
        let events = changes.events
        let visible = events[changes.list.offset..<min(events.count, changes.list.offset + table.height)]
        let values = visible.map { [$0.kind.rawValue, $0.recordType, $0.recordName, fieldsText($0)] }
        var widths = ViewKit.widths(titles: titles, values: values, cap: 24)
        widths[3] = max(6, table.width - widths[0] - widths[1] - widths[2] - 3)
        let columns = zip(titles, widths).map { ViewKit.Column(title: $0, width: $1) }
        let offset = changes.list.offset
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: events.count, cursor: changes.list, theme: theme) { row, column in
            let value = values[row - offset][column]
            if column == 0 { return (value, events[row].kind == .deleted ? theme[.error] : theme[.success]) }
            return (value, column == 3 ? theme[.dim] : nil)
        }
    }

    /// Time slices of the activity sparkline (the zone's first change to its last).
    static let activityBuckets = 24

    static func orderLabel(_ order: PlaybackOrder) -> String {
        switch order {
        case .sequence: return "as logged"
        case .parentsFirst: return "parents first"
        case .childrenFirst: return "children first"
        case .shuffled: return "shuffled"
        }
    }

    static func fieldsText(_ event: ChangeEvent) -> String {
        if event.kind == .deleted { return "" }
        if event.fields.isEmpty { return "(metadata only)" }
        return event.fields.joined(separator: ", ")
    }

    static func progressText(_ changes: ChangesTabState, zone: String) -> String {
        let rate = changes.rate > 0 ? String(format: " · %@/s", ViewKit.count(Int(changes.rate))) : ""
        let kept = changes.eventCount > changes.events.count ? " (first \(ViewKit.count(changes.events.count)) listed)" : ""
        if changes.job != nil {
            return "Playing back \(zone): \(ViewKit.count(changes.eventCount)) events, \(changes.pages) pages\(rate)\(kept)"
        }
        if changes.cancelled {
            return "Cancelled after \(ViewKit.count(changes.eventCount)) events\(kept); the token is where it stopped."
        }
        if changes.finished {
            if changes.pages == 0 { return "The current token (no playback)." }
            return String(format: "Done: %@ in %@, %.2f s%@%@", ViewKit.count(changes.eventCount, "event"), ViewKit.count(changes.pages, "page"),
                          changes.elapsed, rate, kept)
        }
        return ""
    }

    static func drawDatabase(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let changes = state.changes
        let width = canvas.width
        var x = 1
        x += ViewKit.labeled(&canvas, x: x, y: 0, label: "Database changes of", value: state.scope.name, key: "D", theme: theme, maxWidth: width - x) + 2
        let since = changes.databaseSince.isEmpty ? "ever" : Dashboard.abbreviated(changes.databaseSince)
        ViewKit.labeled(&canvas, x: x, y: 0, label: "Since", value: since, key: "i", theme: theme, maxWidth: width - x)
        canvas.put("Zones changed, deleted or purged since the database token. v: back to zone changes.", x: 1, y: 1, style: theme[.dim], maxWidth: width - 2)
        if let token = changes.databaseToken {
            x = 1 + canvas.put("Token ", x: 1, y: 2, style: theme[.dim])
            canvas.put(token, x: x, y: 2, style: theme[.success], maxWidth: width - x - 1)
        }
        let table = Rect(x: 1, y: 3, width: width - 2, height: canvas.height - 3)
        guard !changes.databaseEvents.isEmpty else { return }
        let events = changes.databaseEvents
        let columns = [ViewKit.Column(title: "change", width: 8), ViewKit.Column(title: "zone", width: 24), ViewKit.Column(title: "owner", width: 30)]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: events.count, cursor: changes.databaseList, theme: theme) { row, column in
            let event = events[row]
            switch column {
            case 0: return (event.kind, event.kind == "changed" ? theme[.success] : theme[.error])
            case 1: return (event.zone.zoneName, nil)
            default: return (event.zone.ownerName, theme[.dim])
            }
        }
    }
}
