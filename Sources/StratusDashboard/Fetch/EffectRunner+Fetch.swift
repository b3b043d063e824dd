import Foundation
import StratusModel
import StratusCloud

/// The Fetch tab's effect: records by name, in batches.
extension EffectRunner {
    /// Fetches the named records a batch at a time, posting progress.
    func executeFetch(_ effect: FetchEffect, started: ContinuousClock.Instant, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .records(let job, let names, let desiredKeys, let zone, let scope):
            var rows: [FetchRow] = []
            let batch = 100
            do {
                for start in stride(from: 0, to: names.count, by: batch) {
                    if isCancelled(job) { return }
                    let ids = names[start..<min(start + batch, names.count)].map { RecordID(recordName: $0, zoneID: zone) }
                    for fetched in try database(scope).records(for: ids, desiredKeys: desiredKeys) {
                        switch fetched.result {
                        case .success(let record): rows.append(FetchRow(recordName: fetched.recordID.recordName, record: record))
                        case .failure(let error): rows.append(FetchRow(recordName: fetched.recordID.recordName, error: error))
                        }
                    }
                    post(.fetch(.progress(job: job, done: rows.count, total: names.count)))
                }
                post(.fetch(.finished(job: job, .success(rows), milliseconds: EffectRunner.milliseconds(since: started))))
            } catch {
                post(.fetch(.finished(job: job, .failure(EffectRunner.cloudKitError(error)), milliseconds: EffectRunner.milliseconds(since: started))))
            }
        }
    }
}
