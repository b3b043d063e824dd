import Foundation
import StratusCloud

/// The failures a fault plan can make, each named as CloudKit's `CKError.Code`.
public enum FaultKind: String, Sendable, CaseIterable, Hashable {
    /// The whole call is refused: too many requests (`THROTTLED`, HTTP 429), with `retryAfter`.
    case requestRateLimited
    /// The whole call is refused: the zone is busy (`TRY_AGAIN_LATER`, HTTP 503), with `retryAfter`.
    case zoneBusy
    /// The whole call is refused: the service is down for a moment (`TRY_AGAIN_LATER`, HTTP 503).
    case serviceUnavailable
    /// Another device saves the record just before this save, so a save based on the old
    /// change tag meets a real `serverRecordChanged (14)` with the other device's record.
    case serverRecordChanged
    /// Chosen records of a batch fail with `serviceUnavailable`; the rest succeed (or, in an
    /// atomic batch of a custom zone, fail with `batchRequestFailed`).
    case partialFailure
    /// A batch over a limit below CloudKit's is refused whole: split it and retry.
    case limitExceeded
    /// A change token (one, or any) has expired: refetch from the beginning.
    case changeTokenExpired
    /// The call is refused as if the user had signed out (`AUTHENTICATION_REQUIRED`, HTTP 421).
    case notAuthenticated

    public var name: String { rawValue }

    /// The error code the fault produces.
    public var code: CloudKitError.Code {
        switch self {
        case .requestRateLimited: return .requestRateLimited
        case .zoneBusy: return .zoneBusy
        case .serviceUnavailable: return .serviceUnavailable
        case .serverRecordChanged: return .serverRecordChanged
        case .partialFailure: return .partialFailure
        case .limitExceeded: return .limitExceeded
        case .changeTokenExpired: return .changeTokenExpired
        case .notAuthenticated: return .notAuthenticated
        }
    }

    /// The operations the kind can happen on (the ones CloudKit sends it for).
    public var operations: [FaultOperation] {
        switch self {
        case .requestRateLimited, .zoneBusy, .serviceUnavailable, .notAuthenticated: return FaultOperation.allCases
        case .serverRecordChanged: return [.modify]
        case .partialFailure, .limitExceeded: return [.modify, .fetch]
        case .changeTokenExpired: return [.zoneChanges, .databaseChanges]
        }
    }

    /// A state rather than an event: a limit, or a named token that expired, holds on every
    /// call until cleared; an event (a throttle, a conflict, "your token expired") happens once
    /// unless told otherwise. (Every token expiring on every call would leave a client no way
    /// to finish fetching from the beginning, page by page.)
    func defaultTrigger(token: String?) -> FaultTrigger {
        switch self {
        case .limitExceeded: return .every(1)
        case .changeTokenExpired where token != nil: return .every(1)
        default: return .once
        }
    }

    /// What the error tells the client to wait when the plan gives no figure.
    var defaultRetryAfter: Double? {
        switch self {
        case .requestRateLimited, .zoneBusy: return 5
        case .serviceUnavailable: return 2
        default: return nil
        }
    }

    /// The batch limit of a `limitExceeded` fault given none (CloudKit's own is 400).
    public static let defaultItemLimit = 100

    /// `5 s`, `0.5 s`.
    public static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// The kind named on the command line or in JSON, case-insensitively.
    public init?(name: String) {
        guard let kind = FaultKind.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = kind
    }
}

/// The engine calls a fault can match, by the names the command line uses.
public enum FaultOperation: String, Sendable, CaseIterable, Hashable {
    /// `modifyRecords` (saves and deletes; CKWS `records/modify`).
    case modify
    /// `records(for:)` (CKWS `records/lookup`).
    case fetch
    /// A query page (CKWS `records/query`).
    case query
    /// Zone change playback (CKWS `changes/zone`).
    case zoneChanges = "zone-changes"
    /// Database change playback (CKWS `changes/database`).
    case databaseChanges = "database-changes"
    /// Listing, fetching, saving and deleting zones (CKWS `zones/*`).
    case zones

    public var name: String { rawValue }

    public init?(name: String) {
        guard let operation = FaultOperation.allCases.first(where: { $0.rawValue == name.lowercased() }) else { return nil }
        self = operation
    }
}
