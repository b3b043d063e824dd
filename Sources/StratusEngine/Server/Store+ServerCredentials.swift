import Foundation
import StratusCloud

/// The credentials the CloudKit Web Services server accepts, kept in the store they open: API
/// tokens per container (64 hex digits, as CloudKit mints them and MistKit checks), and web
/// auth tokens, each naming the user it signs in.
///
/// A token is stored as its SHA-256, so a copy of the store file does not hand out sessions.
extension Store {
    /// What a server credential is.
    public enum CredentialKind: String, Sendable {
        case apiToken = "api"
        case webAuthToken = "web"
    }

    /// The container name of credentials good for every container a store serves.
    public static let anyContainer = "*"

    /// Makes an API token for `container` (``anyContainer`` for all) and returns it (64
    /// lower-case hex digits). Only its digest is kept: print it now, it cannot be read back.
    public func makeAPIToken(container: String) throws -> String {
        let token = Store.randomHex(bytes: 32)
        try insertCredential(token, kind: .apiToken, container: container, user: nil)
        return token
    }

    /// Makes a web auth token that signs `user` in to `container`, in the shape CloudKit's
    /// have (`<partition>__<n>__<blob>`), URL-safe.
    public func makeWebAuthToken(container: String, user: String) throws -> String {
        let token = "158__54__" + Store.randomHex(bytes: 24)
        try insertCredential(token, kind: .webAuthToken, container: container, user: user)
        return token
    }

    /// Makes a web auth token for a sign-in session (the sign-in page, a rotation): the time it
    /// was issued is part of the token (`158__t<epoch seconds>__<blob>`), so a server can
    /// expire it without another read; the stored digest covers that time, so it cannot be
    /// changed. Tokens of ``makeWebAuthToken(container:user:)`` carry no time and never expire.
    public func makeSessionToken(container: String, user: String, issuedAt: Date = Date()) throws -> String {
        let token = "158__t\(Int64(issuedAt.timeIntervalSince1970))__" + Store.randomHex(bytes: 24)
        try insertCredential(token, kind: .webAuthToken, container: container, user: user)
        return token
    }

    /// When a session token (``makeSessionToken(container:user:issuedAt:)``) was issued; nil
    /// for a token without a time, which never expires.
    public static func sessionIssued(_ token: String) -> Date? {
        let parts = token.components(separatedBy: "__")
        guard parts.count == 3, parts[1].hasPrefix("t"), let seconds = Int64(parts[1].dropFirst()) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Whether `token` is an API token of `container`.
    public func isAPIToken(_ token: String, container: String) throws -> Bool {
        try credential(token, kind: .apiToken, container: container) != nil
    }

    /// The user a web auth token of `container` signs in, or nil when it is not one.
    public func webAuthUser(_ token: String, container: String) throws -> String? {
        try credential(token, kind: .webAuthToken, container: container) ?? nil
    }

    /// Registers the public half (PEM) of a server-to-server key for `container` and returns
    /// its key ID. Requests signed with the key act as `user`, the developer who made it.
    public func addServerKey(publicKeyPEM: String, container: String, user: String) throws -> String {
        let keyID = Store.randomHex(bytes: 32)
        try write { db in
            try db.server.insertServerKey(keyID: keyID, container: container, publicKeyPEM: publicKeyPEM, user: user,
                                          createdAt: Int64(Date().timeIntervalSince1970 * 1000))
        }
        return keyID
    }

    /// The public key (PEM) and user of a server-to-server key of `container`, or nil.
    public func serverKey(_ keyID: String, container: String) throws -> (publicKeyPEM: String, user: String)? {
        try read { db in try db.server.serverKey(keyID: keyID, container: container, anyContainer: Store.anyContainer) }
    }

    private func insertCredential(_ token: String, kind: CredentialKind, container: String, user: String?) throws {
        try write { db in
            try db.server.insertCredential(digest: SHA256.hexDigest(Data(token.utf8)), kind: kind.rawValue, container: container, user: user,
                                           createdAt: Int64(Date().timeIntervalSince1970 * 1000))
        }
    }

    /// nil when there is no such credential; `.some(user)` when there is (the user nil for an
    /// API token).
    private func credential(_ token: String, kind: CredentialKind, container: String) throws -> String?? {
        try read { db in
            try db.server.credentialUser(digest: SHA256.hexDigest(Data(token.utf8)), kind: kind.rawValue, container: container,
                                         anyContainer: Store.anyContainer)
        }
    }

    private static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
