/// What a client signs in with to a remote container. Secrets: never printed, logged or put in
/// an error (``RemoteCredentials/masked(_:)`` shows a few characters).
public struct RemoteCredentials: Sendable, Hashable {
    /// The container's API token (`ckAPIToken`), for requests that are not signed with a key.
    public var apiToken: String?
    /// The signed-in user's web auth token, replaced by each answer that carries a new one.
    public var webAuthToken: String?
    /// A server-to-server key: its ID and its private key (PEM). Reaches the public database.
    public var keyID: String?
    public var privateKeyPEM: String?

    public init(apiToken: String? = nil, webAuthToken: String? = nil, keyID: String? = nil, privateKeyPEM: String? = nil) {
        self.apiToken = apiToken
        self.webAuthToken = webAuthToken
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }

    /// A secret for people: its first four characters and an ellipsis.
    public static func masked(_ secret: String?) -> String {
        guard let secret, !secret.isEmpty else { return "(none)" }
        return String(secret.prefix(4)) + "…"
    }
}

/// Keeps a session's newest web auth token where the next process finds it (the credentials
/// file), before the next request of the session uses it.
public protocol SessionTokenKeeper: Sendable {
    func keep(webAuthToken: String) throws
    /// The web auth token kept now: a `remote login` in another process may have replaced the
    /// one a long-running client (the dashboard) started with. nil when none is kept.
    func keptWebAuthToken() -> String?
}

extension SessionTokenKeeper {
    public func keptWebAuthToken() -> String? { nil }
}
