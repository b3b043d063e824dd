import Foundation
@testable import StratusEngine
import StratusModel
import StratusCloud

/// A sync client written the way CloudKit asks apps to write one: it keeps a local copy of a
/// zone and a change token, pushes local edits and pulls changes, and survives what CloudKit
/// sends: it waits `retryAfter` (on a virtual clock), halves its batches on `limitExceeded`,
/// signs in again on `notAuthenticated`, rebases on the server's record on
/// `serverRecordChanged` (its own changed fields win), retries the records of a partial
/// failure, refetches from no token on `changeTokenExpired`, and applies each page in
/// whatever order it comes.
final class SyncClient {
    enum Edit: Equatable {
        case save([String: FieldValue])
        case delete
    }

    struct Stuck: Error, CustomStringConvertible {
        var description: String
    }

    let database: CloudDatabase
    let zone: ZoneID
    /// The local copy, by record name, as the server last said (plus nothing local).
    private(set) var cache: [String: Record] = [:]
    /// Local edits not yet on the server.
    private(set) var pending: [String: Edit] = [:]
    private(set) var token: String?
    /// Seconds the client was told to wait, in all.
    private(set) var waited: Double = 0
    private(set) var met: [CloudKitError.Code: Int] = [:]
    private var batchLimit = CloudDatabase.maximumBatchSize
    private let pageSize: Int
    private let order: PlaybackOrder
    private var shuffleSeed: UInt64

    init(database: CloudDatabase, zone: ZoneID, pageSize: Int, order: PlaybackOrder, seed: UInt64) {
        self.database = database
        self.zone = zone
        self.pageSize = pageSize
        self.order = order
        shuffleSeed = seed
    }

    func edit(_ name: String, _ changes: [String: FieldValue]) {
        if case .save(let earlier)? = pending[name] {
            pending[name] = .save(earlier.merging(changes) { _, new in new })
        } else {
            pending[name] = .save(changes)
        }
    }

    func delete(_ name: String) { pending[name] = .delete }

    /// Pushes every local edit, however many tries it takes (a bounded number).
    func push() throws {
        var attempts = 0
        while !pending.isEmpty {
            attempts += 1
            guard attempts < 400 else { throw Stuck(description: "push did not finish: \(pending.count) edits left, met \(met)") }
            let names = Array(pending.keys.sorted().prefix(batchLimit))
            var saving: [Record] = []
            var deleting: [RecordID] = []
            for name in names {
                switch pending[name]! {
                case .save(let changes):
                    var record = cache[name] ?? Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
                    record.clearChangedKeys()
                    for (key, value) in changes { record[key] = value }
                    saving.append(record)
                case .delete:
                    deleting.append(RecordID(recordName: name, zoneID: zone))
                }
            }
            let result: ModifyRecordsResult
            do {
                result = try database.modifyRecords(saving: saving, deleting: deleting)
            } catch let error as CloudKitError {
                try survive(error, batch: names.count)
                continue
            }
            for saved in result.saveResults {
                let name = saved.recordID.recordName
                switch saved.result {
                case .success(let record):
                    cache[name] = record
                    pending[name] = nil
                case .failure(let error):
                    try surviveItem(error, name: name)
                }
            }
            for deleted in result.deleteResults {
                let name = deleted.recordID.recordName
                switch deleted.result {
                case .success:
                    cache[name] = nil
                    pending[name] = nil
                case .failure(let error) where error.code == .unknownItem:
                    // Already gone on the server: what the delete wanted.
                    cache[name] = nil
                    pending[name] = nil
                case .failure(let error):
                    try surviveItem(error, name: name)
                }
            }
        }
    }

    /// Pulls every change since the token, page by page.
    func pull() throws {
        var attempts = 0
        var fromStart = token == nil
        var seen: Set<String> = []
        while true {
            attempts += 1
            guard attempts < 400 else { throw Stuck(description: "pull did not finish, met \(met)") }
            let page: ZoneChangesPage
            do {
                page = try database.recordZoneChanges(inZoneWith: zone, since: token, resultsLimit: pageSize)
            } catch let error as CloudKitError where error.code == .changeTokenExpired {
                met[error.code, default: 0] += 1
                token = nil
                fromStart = true
                seen = []
                continue
            } catch let error as CloudKitError {
                try survive(error, batch: 0)
                continue
            }
            shuffleSeed &+= 1
            for change in page.ordered(order, seed: shuffleSeed).changes {
                let name = change.recordID.recordName
                switch change {
                case .changed(let record):
                    seen.insert(name)
                    cache[name] = record
                case .deleted:
                    cache[name] = nil
                    if pending[name] == .delete { pending[name] = nil }
                }
            }
            token = page.changeToken
            if !page.moreComing { break }
        }
        // A refetch from the beginning: whatever it did not bring is gone from the server
        // (its deletion may be compacted away).
        if fromStart {
            for name in cache.keys where !seen.contains(name) { cache[name] = nil }
        }
    }

    private func survive(_ error: CloudKitError, batch: Int) throws {
        met[error.code, default: 0] += 1
        switch error.code {
        case .requestRateLimited, .zoneBusy, .serviceUnavailable:
            guard let retryAfter = error.retryAfter else { throw Stuck(description: "\(error.code.name) without retryAfter") }
            waited += retryAfter
        case .limitExceeded:
            batchLimit = max(1, batch / 2)
        case .notAuthenticated:
            break // signs in again and retries
        default:
            throw error
        }
    }

    private func surviveItem(_ error: CloudKitError, name: String) throws {
        met[error.code, default: 0] += 1
        switch error.code {
        case .serverRecordChanged:
            guard let server = error.serverRecord else { throw Stuck(description: "a conflict without the server's record") }
            cache[name] = server // rebase; the pending changes go on top
        case .unknownItem:
            cache[name] = nil // deleted on the server: the edit makes it again
        case .batchRequestFailed:
            break
        case .requestRateLimited, .zoneBusy, .serviceUnavailable:
            guard let retryAfter = error.retryAfter else { throw Stuck(description: "\(error.code.name) without retryAfter") }
            waited += retryAfter
        default:
            throw error
        }
    }
}
