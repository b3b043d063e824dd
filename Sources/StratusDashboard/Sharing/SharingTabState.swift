import StratusEngine

/// The Sharing tab: the shares the acting user owns, with their participants, and the shares
/// they accepted, as one list.
struct SharingTabState: Sendable {
    var owned: [Share] = []
    var accepted: [Share] = []
    var loaded = false
    var list = ListCursor()

    init() {}

    /// One line of the list.
    enum Row: Sendable {
        case heading(String)
        /// A share; `owned` tells the two sections apart.
        case share(Share, owned: Bool)
        case participant(Share, ShareParticipant)
    }

    /// The list's rows: each owned share followed by its participants, then the accepted ones.
    var rows: [Row] {
        var rows: [Row] = [.heading(owned.isEmpty ? "You own no shares (n shares the zone or a record)" : "Shares you own")]
        for share in owned {
            rows.append(.share(share, owned: true))
            for participant in share.participants where participant.type != .owner { rows.append(.participant(share, participant)) }
        }
        rows.append(.heading(accepted.isEmpty ? "You accepted no shares" : "Shares you accepted"))
        rows += accepted.map { .share($0, owned: false) }
        return rows
    }

    /// The share of the selected row (its own, or the one its participant belongs to).
    var selectedShare: (share: Share, owned: Bool)? {
        let rows = self.rows
        guard rows.indices.contains(list.selected) else { return nil }
        switch rows[list.selected] {
        case .heading: return nil
        case .share(let share, let owned): return (share, owned)
        case .participant(let share, _): return (share, true)
        }
    }
}
