import Foundation
import StratusEngine
import StratusModel
import StratusTerminal

/// What effects run against: the store, the query runner, theme files, the clipboard and the
/// preferences file.
public struct DashboardServices: Sendable {
    public var store: Store
    public var queryRunner: any QueryRunner
    public var themeLoader: ThemeLoader?
    /// Puts text on the clipboard (OSC 52 in the real terminal; tests record it).
    public var clipboard: @Sendable (String) -> Void
    /// Where recent filters and bookmarks are kept; nil keeps them in memory only.
    public var preferencesPath: String?
    /// Who acts; Act As switches it while the dashboard runs.
    public var acting: ActingUser
    /// The device the dashboard acts as: notifications of its own changes are not delivered
    /// to it (CloudKit's rule), so the live panel shows other processes' changes.
    public var device: String

    public init(store: Store, queryRunner: any QueryRunner, themeLoader: ThemeLoader? = nil,
                clipboard: @escaping @Sendable (String) -> Void = { _ in }, preferencesPath: String? = nil, user: String? = nil,
                acting: ActingUser? = nil, device: String = DashboardServices.defaultDevice) {
        self.store = store
        self.queryRunner = queryRunner
        self.themeLoader = themeLoader
        self.clipboard = clipboard
        self.preferencesPath = preferencesPath
        // One box for both, so Act As switches the queries too.
        self.acting = acting ?? (queryRunner as? EngineQueryRunner)?.acting ?? ActingUser(user.map { .user($0) })
        self.device = device
    }

    /// The device name the dashboard acts as unless told otherwise.
    public static let defaultDevice = "stratus-dashboard"
}

/// Runs effects: engine calls on background threads (results posted back as messages), quick
/// ones at once. Each job can be cancelled; long work checks between pages and batches.
public final class EffectRunner: Sendable {
    public let services: DashboardServices
    private let cancelled = LockedValue<Set<Int>>([])
    private let queue = DispatchQueue(label: "stratus.dashboard.effects", qos: .userInitiated, attributes: .concurrent)

    public init(services: DashboardServices) {
        self.services = services
    }

    /// Starts an effect: immediate ones run now on this thread, the rest in the background.
    public func perform(_ effect: Effect, post: @escaping @Sendable (DashboardMessage) -> Void) {
        if effect.isImmediate {
            execute(effect, post: post)
        } else {
            queue.async { [self] in execute(effect, post: post) }
        }
    }

    public func isCancelled(_ job: Int) -> Bool {
        cancelled.withLock { $0.contains(job) }
    }

    /// Runs an effect to the end on the calling thread, posting what it produces (tests call
    /// this directly).
    public func execute(_ effect: Effect, post: @Sendable (DashboardMessage) -> Void) {
        let clock = ContinuousClock()
        let started = clock.now
        func milliseconds() -> Int {
            let elapsed = clock.now - started
            return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        }
        func seconds() -> Double {
            let elapsed = clock.now - started
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        switch effect {
        case .loadZones(let job, let scope):
            post(.zonesLoaded(job: job, scope: scope, capture { try database(scope).allRecordZones() }))

        case .loadSchema(let job):
            post(.schemaLoaded(job: job, capture {
                let document = try? services.store.exportSchema()
                var grants: [String: [GrantDeclaration]] = [:]
                for type in document?.recordTypes ?? [] where !type.grants.isEmpty { grants[type.name] = type.grants }
                return SchemaSnapshot(types: try services.store.recordTypes(), environment: try services.store.environment,
                                      roles: document?.roles ?? [], grants: grants)
            }))

        case .createZone(let job, let zone, let scope):
            post(.zoneSaved(job: job, zone, capture {
                try database(scope).modifyRecordZones(saving: [zone])
                return try database(scope).allRecordZones()
            }))

        case .deleteZone(let job, let zone, let scope):
            post(.zoneDeleted(job: job, zone, capture {
                try database(scope).modifyRecordZones(deleting: [zone])
                return try database(scope).allRecordZones()
            }))

        case .loadRecordCounts(let job, let zone, let scope):
            post(.recordCountsLoaded(job: job, capture { try database(scope).recordCountsByType(inZoneWith: zone) }))

        case .runQuery(let job, let request, let zone, let scope):
            let result = capture { try services.queryRunner.run(request, zone: zone, scope: scope) }
            guard !isCancelled(job) else { return }
            post(.queryPage(job: job, result, page: nil, milliseconds: milliseconds()))

        case .loadTail(let job, let request, let zone, let scope):
            let result = capture { try services.queryRunner.last(request, zone: zone, scope: scope) }
            guard !isCancelled(job) else { return }
            post(.tailLoaded(job: job, result))

        case .queryPage(let job, let page, let cursor, let request, let zone, let scope):
            let result = capture {
                if let cursor { return try services.queryRunner.next(cursor: cursor, request: request, zone: zone, scope: scope) }
                return try services.queryRunner.run(request, zone: zone, scope: scope)
            }
            guard !isCancelled(job) else { return }
            post(.queryPage(job: job, result, page: page, milliseconds: milliseconds()))

        case .checkFilter(let generation, let filter, let arguments, let recordType):
            let check = filter.trimmingCharacters(in: .whitespaces).isEmpty
                ? FilterCheck.valid(canonical: "TRUEPREDICATE")
                : services.queryRunner.check(filter: filter, arguments: arguments, recordType: recordType)
            post(.filterChecked(generation: generation, check))

        case .fetch(let job, let names, let desiredKeys, let zone, let scope):
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
                    post(.fetchProgress(job: job, done: rows.count, total: names.count))
                }
                post(.fetchFinished(job: job, .success(rows), milliseconds: milliseconds()))
            } catch {
                post(.fetchFinished(job: job, .failure(EffectRunner.cloudKitError(error)), milliseconds: milliseconds()))
            }

        case .playChanges(let job, let zone, let scope, let since, let desiredKeys, let pageSize, let order):
            // Pages are posted together at most every 50 ms, and events only while the tab
            // still keeps them: a playback of millions of changes costs the screen little.
            var token = since
            var pending: [ChangeEvent] = []
            var pendingCount = 0
            var pendingPages = 0
            var sent = 0
            var lastPost = clock.now
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
                    if !page.moreComing || clock.now - lastPost >= .milliseconds(50) || sent == 0 {
                        post(.changesPage(job: job, events: pending, count: pendingCount, pages: pendingPages, token: page.changeToken,
                                          moreComing: page.moreComing, elapsed: seconds()))
                        sent += pending.count
                        pending = []
                        pendingCount = 0
                        pendingPages = 0
                        lastPost = clock.now
                    }
                    if !page.moreComing { return }
                }
            } catch {
                post(.changesFailed(job: job, EffectRunner.cloudKitError(error)))
            }

        case .databaseChanges(let job, let scope, let since):
            post(.databaseChanges(job: job, capture {
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
            }))

        case .currentToken(let job, let zone, let scope):
            if let zone {
                post(.tokenTaken(job: job, capture { try database(scope).currentToken(for: zone) }, database: false))
            } else {
                post(.tokenTaken(job: job, capture { try database(scope).currentDatabaseToken() }, database: true))
            }

        case .loadRecord(let job, let recordID, let scope, let purpose):
            let result = capture { try database(scope).record(for: recordID) }
            guard !isCancelled(job) else { return }
            post(.recordLoaded(job: job, result, purpose: purpose))

        case .save(let job, let record, let policy, let scope, let isNew):
            // The record as it was, so the save can be undone.
            let before = isNew ? nil : try? database(scope).withoutFaults.record(for: record.recordID)
            let result = capture {
                let result = try database(scope).modifyRecords(saving: [record], savePolicy: policy)
                return try result.saveResults[0].result.get()
            }
            if case .success(let saved) = result { post(.undoable(UndoEntry(change: .save(before: before, after: saved), scope: scope, job: job))) }
            post(.saveFinished(job: job, result, isNew: isNew))

        case .delete(let job, let recordID, let scope):
            // The whole record, so the delete can be undone.
            let before = try? database(scope).withoutFaults.record(for: recordID)
            let result = capture {
                let result = try database(scope).modifyRecords(deleting: [recordID])
                try result.deleteResults[0].result.get()
                return result
            }
            // The records the delete took through DELETE_SELF come back with it on undo, each
            // after the record it points at.
            if case .success(let done) = result, let before {
                let taken = [before] + done.cascadeDeletedRecords
                post(.undoable(UndoEntry(change: .delete(taken, complete: done.cascadeDeletedRecords.count == done.cascadeDeletedRecordIDs.count),
                                         scope: scope, job: job)))
            }
            post(.deleteFinished(job: job, result.map(\.cascadeDeletedRecordIDs), recordID: recordID))

        case .cancel(let job):
            cancelled.withLock { _ = $0.insert(job) }

        case .copy(let text):
            services.clipboard(text)

        case .watchRequestLog(let job, let afterID):
            var last = afterID
            while !isCancelled(job) {
                if last != nil { Thread.sleep(forTimeInterval: Double(LogsTabState.pollInterval.components.attoseconds) / 1e18) }
                if isCancelled(job) { return }
                guard let next = pollRequestLog(job: job, afterID: last, post: post) else { return }
                last = next
            }
        case .loadZoneTypeCounts(let zone, let scope):
            post(.zoneTypeCountsLoaded(zone, scope: scope, capture { try database(scope).recordCountsByType(inZoneWith: zone) }))
        case .diffSchema(let job, let path):
            post(.schemaDiffed(job: job, capture {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CloudKitError(.invalidArguments, "Cannot read \(path).")
                }
                let file: SchemaDocument
                if data.prefix(16) == Data("SQLite format 3\0".utf8) {
                    // Another store (say the production one), read without opening it as one; this
                    // store's own file is read through the store.
                    let samePath = URL(fileURLWithPath: path).standardizedFileURL == URL(fileURLWithPath: services.store.path).standardizedFileURL
                    file = samePath ? try services.store.exportSchema() : try Store.exportSchema(ofStoreAt: path)
                } else {
                    do {
                        file = try SchemaDocument.parse(String(decoding: data, as: UTF8.self))
                    } catch let error as SchemaLanguageError {
                        throw CloudKitError(.invalidArguments, "\((path as NSString).lastPathComponent):\(error.line):\(error.column): \(error.message)")
                    }
                }
                return SchemaDiffSnapshot(path: path, changes: SchemaDiff(from: file, to: try services.store.exportSchema()).changes)
            }))
        case .loadShares(let job):
            post(.sharesLoaded(job: job, capture { try shares() }, done: nil))
        case .changeParticipant(let job, let url, let user, let permission):
            let database = database(.private)
            post(.sharesLoaded(job: job, capture {
                if let permission {
                    try database.addParticipant(user, permission: permission, toShare: url)
                } else {
                    try database.removeParticipant(user, fromShare: url)
                }
                return try shares()
            }, done: permission.map { "Invited them (\($0)); they accept the URL to join." } ?? "Removed them from the share."))
        case .loadShareStatus(let recordID, let scope):
            guard let status = try? database(scope).shareStatus(of: recordID) else {
                post(.shareStatusLoaded(recordID, nil))
                return
            }
            let others = status.share.participants.filter { $0.type != .owner && $0.status == .accepted }.count
            let what = status.isRoot ? (status.share.isZoneWide ? "in a zone-wide share" : "shared (root of its share)")
                : (status.share.isZoneWide ? "in a zone-wide share" : "inside the share of \(status.share.rootRecordName ?? "?")")
            post(.shareStatusLoaded(recordID, "\(what), owner \(status.share.ownerAlias), \(others) participant\(others == 1 ? "" : "s")"))
        case .actAs(let caller):
            services.acting.set(caller)
        case .watchFaults, .addFault, .removeFaults, .compactHistory, .loadOldestToken:
            executeSyncLab(effect, post: post)
        case .exportResult(let job, let export, let path):
            exportResult(job: job, export, path: path, post: post)
        case .mapResult(let job, let request, let cursor, let firstPageCount, let zone, let scope):
            mapResult(job: job, request, after: cursor, firstPageCount: firstPageCount, zone: zone, scope: scope, post: post)
        case .countMatches(let job, let request, let zone, let scope):
            countMatches(job: job, request, zone: zone, scope: scope, post: post)
        case .bulkDelete(let job, let request, let zone, let scope):
            bulkDelete(job: job, request, zone: zone, scope: scope, post: post)
        case .loadHistogram(let job, let request, let field, let zone, let scope):
            loadHistogram(job: job, request, field: field, zone: zone, scope: scope, post: post)
        case .undo(let job, let entry, let redo):
            undo(job: job, entry, redo: redo, post: post)
        case .loadUsers(let job):
            post(.usersLoaded(job: job, capture { try services.store.users() }))
        case .loadTheme(let name):
            guard let loader = services.themeLoader else {
                post(.themeLoaded(name: name, .failure(ThemeError(file: name, message: "no themes directory was found"))))
                return
            }
            do {
                post(.themeLoaded(name: name, .success(try loader.load(named: name))))
            } catch {
                post(.themeLoaded(name: name, .failure(error)))
            }

        case .savePreferences(let preferences):
            guard let path = services.preferencesPath else { return }
            PreferencesFile.save(preferences, to: path)

        case .loadSubscriptions(let job, let scope):
            post(.subscriptionsLoaded(job: job, capture { try database(scope).allSubscriptions() }))

        case .saveSubscription(let job, let subscription, let scope):
            post(.subscriptionSaved(job: job, capture { try database(scope).save(subscription) }))

        case .deleteSubscription(let job, let subscriptionID, let scope):
            post(.subscriptionDeleted(job: job, capture {
                try database(scope).deleteSubscription(withID: subscriptionID)
                return subscriptionID
            }))

        case .watchNotifications(let job, let scope, let afterSequence):
            watchNotifications(job: job, scope: scope, afterSequence: afterSequence, post: post)

        case .exportSchema(let job, let path):
            post(.schemaExported(job: job, capture {
                let text = try services.store.exportSchema().text
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw CloudKitError(.invalidArguments, "Could not write \(path): \(error.localizedDescription)")
                }
                return path
            }))
        }
    }

    /// One poll of the request log: the entries after `afterID` (nil: the newest 200), posted
    /// when there are any. Returns where the next poll starts; nil after an error (posted).
    public func pollRequestLog(job: Int, afterID: Int64?, post: (DashboardMessage) -> Void) -> Int64? {
        do {
            let entries = try afterID.map { try services.store.requestLog(after: $0, limit: 1000) } ?? services.store.requestLog(limit: 200)
            if !entries.isEmpty { post(.requestsLogged(job: job, .success(entries))) }
            return entries.last?.id ?? afterID ?? 0
        } catch {
            post(.requestsLogged(job: job, .failure(EffectRunner.cloudKitError(error))))
            return nil
        }
    }

    private func shares() throws -> SharesSnapshot {
        let (owned, accepted) = try database(.private).shares()
        return SharesSnapshot(owned: owned, accepted: accepted)
    }

    func database(_ scope: DatabaseScope) -> CloudDatabase {
        services.store.database(scope, caller: services.acting.caller(on: services.store), device: services.device)
    }

    /// The live panel's poll: one indexed read every ``SubscriptionsTabState/pollInterval``,
    /// posting only when something arrived, until the job is cancelled.
    private func watchNotifications(job: Int, scope: DatabaseScope, afterSequence: Int64?, post: (DashboardMessage) -> Void) {
        var sequence = afterSequence
        let interval = SubscriptionsTabState.pollInterval
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        while !isCancelled(job) {
            if sequence != nil { Thread.sleep(forTimeInterval: seconds) }
            if isCancelled(job) { return }
            guard let next = pollNotifications(job: job, scope: scope, afterSequence: sequence, post: post) else { return }
            sequence = next
        }
    }

    /// One poll of the live panel: the notifications after `afterSequence` (nil: catch up with
    /// all there are, keeping the newest the panel shows), posted when there are any. Returns
    /// where the next poll starts; nil after an error (posted).
    public func pollNotifications(job: Int, scope: DatabaseScope, afterSequence: Int64?, post: (DashboardMessage) -> Void) -> Int64? {
        let database = database(scope)
        let limit = CloudDatabase.defaultNotificationLimit
        do {
            var sequence = afterSequence ?? 0
            if afterSequence == nil {
                var kept: [CloudNotification] = []
                while !isCancelled(job) {
                    let page = try database.notifications(afterSequence: sequence, limit: limit)
                    guard let last = page.last else { break }
                    sequence = last.sequence
                    kept = Array((kept + page).suffix(SubscriptionsTabState.maximumKept))
                    if page.count < limit { break }
                }
                post(.notificationsArrived(job: job, kept, catchUp: true))
                return sequence
            }
            let page = try database.notifications(afterSequence: sequence, limit: limit)
            if let last = page.last {
                sequence = last.sequence
                post(.notificationsArrived(job: job, page, catchUp: false))
            }
            return sequence
        } catch {
            post(.notificationsFailed(job: job, EffectRunner.cloudKitError(error)))
            return nil
        }
    }

    func capture<T>(_ body: () throws -> T) -> Result<T, CloudKitError> {
        do {
            return .success(try body())
        } catch {
            return .failure(EffectRunner.cloudKitError(error))
        }
    }

    static func cloudKitError(_ error: any Error) -> CloudKitError {
        error as? CloudKitError ?? CloudKitError(.internalError, "\(error)")
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

/// The preferences file: JSON next to the store (`store.sqlite.dashboard.json`).
public enum PreferencesFile {
    public static func path(forStore storePath: String) -> String { storePath + ".dashboard.json" }

    public static func load(from path: String) -> DashboardPreferences {
        guard let data = FileManager.default.contents(atPath: path),
              let preferences = try? JSONDecoder().decode(DashboardPreferences.self, from: data) else { return DashboardPreferences() }
        return preferences
    }

    public static func save(_ preferences: DashboardPreferences, to path: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(preferences) else { return }
        try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
