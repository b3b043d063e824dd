import StratusCloud

/// Where to compact the Changes tab's zone: before a token, or keeping the newest changes.
struct CompactionPointPick: PickerPurpose {
    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let value = picker.selectedItem?.value else { return [] }
        let before = value.hasPrefix("token:") ? String(value.dropFirst(6)) : nil
        let keep = value.hasPrefix("keep:") ? Int(value.dropFirst(5)) : nil
        let question = FaultsTab.compactionQuestion(zone: state.zone.zoneName, before: before, keep: keep)
        state.modals.append(.confirm(ConfirmState(
            title: "Compact the history",
            message: "\(question) Deletions before that point are forgotten and older tokens get changeTokenExpired (21): their clients must fetch the zone again from the beginning. This cannot be undone.",
            action: Compaction(zone: state.zone, before: before, keep: keep))))
        return []
    }
}

/// Dropping a zone's history before a token, or all but its newest `keep` changes.
struct Compaction: ConfirmAction {
    var zone: ZoneID
    var before: String?
    var keep: Int?

    func confirmed(in state: inout DashboardState) -> [Effect] {
        [.faults(.compactHistory(job: state.startJob(.compact, "compact \(zone.zoneName)"), zone: zone, scope: state.scope, before: before, keep: keep))]
    }
}
