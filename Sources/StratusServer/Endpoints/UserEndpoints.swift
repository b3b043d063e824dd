import Foundation
import StratusEngine
import StratusCKWS

/// `users/current` and `users/caller`: who the signed-in user is.
enum UserEndpoints {
    /// The flat user dictionary `users/current` answers (no names: a store's users have none).
    static func current(_ call: CKWSCall) throws -> JSONValue {
        .object([("userRecordName", .string(try signedIn(call)))])
    }

    /// The caller's user identity dictionary, as iCloud answers and CloudKit JS reads it (the
    /// body is the identity); the same identity also under `users`, the wrapper the archived
    /// reference documents, for clients written from it.
    static func caller(_ call: CKWSCall) throws -> JSONValue {
        let user = try signedIn(call)
        let identity: [(String, JSONValue)] = [
            ("userRecordName", .string(user)), ("nameComponents", .object([])),
            ("lookupInfo", .object([("userRecordName", .string(user))])),
        ]
        return .object(identity + [("users", .array([.object(identity)]))])
    }

    /// `users/lookup/id` and `users/discover`: identities of the users asked about that the store
    /// knows (every user of a store is discoverable by user record name); an email or phone
    /// number matches no one (the store keeps none).
    static func lookup(_ call: CKWSCall) throws -> JSONValue {
        _ = try signedIn(call)
        let asked: [JSONValue]
        switch call.body["users"] ?? call.body["lookupInfos"] {
        case .array(let items)?: asked = items
        case nil: asked = []
        default: throw CKWSFailure.badRequest("users (or lookupInfos) must be an array")
        }
        let known = Set(try call.store.users().map(\.recordName))
        let found = asked.compactMap { item -> JSONValue? in
            guard let name = item["userRecordName"]?.stringValue, known.contains(name) else { return nil }
            return .object([("userRecordName", .string(name)), ("nameComponents", .object([])),
                            ("lookupInfo", .object([("userRecordName", .string(name))]))])
        }
        return .object([("users", .array(found))])
    }

    /// `users/lookup/contacts`: the users in the caller's address book. In a local store every
    /// user knows every other: all of them but the caller.
    static func contacts(_ call: CKWSCall) throws -> JSONValue {
        let caller = try signedIn(call)
        return .object([("users", .array(try call.store.users().filter { $0.recordName != caller }.map { user in
            .object([("userRecordName", .string(user.recordName)), ("nameComponents", .object([("nickname", .string(user.alias))])),
                     ("lookupInfo", .object([("userRecordName", .string(user.recordName))]))])
        }))])
    }

    private static func signedIn(_ call: CKWSCall) throws -> String {
        guard let user = call.user else { throw CKWSFailure(status: 421, serverErrorCode: "AUTHENTICATION_REQUIRED", reason: "request needs authorization") }
        return user
    }
}
