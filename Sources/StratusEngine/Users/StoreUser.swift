import Foundation
import StratusCloud

/// A user of a store: the user record name CloudKit knows them by, and an alias people type.
public struct StoreUser: Hashable, Sendable {
    /// `_` and 32 lower-case hex digits, as CloudKit's user record names.
    public var recordName: String
    /// A short readable name, unique in the store (`alice`); the owner's is `owner`.
    public var alias: String
    /// The schema's custom roles this user holds in the public database, sorted.
    public var roles: [String]
    public var createdAt: Date
    /// Whether this is the store's owner, who acts when no user is named.
    public var isOwner: Bool

    /// Whether `text` has the form of a user record name.
    public static func isRecordName(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 33, scalars[0] == "_" else { return false }
        return scalars.dropFirst().allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// A new random user record name.
    public static func makeRecordName() -> String {
        "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// What is wrong with a new alias, or nil when it is fine.
    public static func aliasProblem(_ alias: String) -> String? {
        if alias.isEmpty { return "A user alias cannot be empty." }
        if alias.count > 64 { return "User alias '\(alias)' is \(alias.count) characters long; the limit is 64." }
        if alias.lowercased() == "none" { return "'none' stands for no user; pick another alias." }
        if alias.hasPrefix("_") { return "User aliases cannot start with '_' (user record names do)." }
        guard alias.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.".unicodeScalars.contains($0) }) else {
            return "User alias '\(alias)' may hold only letters, digits, '-', '_' and '.'."
        }
        return nil
    }

    /// Every stored property: a storage backend makes these from its rows.
    package init(recordName: String, alias: String, roles: [String], createdAt: Date, isOwner: Bool) {
        self.recordName = recordName
        self.alias = alias
        self.roles = roles
        self.createdAt = createdAt
        self.isOwner = isOwner
    }
}
