import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS

/// A whole-request error as CloudKit Web Services sends it: an HTTP status and
/// `{"uuid", "serverErrorCode", "reason", "retryAfter"?, "redirectURL"?}`.
struct CKWSFailure: Error, Sendable {
    var status: Int
    var serverErrorCode: String
    var reason: String
    var retryAfter: Int? = nil
    var redirectURL: String? = nil

    static func badRequest(_ reason: String) -> CKWSFailure { CKWSFailure(status: 400, serverErrorCode: "BAD_REQUEST", reason: reason) }
    static func notFound(_ reason: String) -> CKWSFailure { CKWSFailure(status: 404, serverErrorCode: "NOT_FOUND", reason: reason) }
    static func authenticationFailed(_ reason: String) -> CKWSFailure {
        CKWSFailure(status: 401, serverErrorCode: "AUTHENTICATION_FAILED", reason: reason)
    }

    /// A CloudKit error of the whole request, with the status CKWS gives its code.
    init(_ error: CloudKitError) {
        self.init(status: CKWSFailure.status(of: error.code.serverErrorCode), serverErrorCode: error.code.serverErrorCode, reason: error.message,
                  retryAfter: ItemErrorJSON.wholeSeconds(error.retryAfter))
    }

    init(status: Int, serverErrorCode: String, reason: String, retryAfter: Int? = nil, redirectURL: String? = nil) {
        self.status = status
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
    }

    /// The HTTP status CKWS sends with each `serverErrorCode` (the CKWS error table).
    static func status(of code: String) -> Int {
        switch code {
        case "ACCESS_DENIED": return 403
        case "AUTHENTICATION_FAILED": return 401
        case "AUTHENTICATION_REQUIRED": return 421
        case "CONFLICT", "EXISTS": return 409
        case "INTERNAL_ERROR": return 500
        case "NOT_FOUND", "ZONE_NOT_FOUND": return 404
        case "QUOTA_EXCEEDED": return 413
        case "THROTTLED": return 429
        case "TRY_AGAIN_LATER": return 503
        case "VALIDATING_REFERENCE_ERROR": return 412
        default: return 400
        }
    }

    func json(uuid: String) -> JSONValue {
        var members: [(String, JSONValue)] = [("uuid", .string(uuid)), ("serverErrorCode", .string(serverErrorCode)), ("reason", .string(reason))]
        if let retryAfter { members.append(("retryAfter", .integer(Int64(retryAfter)))) }
        if let redirectURL { members.append(("redirectURL", .string(redirectURL))) }
        return .object(members)
    }
}

extension CloudKitError {
    /// A per-item error dictionary (`records[]`, `zones[]`, `subscriptions[]`) as iCloud
    /// answers it, named by the item's key; a conflict's server record names its zone's owner
    /// (`owner`, the caller, for their own zones) as every other record of the answer does.
    func ckwsItem(_ key: (String, JSONValue), owner: String? = nil) -> JSONValue {
        ItemErrorJSON.encode(self, item: [key], layout: .reasonFirst, owner: owner)
    }
}
