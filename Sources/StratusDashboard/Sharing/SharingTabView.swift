import StratusTerminal

/// The Sharing tab: shares the acting user owns with their participants (permission and
/// status), then the shares they accepted with their owners.
enum SharingTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let table = Rect(x: 1, y: 0, width: canvas.width - 2, height: canvas.height)
        guard state.sharing.loaded else {
            canvas.put("Loading the shares of \(state.actingLabel)…", x: 1, y: 1, style: theme[.dim], maxWidth: table.width)
            return
        }
        let rows = state.sharing.rows
        let columns = [ViewKit.Column(title: "share / participant", width: max(10, table.width))]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: rows.count, cursor: state.sharing.list, theme: theme) { row, _ in
            switch rows[row] {
            case .heading: return (text(rows[row]), theme[.title])
            case .share: return (text(rows[row]), theme[.accent])
            case .participant(_, let participant):
                return (text(rows[row]), participant.status == .removed ? theme[.dim] : nil)
            }
        }
    }

    /// A row as one line of text (also what `/` searches).
    static func text(_ row: SharingTabState.Row) -> String {
        switch row {
        case .heading(let title):
            return title
        case .share(let share, let owned):
            let what = share.rootRecordName.map { "record \($0)" } ?? "whole zone"
            let title = share.title.map { " “\($0)”" } ?? ""
            let who = owned ? "public: \(share.publicPermission)" : "from \(share.ownerAlias)"
            return "\(share.recordID.zoneID.zoneName) · \(what)\(title) · \(who) · \(share.url)"
        case .participant(_, let participant):
            return "    \(participant.alias)  \(participant.permission)  \(participant.status)"
        }
    }
}
