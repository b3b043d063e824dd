import Foundation
import StratusEngine

/// The sync lab's effects: the fault plan (polled, added to, removed from) and compaction.
extension EffectRunner {
    func executeSyncLab(_ effect: FaultsEffect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .watch(let job, let afterEventID):
            var last = afterEventID
            let watch = (try? localStore())?.watch([.faultEvents], polling: FaultsTabState.pollInterval) ?? .polled(every: FaultsTabState.pollInterval)
            var first = true
            while !isCancelled(job) {
                if !first && watch.next(stopped: { isCancelled(job) }) == .stopped { return }
                first = false
                if isCancelled(job) { return }
                guard let next = pollFaults(job: job, afterEventID: last, post: post) else { return }
                last = next
            }
        case .watchPlan(let job):
            var last: [Fault]?
            while !isCancelled(job) {
                if last != nil { Thread.sleep(forTimeInterval: Double(FaultsTabState.planInterval.components.seconds)) }
                if isCancelled(job) { return }
                guard let next = pollFaultPlan(job: job, last: last, post: post) else { return }
                last = next
            }
        case .add(let job, let fault):
            post(.faults(.changed(job: job, capture {
                let added = try localStore().addFault(fault)
                return "Added fault #\(added.id): \(added.summary)."
            })))
        case .remove(let job, let id):
            post(.faults(.changed(job: job, capture {
                let removed = try localStore().clearFaults(id: id)
                return id.map { "Removed fault #\($0)." } ?? "Removed \(removed) fault\(removed == 1 ? "" : "s"); every call behaves again."
            })))
        case .compactHistory(let job, let zone, let scope, let before, let keep):
            post(.faults(.historyCompacted(job: job, capture {
                try database(scope).compactHistory(inZoneWith: zone, before: before, keeping: keep)
            })))
        case .oldestToken(let zone, let scope):
            post(.changes(.oldestToken(zone, capture {
                let start = try database(scope).historyStart(for: zone)
                return (start.oldestValidToken, start.compactedSequence > 0)
            })))
            post(.changes(.activity(zone, capture { try database(scope).changeActivity(inZoneWith: zone, buckets: ChangesTabView.activityBuckets) })))
        }
    }

    /// One read of the plan for the header: its faults still able to fire, posted when they
    /// differ from `last`. Nil when there is no local store (no plan to read) or it failed
    /// (the Faults tab says why): the watch ends.
    func pollFaultPlan(job: Int, last: [Fault]?, post: (DashboardMessage) -> Void) -> [Fault]? {
        guard let local = services.cloud.localStore, let faults = try? local.faults().filter({ !$0.isSpent }) else { return nil }
        if faults != last { post(.faults(.plan(job: job, faults))) }
        return faults
    }

    /// One poll of the fault plan: the plan, and the firings after `afterEventID` (nil: the
    /// newest). Returns where the next poll starts; nil after an error (posted).
    func pollFaults(job: Int, afterEventID: Int64?, post: (DashboardMessage) -> Void) -> Int64? {
        do {
            let local = try localStore()
            let faults = try local.faults()
            let events = try local.faultEvents(after: afterEventID, limit: FaultsTabState.maximumEvents)
            post(.faults(.polled(job: job, .success(FaultsSnapshot(faults: faults, events: events)))))
            return events.last?.id ?? afterEventID ?? 0
        } catch {
            post(.faults(.polled(job: job, .failure(EffectRunner.cloudKitError(error)))))
            return nil
        }
    }
}
