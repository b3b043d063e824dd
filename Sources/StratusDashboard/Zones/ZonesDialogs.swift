import StratusCloud

/// The name of a custom zone to make in the current database.
struct NewZoneEntry: TextInputPurpose {
    /// What the engine would refuse in the name, or that the zone is already there.
    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? {
        guard !typing || !text.isEmpty else { return nil }
        if let problem = ZoneID.nameProblem(text) { return problem }
        if state.zones.contains(where: { $0.zoneID.zoneName == text }) {
            return "Zone \(text) already exists in the \(state.scope.name) database."
        }
        return nil
    }

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        let job = state.startJob(.saveZone, "make zone \(text)")
        return [.zones(.create(job: job, zone: ZoneID(zoneName: text), scope: state.scope))]
    }
}

/// Deleting a custom zone (the dialog says how many records it holds).
struct ZoneDeletion: ConfirmAction {
    var zoneID: ZoneID

    func confirmed(in state: inout DashboardState) -> [Effect] {
        let job = state.startJob(.deleteZone, "delete zone \(zoneID.zoneName)")
        return [.zones(.delete(job: job, zone: zoneID, scope: state.scope))]
    }
}
