import Foundation
import StratusEngine

/// How long a signed-in session's web auth token lasts and how often a new one is handed out,
/// as iCloud does: a token from the sign-in page expires after 30 minutes, and answers carry a
/// replacement (`X-Apple-CloudKit-Web-Auth-Token`, `X-Apple-CloudKit-Session`) so a client
/// that keeps the newest one stays signed in while it is active.
///
/// Tokens `stratus auth login` prints carry no issue time: they never expire and are repeated
/// as they are, for scripts.
public struct WebSessionPolicy: Sendable {
    /// A session token older than this is refused with `AUTHENTICATION_REQUIRED`.
    public var lifetime: TimeInterval
    /// A session token at least this old is replaced in the answer (0: on every answer).
    public var rotationInterval: TimeInterval

    public init(lifetime: TimeInterval = 30 * 60, rotationInterval: TimeInterval = 60) {
        self.lifetime = lifetime
        self.rotationInterval = rotationInterval
    }

    /// The lifetime in words, for the message of an expired session.
    var lifetimeText: String {
        lifetime >= 120 ? "\(Int(lifetime / 60)) minutes" : "\(Int(lifetime)) seconds"
    }

    /// Whether `token` is a session token past its lifetime at `now`.
    func isExpired(_ token: String, now: Date = Date()) -> Bool {
        guard let issued = Store.sessionIssued(token) else { return false }
        return now.timeIntervalSince(issued) >= lifetime
    }

    /// The token the answer hands back: a new session token when `token` is one old enough to
    /// replace, else `token` itself. A read-only store (a PostgreSQL replica) cannot keep a new
    /// token, so its answers hand back the one they got rather than fail.
    func replacement(for token: String, user: String, container: String, store: Store, now: Date = Date()) throws -> String {
        guard !store.isReadOnly, let issued = Store.sessionIssued(token), now.timeIntervalSince(issued) >= rotationInterval else { return token }
        return try store.makeSessionToken(container: container, user: user, issuedAt: now)
    }
}
