import Foundation
import StratusEngine
import StratusCloud

/// Decides who a request acts as, as CloudKit does: an API token of the container is always
/// needed; a web auth token signs a user in; without one, only the public database's reads
/// are open (as the `_world` role), and everything else answers `AUTHENTICATION_REQUIRED`
/// with the URL of a page where a user signs in.
struct CKWSAuthenticator {
    let store: Store
    let path: CKWSPath
    /// The host the client reached the server at, for the sign-in URL.
    let host: String
    let cache: CredentialCache
    let sessions: WebSessionPolicy

    /// The signed-in user's record name, or nil for an anonymous public read.
    func user(apiToken: String?, webAuthToken: String?, writes: Bool) throws(CKWSFailure) -> String? {
        guard let apiToken, !apiToken.isEmpty else {
            // CloudKit's words; how to make a token is the command line's to say (`stratus serve --help`).
            throw CKWSFailure.authenticationFailed("no auth method found")
        }
        let apiKey = "\(store.path)\u{0}\(path.container)\u{0}api\u{0}\(apiToken)"
        if cache.lookup(apiKey) == nil {
            guard try checked({ try store.isAPIToken(apiToken, container: path.container) }) else {
                throw CKWSFailure.authenticationFailed("Unknown API token for container \(path.container) in the \(path.environment) environment")
            }
            cache.remember(apiKey, user: "")
        }
        if let webAuthToken, !webAuthToken.isEmpty {
            if sessions.isExpired(webAuthToken) {
                throw required("the session expired (a web auth token lasts \(sessions.lifetimeText)); sign in again")
            }
            let webKey = "\(store.path)\u{0}\(path.container)\u{0}web\u{0}\(webAuthToken)"
            if let user = cache.lookup(webKey) { return user }
            guard let user = try checked({ try store.webAuthUser(webAuthToken, container: path.container) }) else {
                throw required("the web auth token is not valid for container \(path.container); sign in again")
            }
            cache.remember(webKey, user: user)
            return user
        }
        if path.database == "public" && !writes { return nil }
        throw required("request needs authorization")
    }

    /// A store read whose failure is the server's, not the client's.
    private func checked<T>(_ read: () throws -> T) throws(CKWSFailure) -> T {
        do {
            return try read()
        } catch let error as CloudKitError {
            throw CKWSFailure(status: 500, serverErrorCode: "INTERNAL_ERROR", reason: error.message)
        } catch {
            throw CKWSFailure(status: 500, serverErrorCode: "INTERNAL_ERROR", reason: "\(error)")
        }
    }

    /// `AUTHENTICATION_REQUIRED` with the URL of the sign-in page.
    func required(_ reason: String) -> CKWSFailure {
        var components = URLComponents()
        components.path = "/signin"
        components.queryItems = [URLQueryItem(name: "container", value: path.container), URLQueryItem(name: "environment", value: path.environment)]
        let url = "http://\(host)" + (components.string ?? "/signin")
        return CKWSFailure(status: 421, serverErrorCode: "AUTHENTICATION_REQUIRED", reason: reason, redirectURL: url)
    }
}
