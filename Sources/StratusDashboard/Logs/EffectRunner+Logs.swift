import Foundation
import StratusEngine
import StratusModel

/// The Logs tab's effects: the request log, read again whenever a server may have added to it.
extension EffectRunner {
    /// Reads the request log as it grows (``StoreWatch``) until the job is cancelled.
    func executeLogs(_ effect: LogsEffect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .watch(let job, let afterID):
            var last = afterID
            let watch = (try? localStore())?.watch([.requestLog], polling: LogsTabState.pollInterval) ?? .polled(every: LogsTabState.pollInterval)
            while !isCancelled(job) {
                if last != nil && watch.next(stopped: { isCancelled(job) }) == .stopped { return }
                if isCancelled(job) { return }
                guard let next = pollRequestLog(job: job, afterID: last, post: post) else { return }
                last = next
            }
        case .loadBodies(let entry):
            post(.logs(.bodiesLoaded(entry: entry, capture { try localStore().requestBodies(of: entry.id) })))
        }
    }

    /// One poll of the request log: the entries after `afterID` (nil: the newest 200), posted
    /// when there are any. Returns where the next poll starts; nil after an error (posted).
    func pollRequestLog(job: Int, afterID: Int64?, post: (DashboardMessage) -> Void) -> Int64? {
        do {
            let entries = try localStore().requestLog(after: afterID, limit: afterID == nil ? 200 : 1000)
            if !entries.isEmpty { post(.logs(.requestsLogged(job: job, .success(entries)))) }
            return entries.last?.id ?? afterID ?? 0
        } catch {
            post(.logs(.requestsLogged(job: job, .failure(EffectRunner.cloudKitError(error)))))
            return nil
        }
    }
}
