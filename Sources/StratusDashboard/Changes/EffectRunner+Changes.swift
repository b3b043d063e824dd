import Foundation
import StratusModel
import StratusCloud

/// The Changes tab's effects: playback, database changes, current tokens.
extension EffectRunner {
    /// Plays changes back, reads database changes and takes current tokens.
    func executeChanges(_ effect: ChangesEffect, started: ContinuousClock.Instant, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .play(let job, let zone, let scope, let since, let desiredKeys, let pageSize, let order):
            // Pages are posted together at most every 50 ms, and events only while the tab
            // still keeps them: a playback of millions of changes costs the screen little.
            var token = since
            var pending: [ChangeEvent] = []
            var pendingCount = 0
            var pendingPages = 0
            var sent = 0
            var lastPost = ContinuousClock.now
            do {
                while true {
                    if isCancelled(job) { return }
                    // Each page in the order asked for; the seed is the page's number, so a replay repeats it.
                    let page = try database(scope).recordZoneChanges(inZoneWith: zone, since: token, desiredKeys: desiredKeys, resultsLimit: pageSize,
                                                                     includingChangedKeys: true)
                        .ordered(order, seed: UInt64(sent + pending.count + pendingCount))
                    token = page.changeToken
                    let room = max(0, ChangesTabState.maximumKept - sent - pending.count)
                    if room > 0 { pending += page.changes.prefix(room).map { EffectRunner.event($0, changedKeys: page.changedKeys) } }
                    pendingCount += page.changes.count
                    pendingPages += 1
                    if isCancelled(job) { return }
                    if !page.moreComing || ContinuousClock.now - lastPost >= .milliseconds(50) || sent == 0 {
                        post(.changes(.page(job: job, events: pending, count: pendingCount, pages: pendingPages, token: page.changeToken,
                                          moreComing: page.moreComing, elapsed: EffectRunner.seconds(since: started))))
                        sent += pending.count
                        pending = []
                        pendingCount = 0
                        pendingPages = 0
                        lastPost = ContinuousClock.now
                    }
                    if !page.moreComing { return }
                }
            } catch {
                post(.changes(.failed(job: job, EffectRunner.cloudKitError(error))))
            }

        case .database(let job, let scope, let since):
            post(.changes(.database(job: job, capture {
                var token = since
                var events: [ZoneChangeEvent] = []
                while true {
                    if isCancelled(job) { throw CloudKitError(.operationCancelled, "Cancelled.") }
                    let page = try database(scope).databaseChanges(since: token)
                    events += page.changedZoneIDs.map { ZoneChangeEvent(kind: "changed", zone: $0) }
                    events += page.deletedZoneIDs.map { ZoneChangeEvent(kind: "deleted", zone: $0) }
                    events += page.purgedZoneIDs.map { ZoneChangeEvent(kind: "purged", zone: $0) }
                    token = page.changeToken
                    if !page.moreComing { return DatabaseChangesSummary(events: events, token: page.changeToken) }
                }
            })))

        case .currentToken(let job, let zone, let scope):
            if let zone {
                post(.changes(.token(job: job, capture { try database(scope).currentToken(for: zone) }, database: false)))
            } else {
                post(.changes(.token(job: job, capture { try database(scope).currentDatabaseToken() }, database: true)))
            }

        case .checkBookmarks(let job, let zone, let scope, let tokens):
            // A playback of one change from each: the history answers changeTokenExpired for a
            // token it was compacted past. Any other failure leaves the bookmark unmarked.
            var expired: Set<String> = []
            for token in tokens {
                if case .failure(let error) = capture({ try database(scope).withoutFaults.recordZoneChanges(inZoneWith: zone, since: token, resultsLimit: 1) }),
                   error.code == .changeTokenExpired {
                    expired.insert(token)
                }
            }
            post(.changes(.bookmarksChecked(job: job, expired: expired)))
        }
    }

    /// A change as the tab lists it: the fields its last change set or removed, else (a restored
    /// record) every field it holds.
    static func event(_ change: ZoneChange, changedKeys: [String: [String]] = [:]) -> ChangeEvent {
        switch change {
        case .changed(let record):
            return ChangeEvent(kind: .changed, recordType: record.recordType, recordName: record.recordName,
                               fields: changedKeys[record.recordName] ?? record.fields.keys.sorted(), changeTag: record.recordChangeTag)
        case .deleted(let recordID, let recordType):
            return ChangeEvent(kind: .deleted, recordType: recordType, recordName: recordID.recordName, fields: [], changeTag: nil)
        }
    }
}
