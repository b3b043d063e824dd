import Foundation
import StratusCloud

/// What the CloudKit Web Services server keeps in the store it serves: its credentials (API and
/// web auth tokens, kept as digests; server-to-server keys), its request log (the newest entries
/// only) and the push tokens it hands out.
package protocol ServerStorage {
    /// Keeps a credential by its token's digest; `user` is nil for an API token.
    func insertCredential(digest: String, kind: String, container: String, user: String?, createdAt: Int64) throws

    /// nil when no credential of `kind` has this digest in `container` or `anyContainer`;
    /// `.some(user)` when one has (the user nil for an API token).
    func credentialUser(digest: String, kind: String, container: String, anyContainer: String) throws -> String??

    /// Keeps the public half (PEM) of a server-to-server key.
    func insertServerKey(keyID: String, container: String, publicKeyPEM: String, user: String, createdAt: Int64) throws

    /// The public key (PEM) and user of a server-to-server key of `container` or `anyContainer`.
    func serverKey(keyID: String, container: String, anyContainer: String) throws -> (publicKeyPEM: String, user: String)?

    /// Appends entries (with their bodies, when they carry them) and drops the oldest beyond
    /// the newest `keeping`, and bodies beyond the newest `keepingBodies`.
    func appendToRequestLog(_ entries: [RequestLogEntry], keeping: Int64, keepingBodies: Int64) throws

    /// The bodies kept for the logged request `id`.
    func requestBodies(of id: Int64) throws -> RequestBodies?

    /// Log entries after `id` (nil: the newest `limit`), oldest first.
    func requestLog(after id: Int64?, limit: Int) throws -> [RequestLogEntry]

    /// Keeps a new, unregistered push token whose outbox starts after the notifications that
    /// exist now; returns it.
    func insertPushToken(_ token: String, container: String, user: String, apnsEnvironment: String, createdAt: Int64) throws -> PushToken

    /// Registers `user`'s token; false when the token is unknown or another user's.
    func registerPushToken(_ token: String, user: String) throws -> Bool

    func pushToken(_ token: String) throws -> PushToken?

    /// Records that a token's outbox was read up to `sequence` (it never moves back).
    func markPushDelivered(_ token: String, upTo sequence: Int64) throws
}
