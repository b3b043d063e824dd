import Foundation
import NIOHTTP1
import StratusCKWS
import StratusCloud
import StratusEngine
import Synchronization

/// A CloudKit Web Services client for one container: each call is one CKWS operation, its body
/// and answer written and read by `StratusCKWS`, its failures `CloudKitError`s with typed reasons.
///
/// Calls of one client are serialized: a session's web auth token rotates with every answer,
/// and the next request must carry the newest one, kept (``SessionTokenKeeper``) before it is
/// used. Throttling is waited out under ``RetryPolicy``.
public final class CKWSClient: Sendable {
    /// The remote's name, for the errors that tell a person what to type next.
    public let name: String
    public let endpoint: RemoteEndpoint
    private let retry: RetryPolicy
    private let keeper: (any SessionTokenKeeper)?
    /// Who waits out throttling; nil sleeps on the calling thread.
    private let waiter: (any ThrottleWaiter)?
    private let transport = CKWSTransport()
    private let session: Mutex<RemoteCredentials>

    /// A wait the client is about to make on a throttled answer, for a front end to show.
    public typealias RetryWait = ThrottleWait

    /// `waiter` is told of each wait on a throttled answer and waits it out (nil: a sleep).
    public init(name: String, endpoint: RemoteEndpoint, credentials: RemoteCredentials, keeper: (any SessionTokenKeeper)? = nil,
                retry: RetryPolicy = RetryPolicy(), waiter: (any ThrottleWaiter)? = nil) {
        self.name = name
        self.waiter = waiter
        self.endpoint = endpoint
        self.session = Mutex(credentials)
        self.keeper = keeper
        self.retry = retry
    }

    /// The content at an asset's `downloadURL` (iCloud's carry a `${f}` for a file name to put
    /// in). The URL is signed by the server, so no token is added to it.
    public func download(_ url: String) throws -> Data {
        let answer = try transport.get(url.replacingOccurrences(of: "${f}", with: "asset"), server: endpoint.url)
        guard answer.status == 200 else {
            throw failure(Answer(status: answer.status, body: answer.body))
        }
        return Data(answer.body)
    }

    /// The credentials now (with the newest web auth token).
    public var credentials: RemoteCredentials { session.withLock { $0 } }

    /// What a CKWS server answered: its HTTP status and its body.
    public struct Answer: Sendable {
        public var status: Int
        public var body: [UInt8]
        /// The body's JSON; `{}` for an empty or non-JSON body (a proxy's page).
        public var json: JSONValue { CKWSClient.json(body) }
    }

    /// Runs `DATABASE/OPERATION` (`database` nil for the endpoints that name none) and returns
    /// its JSON; a whole-request error is thrown as the `CloudKitError` it stands for.
    public func call(_ database: String?, _ operation: String, body: JSONValue = .object([])) throws -> JSONValue {
        CKWSClient.json(try answerBody(database, operation, body: body))
    }

    /// Like ``call(_:_:body:)``, but hands back the answer's bytes, for a reader that takes
    /// them without a tree (``RecordsAnswer``).
    public func answerBody(_ database: String?, _ operation: String, body: JSONValue = .object([])) throws -> [UInt8] {
        let answer = try exchange(database, operation, body: body)
        guard answer.status == 200 else { throw failure(answer) }
        return answer.body
    }

    /// Like ``call(_:_:body:)`` but hands back any answer, errors included, for the callers that
    /// read an error's own members (sign-in reads `redirectURL`). `signedIn: false` leaves the
    /// web auth token out.
    public func exchange(_ database: String?, _ operation: String, body: JSONValue = .object([]), signedIn: Bool = true) throws -> Answer {
        let bytes = JSONWriter.bytes(body)
        let path = endpoint.path(database: database, operation: operation)
        return try session.withLock { credentials throws -> Answer in
            var waited = 0
            var reloaded = false
            while true {
                let (url, headers) = try request(path: path, database: database, body: bytes, credentials: credentials, signedIn: signedIn)
                let raw = try transport.post(url, headers: headers, body: bytes, server: endpoint.url)
                if let next = CKWSClient.rotatedToken(raw.headers), signedIn, credentials.webAuthToken != nil, next != credentials.webAuthToken {
                    // Kept before anything else can use the session: a later process starts from it.
                    try keeper?.keep(webAuthToken: next)
                    credentials.webAuthToken = next
                }
                let answer = Answer(status: raw.status, body: raw.body)
                if raw.status == 429 || raw.status == 503, waited < retry.attempts,
                   let seconds = answer.json["retryAfter"]?.doubleValue ?? raw.headers.first(name: "Retry-After").flatMap(Double.init),
                   seconds <= retry.longestWait {
                    waited += 1
                    let code = answer.json["serverErrorCode"]?.stringValue ?? "HTTP \(raw.status)"
                    waiter?.willWait(RetryWait(code: code, seconds: seconds, attempt: waited, attempts: retry.attempts))
                    if let waiter {
                        // Stopped (Esc in the dashboard): the throttling error is the answer.
                        guard waiter.wait(seconds: max(0, seconds)) else { return answer }
                    } else {
                        Thread.sleep(forTimeInterval: max(0, seconds))
                    }
                    continue
                }
                // Signed out, but signed in again since (`remote login` in another process): the
                // kept token is taken once, and the request sent again with it.
                if answer.status == 421, signedIn, !reloaded, let kept = keeper?.keptWebAuthToken(), kept != credentials.webAuthToken {
                    reloaded = true
                    credentials.webAuthToken = kept
                    continue
                }
                return answer
            }
        }
    }

    /// The URL (tokens in its query, encoded) and headers of one request.
    private func request(path: String, database: String?, body: [UInt8], credentials: RemoteCredentials,
                         signedIn: Bool) throws -> (String, HTTPHeaders) {
        var headers = HTTPHeaders([("Content-Type", "application/json; charset=utf-8"), ("Accept", "application/json")])
        var query: [String] = []
        let token = signedIn ? credentials.webAuthToken : nil
        if token == nil, database == "public" || credentials.apiToken == nil, let keyID = credentials.keyID, let pem = credentials.privateKeyPEM {
            guard database == "public" else {
                throw CloudKitError(.notAuthenticated, "a server-to-server key reaches the public database only", reason: .remoteCredentialMissing(remote: name))
            }
            for (header, value) in try ServerKeySigner(keyID: keyID, privateKeyPEM: pem).headers(path: path, body: body) {
                headers.add(name: header, value: value)
            }
        } else {
            guard let apiToken = credentials.apiToken else {
                throw CloudKitError(.notAuthenticated, "no API token or server-to-server key is set for remote '\(name)'",
                                    reason: .remoteCredentialMissing(remote: name))
            }
            query.append("ckAPIToken=" + CKWSClient.encoded(apiToken))
            if let token { query.append("ckWebAuthToken=" + CKWSClient.encoded(token)) }
        }
        return (endpoint.url + path + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), headers)
    }

    /// The error an answer other than 200 stands for. Authentication failures name the remote,
    /// so the advice says which to sign in to again; the server's reason is kept as its words.
    public func failure(_ answer: Answer) -> CloudKitError {
        let json = answer.json
        guard var error = ItemErrorJSON.decode(json) else {
            return CloudKitError(answer.status >= 500 ? .serviceUnavailable : .serverRejectedRequest,
                                 "\(endpoint.url) answered HTTP \(answer.status) without a CloudKit error", reason: .remoteUnreachable(url: endpoint.url))
        }
        switch json["serverErrorCode"]?.stringValue {
        case "AUTHENTICATION_REQUIRED": error.reason = .remoteSignInRequired(remote: name)
        case "AUTHENTICATION_FAILED": error.reason = .remoteCredentialRejected(remote: name)
        default: break
        }
        return error
    }

    /// The session's next token, under either name iCloud's answers have used.
    static func rotatedToken(_ headers: HTTPHeaders) -> String? {
        let value = headers.first(name: "X-Apple-CloudKit-Web-Auth-Token") ?? headers.first(name: "X-Apple-CloudKit-Session")
        return value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// An answer's JSON; an empty or non-JSON body (a proxy's page) is `{}`.
    static func json(_ bytes: [UInt8]) -> JSONValue {
        guard !bytes.isEmpty, let json = try? JSONParser.parse(utf8: bytes) else { return .object([]) }
        return json
    }

    /// A token for a query string: `+`, `/` and `=` (and every byte not unreserved) encoded.
    /// Byte by byte: Foundation's `addingPercentEncoding` went through `CFString` for each of a
    /// request's two tokens, a fifth of the client's own work for a request.
    static func encoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
