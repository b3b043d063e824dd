import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS

/// Writes the current result to a file, page by page, with progress; a cancelled export
/// leaves nothing behind (it writes beside the file and renames at the end).
extension EffectRunner {
    func exportResult(job: Int, _ export: ResultExport, path: String, post: @Sendable (DashboardMessage) -> Void) {
        let target = (path.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        let partial = target + ".partial"
        let format = ResultExport.Format(path: target)
        var summary = ExportSummary(path: target, records: 0, deletions: 0)
        let outcome = capture { () throws -> ExportSummary? in
            guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
                throw CloudKitError(.invalidArguments, "Cannot write \(partial).")
            }
            defer { try? handle.close() }
            var csv: RecordCSV?
            if format == .csv {
                // The header's columns: the fields of every type the export can hold.
                let names: Set<String>?
                switch export {
                case .query(let request, _, _): names = [request.recordType]
                case .fetch(let records): names = Set(records.map(\.recordType))
                case .changes: names = nil
                }
                let types = try services.cloud.recordTypes().filter { names?.contains($0.name) ?? true }
                do { csv = try RecordCSV(types: types) } catch { throw CloudKitError(.invalidArguments, "These records do not fit one CSV header: \(error)") }
                // The header and each row end in CSV's own CRLF.
                try handle.write(contentsOf: Data(csv!.headerLine.utf8))
            }
            // Asset bytes travel in the JSON lines, so the file reads back into any store; a
            // remote's assets keep their checksum only (CKWS cannot read one by it).
            var assets = AssetEmbedder(read: { [services] checksum in
                do {
                    return try services.cloud.assetData(checksum: checksum)
                } catch let error as CloudKitError {
                    if case .notAvailableRemotely = error.reason { return nil }
                    throw error
                }
            })
            func write(_ records: [Record], deleted: [RecordID] = []) throws {
                var text = ""
                for record in records {
                    text += try format == .csv ? csv!.line(record) : assets.line(record) + "\n"
                }
                if format == .jsonLines {
                    for recordID in deleted { text += JSONWriter.string(DeletionJSON.record(recordID.recordName)) + "\n" }
                }
                try handle.write(contentsOf: Data(text.utf8))
                summary.records += records.count
                // CSV has no row for a deletion; JSON lines write `{"recordName", "deleted": true}`.
                if format == .jsonLines { summary.deletions += deleted.count }
            }
            switch export {
            case .fetch(let records):
                try write(records)
                post(.export(.progress(job: job, written: records.count, total: records.count)))
            case .query(var request, let zone, let scope):
                request.resultsLimit = ResultExport.pageSize
                let finished = try walkResult(job: job, request, zone: zone, scope: scope) { page, _ in
                    try write(page.records)
                    post(.export(.progress(job: job, written: summary.records, total: nil)))
                    return true
                }
                if !finished { return nil }
            case .changes(let zone, let scope, let since, let desiredKeys):
                var token = since
                while true {
                    if isCancelled(job) { return nil }
                    let page = try database(scope).recordZoneChanges(inZoneWith: zone, since: token, desiredKeys: desiredKeys,
                                                                     resultsLimit: ResultExport.pageSize)
                    var changed: [Record] = [], deleted: [RecordID] = []
                    for change in page.changes {
                        switch change {
                        case .changed(let record): changed.append(record)
                        case .deleted(let recordID, _): deleted.append(recordID)
                        }
                    }
                    try write(changed, deleted: deleted)
                    post(.export(.progress(job: job, written: summary.records + summary.deletions, total: nil)))
                    token = page.changeToken
                    if !page.moreComing { break }
                }
            }
            try handle.synchronize()
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.moveItem(atPath: partial, toPath: target)
            return summary
        }
        switch outcome {
        case .success(let done?):
            post(.export(.finished(job: job, .success(done))))
        case .success(nil):
            try? FileManager.default.removeItem(atPath: partial)
        case .failure(let error):
            try? FileManager.default.removeItem(atPath: partial)
            post(.export(.finished(job: job, .failure(error))))
        }
    }
}
