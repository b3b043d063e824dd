/// The file `X` writes the tab's result to (JSON lines, or CSV for `.csv`).
struct ExportPathEntry: TextInputPurpose {
    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? {
        typing ? nil : ResultExport.pathProblem(text)
    }

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        ExportFeature.startExport(&state, to: text)
    }
}

/// Ctrl-X: delete every record the Query tab's filter matches (`count` of them, when counted).
struct BulkDeletion: ConfirmAction {
    var count: Int

    func confirmed(in state: inout DashboardState) -> [Effect] {
        guard let request = state.query.request else { return [] }
        let job = state.startJob(.bulkDelete, "delete \(count.formatted()) \(request.recordType) records")
        state.query.bulkDeleteTotal = count
        state.query.bulkDeleted = 0
        return [.query(.bulkDelete(job: job, request: request, zone: state.zone, scope: state.scope))]
    }
}
