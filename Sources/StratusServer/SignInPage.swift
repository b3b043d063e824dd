import Foundation
import Hummingbird
import StratusEngine
import StratusCloud
import StratusCKWS

/// The page a client's `redirectURL` opens, standing in for Apple's sign-in: it lists the
/// store's users, signs in the one picked (`user=ALIAS`) and hands the web auth token back the
/// ways Apple's page does: to the opener window (`postMessage({ckSession, ckWebAuthToken})`:
/// CloudKit JS reads `ckSession`, older scripts `ckWebAuthToken`) or to a callback URL
/// (`?ckWebAuthToken=`), and shows it.
struct SignInPage: Sendable {
    let stores: StoreDirectory

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let parameters = request.uri.queryParameters
        let container = parameters["container"].map(String.init) ?? ""
        let environment = parameters["environment"].map(String.init) ?? "development"
        let callback = parameters["callback"].map(String.init)
        let picked = parameters["user"].map(String.init)
        let stores = self.stores
        do {
            let (users, token) = try await CKWSResponder.offload { () throws -> ([StoreUser], (String, String)?) in
                let store = try stores.store(container: container, environment: environment)
                guard request.method == .post else { return (try store.users(), nil) }
                let user: StoreUser
                do {
                    user = try store.user(named: picked ?? store.owner)
                } catch let error as CloudKitError {
                    throw CKWSFailure(status: 400, serverErrorCode: "BAD_REQUEST", reason: error.message)
                }
                return ([user], (user.alias, try store.makeSessionToken(container: container, user: user.recordName)))
            }
            guard let (user, token) = token else { return page(form(container: container, environment: environment, users: users, callback: callback)) }
            // Only back to this machine: CloudKit sends the token only to the callback registered
            // with the API token, and a local server has no registration to check against.
            if let callback, var components = URLComponents(string: callback), components.scheme == "http" || components.scheme == "https",
               SignInPage.loopbackHosts.contains(components.host ?? "") {
                // Both names, as Apple's redirect carries them; `+` `/` `=` encoded, so the query
                // gives the token back as it is.
                let pairs = ["ckWebAuthToken", "ckSession"].map { "\($0)=\(SignInPage.queryEncoded(token))" }
                components.percentEncodedQuery = ((components.percentEncodedQuery.map { [$0] } ?? []) + pairs).joined(separator: "&")
                if let url = components.string {
                    var headers = HTTPFields()
                    headers[.location] = url
                    return Response(status: .seeOther, headers: headers)
                }
            }
            return page(signedIn(token: token, user: user))
        } catch let failure as CKWSFailure {
            return page("<p>\(escape(failure.reason))</p>", status: .init(code: failure.status))
        }
    }

    /// `text` for a query string: only unreserved characters stay as they are.
    static func queryEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? text
    }

    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]

    /// One button per user of the store: the one pressed signs in.
    private func form(container: String, environment: String, users: [StoreUser], callback: String?) -> String {
        let hidden = [("container", container), ("environment", environment)] + (callback.map { [("callback", $0)] } ?? [])
        let buttons = users.map { user -> String in
            let query = (hidden + [("user", user.alias)])
                .map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
            let label = user.isOwner ? "\(user.alias) (the store's owner)" : user.alias
            return "<form method=\"post\" action=\"/signin?\(escape(query))\"><button type=\"submit\">Sign in as \(escape(label))</button> <code>\(escape(user.recordName))</code></form>"
        }
        return """
            <h1>Sign in to \(escape(container))</h1>
            <p>Pick the user to act as (\(escape(environment)) environment); `stratus users create ALIAS` makes more.</p>
            \(buttons.joined(separator: "\n"))
            """
    }

    private func signedIn(token: String, user: String) -> String {
        let json = JSONWriter.string(.string(token))
        return """
            <h1>Signed in</h1>
            <p>Signed in as <code>\(escape(user))</code>. Your ckWebAuthToken:</p>
            <pre id="token">\(escape(token))</pre>
            <script>if (window.opener) { window.opener.postMessage({ckSession: \(json), ckWebAuthToken: \(json)}, "*"); }</script>
            """
    }

    private func page(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=UTF-8"
        let html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Stratus sign-in</title></head><body>\(body)</body></html>"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
