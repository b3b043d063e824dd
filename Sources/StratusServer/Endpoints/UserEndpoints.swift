import Foundation
import StratusEngine

/// `users/current` and `users/caller`: who the signed-in user is.
enum UserEndpoints {
    /// The flat user dictionary `users/current` answers (no names: a store's users have none).
    static func current(_ call: CKWSCall) throws -> JSONValue {
        .object([("userRecordName", .string(try signedIn(call)))])
    }

    /// `{"users": [identity]}`, the caller's user identity.
    static func caller(_ call: CKWSCall) throws -> JSONValue {
        let user = try signedIn(call)
        return .object([("users", .array([.object([
            ("userRecordName", .string(user)), ("nameComponents", .object([])),
            ("lookupInfo", .object([("userRecordName", .string(user))])),
        ])]))])
    }

    private static func signedIn(_ call: CKWSCall) throws -> String {
        guard let user = call.user else { throw CKWSFailure(status: 421, serverErrorCode: "AUTHENTICATION_REQUIRED", reason: "request needs authorization") }
        return user
    }
}
