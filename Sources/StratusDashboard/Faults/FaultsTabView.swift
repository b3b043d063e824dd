import Foundation
import StratusEngine
import StratusTerminal

/// The Faults tab: the fault plan (number, armed or spent, fired of seen, kind, where, trigger,
/// retry-after) on top, the newest firings below with the error each call got.
enum FaultsTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let plan = state.faults
        let width = canvas.width - 2
        let topHeight = Layout.faultsHeight(state.size)
        let armed = plan.faults.filter { !$0.isSpent }.count
        var x = 1 + canvas.put("Fault plan", x: 1, y: 0, style: theme[.title].adding(.bold), maxWidth: width)
        let summary = plan.faults.isEmpty ? " · every call behaves" : " · \(armed) armed, \(plan.faults.count - armed) spent · shared by every process on this store"
        x += canvas.put(summary, x: x, y: 0, style: theme[.dim], maxWidth: width - x)
        let table = Rect(x: 1, y: 1, width: width, height: max(1, topHeight - 1))
        if let error = plan.watchError {
            canvas.put("✗ The fault plan cannot be read: " + error, x: 1, y: 1, style: theme[.error], maxWidth: width)
        } else if plan.faults.isEmpty {
            let text = plan.loaded
                ? "No faults: a adds one (throttling, a busy zone, another device's conflicting save, a partial failure, an expired token ...). The command line, this dashboard and stratus serve all meet the plan."
                : "Reading the fault plan…"
            for (index, line) in ViewKit.wrap(text, width: width).prefix(max(1, table.height)).enumerated() {
                canvas.put(line, x: 1, y: 1 + index, style: theme[.dim], maxWidth: width)
            }
        } else {
            let values = plan.faults.map { fault in
                ["#\(fault.id)", fault.isSpent ? "spent" : "armed", "\(fault.fired)/\(fault.seen)", fault.kind.name, place(fault),
                 fault.trigger.description, fault.retryAfter.map(FaultKind.seconds) ?? ""]
            }
            let titles = ["#", "state", "fired", "kind", "where", "trigger", "retry"]
            var widths = ViewKit.widths(titles: titles, values: values, cap: 24)
            let fixed = widths.indices.filter { $0 != 4 }.map { widths[$0] }.reduce(0, +) + titles.count - 1
            widths[4] = max(5, width - fixed)
            let columns = titles.indices.map { ViewKit.Column(title: titles[$0], width: widths[$0], alignment: $0 == 2 ? .right : .left) }
            ViewKit.table(&canvas, rect: table, columns: columns, rowCount: values.count, cursor: plan.list, theme: theme) { row, column in
                let fault = plan.faults[row]
                switch column {
                case 1: return (values[row][column], fault.isSpent ? theme[.dim] : theme[.warning])
                case 2: return (values[row][column], fault.fired > 0 ? theme[.error] : theme[.dim])
                case 0, 6: return (values[row][column], theme[.dim])
                default: return (values[row][column], nil)
                }
            }
        }
        drawFirings(state, in: &canvas, top: topHeight)
    }

    private static func drawFirings(_ state: DashboardState, in canvas: inout Canvas, top: Int) {
        let theme = state.theme
        let width = canvas.width - 2
        let events = state.faults.events
        var x = 1 + canvas.put(" Firings ", x: 1, y: top, style: theme[.title].adding(.bold), maxWidth: width)
        canvas.put(state.faults.watchJob == nil ? "· stopped (r follows again)" : "· live · newest last", x: x, y: top, style: theme[.dim], maxWidth: width - x)
        let rows = max(0, canvas.height - top - 1)
        guard !events.isEmpty else {
            canvas.put("None yet: a call that meets a fault shows here with the error it got.", x: 1, y: top + 1, style: theme[.dim], maxWidth: width)
            return
        }
        for (index, event) in events.suffix(rows).enumerated() {
            let y = top + 1 + index
            x = 2 + canvas.put(time(event.time), x: 1, y: y, style: theme[.dim], maxWidth: width)
            x += 1 + canvas.put("#\(event.faultID)", x: x, y: y, style: theme[.dim], maxWidth: width - x)
            x += 1 + canvas.put(event.operation.name, x: x, y: y, style: theme[.text], maxWidth: width - x)
            x += 1 + canvas.put(event.database + (event.zoneName.map { "/" + $0 } ?? ""), x: x, y: y, style: theme[.dim], maxWidth: width - x)
            canvas.put(event.message, x: x, y: y, style: theme[.error], maxWidth: max(0, width + 1 - x))
        }
    }

    /// Where a fault applies: operation, database, zone, records, token, limit.
    static func place(_ fault: Fault) -> String {
        var parts: [String] = []
        if let operation = fault.operation {
            parts.append(operation.name)
        } else if fault.kind.operations != FaultOperation.allCases {
            parts.append(fault.kind.operations.map(\.name).joined(separator: "/"))
        } else {
            parts.append("any call")
        }
        if let scope = fault.scope { parts.append(scope.name) }
        if let zone = fault.zoneName { parts.append("zone " + zone) }
        if !fault.recordNames.isEmpty { parts.append(fault.recordNames.joined(separator: ",")) }
        if let token = fault.token { parts.append("token " + token.prefix(10) + "…") }
        if fault.kind == .limitExceeded, let limit = fault.itemLimit { parts.append("over \(limit)") }
        return parts.joined(separator: " · ")
    }

    /// One line on what a kind does, for the picker.
    static func kindSummary(_ kind: FaultKind) -> String {
        switch kind {
        case .requestRateLimited: return "429 THROTTLED, retry after"
        case .zoneBusy: return "503 TRY_AGAIN_LATER, retry after"
        case .serviceUnavailable: return "503 TRY_AGAIN_LATER"
        case .serverRecordChanged: return "another device saves first: CONFLICT"
        case .partialFailure: return "chosen records fail, the rest are saved"
        case .limitExceeded: return "batches over a lower limit refused"
        case .changeTokenExpired: return "a token expires: fetch from the start"
        case .notAuthenticated: return "421 AUTHENTICATION_REQUIRED"
        }
    }

    /// The options dialog's hint: the options that fit the kind.
    static func optionsHint(_ kind: FaultKind) -> String {
        var options = "--zone Z  --operation \(kind.operations.map(\.name).joined(separator: "|"))  --db D"
        switch kind {
        case .serverRecordChanged: options += "  --record NAME  --set FIELD=VALUE"
        case .partialFailure: options += "  --record NAME,NAME  --retry-after S"
        case .limitExceeded: options += "  --limit N"
        case .changeTokenExpired: options += "  --token TOKEN"
        case .notAuthenticated: break
        default: options += "  --retry-after S"
        }
        return options + "  --after N | --every N | --probability P --seed S"
    }

    private static func time(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds / 1000
        return String(format: "%02lld:%02lld:%02lld", (seconds / 3600) % 24, (seconds / 60) % 60, seconds % 60)
    }
}
