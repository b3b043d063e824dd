import Foundation
import StratusCloud

/// `X` in the Query, Fetch and Changes tabs: the current result to a file, as JSON lines in
/// the CloudKit Web Services shape (what `stratus save` reads back) or CSV, in the background
/// with progress; Esc cancels and leaves nothing behind.
enum ExportFeature {
    static func askExportPath(_ state: inout DashboardState) -> [Effect] {
        let what: String
        switch state.tab {
        case .query:
            guard let type = state.query.recordType, state.query.hasRun else {
                state.status = StatusMessage("Run a query first (r); X then exports its whole result.", kind: .error)
                return []
            }
            what = type
        case .fetch:
            guard state.fetch.rows.contains(where: { $0.record != nil }) else {
                state.status = StatusMessage("Fetch records first (i); X then exports them.", kind: .error)
                return []
            }
            what = "fetched"
        case .changes:
            guard state.changes.mode == .zone, state.zone.zoneName != ZoneID.defaultZoneName else {
                state.status = StatusMessage("Pick a custom zone's playback to export (z).", kind: .error)
                return []
            }
            what = "\(state.zone.zoneName)-changes"
        default:
            return []
        }
        let file = "stratus-" + what.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.map(String.init).joined() + ".jsonl"
        let folder = FileManager.default.currentDirectoryPath
        state.modals.append(.textInput(TextInputState(purpose: ExportPathEntry(), title: "Export to (.jsonl: JSON lines, .csv: CSV)",
                                                      hint: "Enter writes the file · Esc cancels", text: (folder as NSString).appendingPathComponent(file))))
        return []
    }

    static func startExport(_ state: inout DashboardState, to path: String) -> [Effect] {
        let export: ResultExport
        switch state.tab {
        case .query:
            guard let request = state.query.request else { return [] }
            export = .query(request, zone: state.zone, scope: state.scope)
        case .fetch:
            export = .fetch(state.fetch.rows.compactMap(\.record))
        case .changes:
            let since = state.changes.since.trimmingCharacters(in: .whitespacesAndNewlines)
            export = .changes(zone: state.zone, scope: state.scope, since: since.isEmpty ? nil : since, desiredKeys: state.changes.keys.desiredKeys)
        default:
            return []
        }
        let name = (path as NSString).lastPathComponent
        let job = state.startJob(.export, "export to \(name)")
        state.status = StatusMessage("Exporting to \(name)… (Esc cancels)")
        return [.export(.write(job: job, export, path: path))]
    }

    static func receive(_ state: inout DashboardState, _ message: ExportMessage) -> [Effect] {
        switch message {
        case .progress(let job, let written, let total): return exportProgressed(&state, job: job, written: written, total: total)
        case .finished(let job, let result): return exportFinished(&state, job: job, result)
        }
    }

    static func exportProgressed(_ state: inout DashboardState, job: Int, written: Int, total: Int?) -> [Effect] {
        guard let index = state.jobs.firstIndex(where: { $0.id == job }) else { return [] }
        let name = exportTarget(ofLabel: state.jobs[index].label)
        let count = total.map { "\(written.formatted()) of \($0.formatted())" } ?? written.formatted()
        state.jobs[index].label = "export to \(name): \(count) records"
        state.status = StatusMessage("Exporting to \(name): \(count) records written… (Esc cancels)")
        return []
    }

    /// The file an export job's label names, without the count a progress put after it (a
    /// progress replaces the count, never adds one).
    static func exportTarget(ofLabel label: String) -> String {
        var name = label.hasPrefix("export to ") ? String(label.dropFirst("export to ".count)) : label
        if let count = name.range(of: #": [0-9,.\x{202F}\x{00A0} ]+( of [0-9,.\x{202F}\x{00A0} ]+)? records$"#, options: .regularExpression) {
            name.removeSubrange(count)
        }
        return name
    }

    static func exportFinished(_ state: inout DashboardState, job: Int, _ result: Result<ExportSummary, CloudKitError>) -> [Effect] {
        guard state.job(job) != nil else { return [] }
        state.endJob(job)
        switch result {
        case .success(let summary):
            let deletions = summary.deletions > 0 ? " and \(summary.deletions.formatted()) deletion\(summary.deletions == 1 ? "" : "s")" : ""
            state.status = StatusMessage("Exported \(summary.records.formatted()) record\(summary.records == 1 ? "" : "s")\(deletions) to \(summary.path).", kind: .success)
        case .failure(let error):
            state.status = .error(error)
        }
        return []
    }
}
