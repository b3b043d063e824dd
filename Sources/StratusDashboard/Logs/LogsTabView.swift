import Foundation
import StratusEngine
import StratusTerminal

/// The Logs tab: each request the server answered (time, status, duration, user, database,
/// endpoint, what it saved or its error), newest last.
enum LogsTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let logs = state.logs
        let table = Rect(x: 1, y: 0, width: canvas.width - 2, height: canvas.height)
        guard !logs.entries.isEmpty else {
            let text = logs.watchError.map { "The request log cannot be read: \($0)" }
                ?? "No requests yet. Serve this store (stratus serve --store \(state.storeName)); requests show here as they come."
            for (index, line) in ViewKit.wrap(text, width: table.width).prefix(3).enumerated() {
                canvas.put(line, x: 1, y: 1 + index, style: theme[.dim], maxWidth: table.width)
            }
            return
        }
        let entries = logs.entries
        let values = entries.map { entry in
            [time(entry.time), "\(entry.status)", String(format: "%.1f", Double(entry.durationMicroseconds) / 1000),
             user(entry.user, users: state.users), entry.database, entry.endpoint, entry.error ?? entry.detail ?? ""]
        }
        var widths = ViewKit.widths(titles: ["time", "status", "ms", "user", "db", "endpoint", "what"], values: values, cap: 20)
        widths[6] = max(6, table.width - widths[0..<6].reduce(0, +) - 6)
        let columns = [ViewKit.Column(title: "time", width: widths[0]), ViewKit.Column(title: "status", width: widths[1], alignment: .right),
                       ViewKit.Column(title: "ms", width: widths[2], alignment: .right), ViewKit.Column(title: "user", width: widths[3]),
                       ViewKit.Column(title: "db", width: widths[4]), ViewKit.Column(title: "endpoint", width: widths[5]),
                       ViewKit.Column(title: "what", width: widths[6])]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: entries.count, cursor: logs.list, theme: theme) { row, column in
            let value = values[row][column]
            switch column {
            case 1: return (value, entries[row].status >= 400 ? theme[.error] : theme[.success])
            case 6: return (value, entries[row].error != nil ? theme[.error] : theme[.dim])
            case 0, 2: return (value, theme[.dim])
            default: return (value, nil)
            }
        }
    }

    /// An entry as one line of text (copied with `y`, searched with `/`).
    static func text(_ entry: RequestLogEntry, users: [StoreUser]) -> String {
        "\(time(entry.time)) \(entry.status) \(user(entry.user, users: users)) \(entry.database) \(entry.endpoint) \(entry.error ?? entry.detail ?? "")"
    }

    private static func time(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds / 1000
        let (hour, minute, second) = ((seconds / 3600) % 24, (seconds / 60) % 60, seconds % 60)
        return String(format: "%02lld:%02lld:%02lld.%03lld", hour, minute, second, milliseconds % 1000)
    }

    private static func user(_ recordName: String?, users: [StoreUser]) -> String {
        guard let recordName else { return "no user" }
        return users.first { $0.recordName == recordName }?.alias ?? recordName
    }
}
