import Foundation
import StratusPredicates

/// An error as CloudKit reports it: a code with CloudKit's name and number, and a sentence a
/// person can act on. Per-record errors of a batch hang off `partialErrors`.
public struct CloudKitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `CKError.Code`, with CloudKit's raw values.
    public enum Code: Int, Sendable, CaseIterable {
        case internalError = 1
        case partialFailure = 2
        case badContainer = 5
        case notAuthenticated = 9
        case serviceUnavailable = 6
        case requestRateLimited = 7
        case permissionFailure = 10
        case unknownItem = 11
        case invalidArguments = 12
        case serverRecordChanged = 14
        case serverRejectedRequest = 15
        case assetFileNotFound = 16
        case incompatibleVersion = 18
        case constraintViolation = 19
        case operationCancelled = 20
        case changeTokenExpired = 21
        case batchRequestFailed = 22
        case zoneBusy = 23
        case badDatabase = 24
        case quotaExceeded = 25
        case zoneNotFound = 26
        case limitExceeded = 27
        case userDeletedZone = 28
        case tooManyParticipants = 29
        case alreadyShared = 30
        case referenceViolation = 31

        /// CloudKit's name for the code, e.g. `serverRecordChanged`.
        public var name: String { "\(self)" }

        /// The Web Services `serverErrorCode` for this code.
        public var serverErrorCode: String {
            switch self {
            case .unknownItem: return "NOT_FOUND"
            case .zoneNotFound: return "ZONE_NOT_FOUND"
            case .serverRecordChanged: return "CONFLICT"
            case .batchRequestFailed: return "ATOMIC_ERROR"
            case .limitExceeded: return "LIMIT_EXCEEDED"
            case .quotaExceeded: return "QUOTA_EXCEEDED"
            case .permissionFailure: return "ACCESS_DENIED"
            case .changeTokenExpired: return "CHANGE_TOKEN_EXPIRED"
            case .internalError, .badDatabase: return "INTERNAL_ERROR"
            case .zoneBusy, .serviceUnavailable: return "TRY_AGAIN_LATER"
            case .requestRateLimited: return "THROTTLED"
            case .constraintViolation, .alreadyShared: return "EXISTS"
            case .notAuthenticated: return "AUTHENTICATION_REQUIRED"
            default: return "BAD_REQUEST"
            }
        }
    }

    public var code: Code
    /// What the failure is, for the front ends to branch on; `message` is for people only.
    public var reason: Reason
    public var message: String
    /// For `serverRecordChanged`: the record as the server holds it.
    public var serverRecord: Record?
    /// For `partialFailure`: the error of each record or zone that failed, by name.
    public var partialErrors: [String: CloudKitError]
    /// For a refused predicate: every problem, with where it is in the format string.
    public var predicateDiagnostics: PredicateDiagnostics?
    /// Seconds to wait before trying again (`CKErrorRetryAfterKey`); nil when the error is not
    /// one a retry fixes.
    public var retryAfter: Double?

    public init(_ code: Code, _ message: String, reason: Reason = .general, serverRecord: Record? = nil, partialErrors: [String: CloudKitError] = [:],
                predicateDiagnostics: PredicateDiagnostics? = nil, retryAfter: Double? = nil) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.message = message
        self.serverRecord = serverRecord
        self.partialErrors = partialErrors
        self.predicateDiagnostics = predicateDiagnostics
    }

    /// `name (number): message`, the form the command line prints.
    public var description: String { "\(code.name) (\(code.rawValue)): \(message)" }
}

extension CloudKitError: LocalizedError {
    public var errorDescription: String? { description }
}

extension CloudKitError.Code {
    /// The code of a Web Services `serverErrorCode`, for a client reading CKWS answers: the
    /// inverse of ``serverErrorCode`` where that is one to one, CloudKit's own mapping elsewhere
    /// (`AUTHENTICATION_FAILED` and `AUTHENTICATION_REQUIRED` are both `notAuthenticated`).
    public init(serverErrorCode: String) {
        switch serverErrorCode {
        case "NOT_FOUND", "UNKNOWN_ITEM": self = .unknownItem
        case "ZONE_NOT_FOUND": self = .zoneNotFound
        case "CONFLICT": self = .serverRecordChanged
        case "ATOMIC_ERROR": self = .batchRequestFailed
        case "LIMIT_EXCEEDED": self = .limitExceeded
        case "QUOTA_EXCEEDED": self = .quotaExceeded
        case "ACCESS_DENIED": self = .permissionFailure
        case "CHANGE_TOKEN_EXPIRED": self = .changeTokenExpired
        case "INTERNAL_ERROR": self = .internalError
        case "TRY_AGAIN_LATER": self = .serviceUnavailable
        case "THROTTLED": self = .requestRateLimited
        case "EXISTS": self = .constraintViolation
        case "AUTHENTICATION_REQUIRED", "AUTHENTICATION_FAILED": self = .notAuthenticated
        case "VALIDATING_REFERENCE_ERROR": self = .referenceViolation
        default: self = .invalidArguments
        }
    }
}
