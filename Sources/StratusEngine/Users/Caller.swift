import StratusCloud

/// Who an operation acts as: a signed-in user, or nobody.
///
/// CloudKit gives a caller with no iCloud user (a Web Services request with only an API token,
/// an app whose device is signed out) the public database's `_world` role and nothing else.
public enum Caller: Hashable, Sendable, CustomStringConvertible {
    /// A user, by user record name (`_` and 32 hex digits).
    case user(String)
    /// No user: only what the `_world` role allows in the public database.
    case anonymous

    /// The user record name, or nil for no user.
    public var userRecordName: String? {
        if case .user(let name) = self { return name }
        return nil
    }

    public var description: String { userRecordName ?? "no user" }
}
