import StratusEngine

/// Credentials the server has already found good: tokens are never revoked while it runs, so
/// each is read from its store once, not on every request. Only good ones are kept (a bad one
/// is read again, and refused again).
final class CredentialCache: Sendable {
    private let known = LockedValue<[String: String]>([:])
    static let limit = 10_000

    /// The user a credential signs in ("" for an API token), if it was found good before.
    func lookup(_ key: String) -> String? {
        known.withLock { $0[key] }
    }

    func remember(_ key: String, user: String) {
        known.withLock { all in
            if all.count >= Self.limit { all.removeAll() }
            all[key] = user
        }
    }
}
