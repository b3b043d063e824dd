import Foundation
import Hummingbird
import StratusEngine
import StratusCloud
import StratusCKWS

/// `tokens/create` and `tokens/register`, and the web courier: a registered token's outbox of
/// the push payloads its user's subscriptions made, read one at a time by long polling.
enum PushEndpoints {
    /// `{"apnsEnvironment"}` -> a new token and its web courier URL.
    static func create(_ call: CKWSCall) throws -> JSONValue {
        let user = try signedIn(call)
        let environment = call.body["apnsEnvironment"]?.stringValue ?? "development"
        guard environment == "development" || environment == "production" else {
            throw CKWSFailure.badRequest("apnsEnvironment must be development or production")
        }
        let token = try call.store.makePushToken(container: call.path.container, user: user, apnsEnvironment: environment)
        return .object([("apnsEnvironment", .string(environment)), ("apnsToken", .string(token.token)),
                        ("webcourierURL", .string(courierURL(token.token, call: call)))])
    }

    /// `{"apnsEnvironment", "apnsToken"}` -> registered: the user's notifications now go to it.
    static func register(_ call: CKWSCall) throws -> JSONValue {
        let user = try signedIn(call)
        guard let token = call.body["apnsToken"]?.stringValue else { throw CKWSFailure.badRequest("apnsToken: missing") }
        guard try call.store.registerPushToken(token, user: user) else {
            throw CKWSFailure.badRequest("apnsToken is not a token of this user; make one with tokens/create")
        }
        return .object([("apnsEnvironment", .string(call.body["apnsEnvironment"]?.stringValue ?? "development")), ("apnsToken", .string(token))])
    }

    static func courierURL(_ token: String, call: CKWSCall) -> String {
        let escaped = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
        return "http://\(call.host)/push/\(call.path.container)/\(call.path.environment)/\(escaped)"
    }

    /// The payloads of a token's user's notifications after `sequence`, oldest first, with the
    /// sequence of each.
    static func outbox(_ token: PushToken, store: Store, after sequence: Int64, limit: Int) throws -> [(Int64, JSONValue)] {
        var all: [CloudNotification] = []
        for scope in DatabaseScope.allCases {
            all += try store.database(scope, user: token.user).notifications(afterSequence: sequence, limit: limit, includingOwnDevice: true)
        }
        return all.sorted { $0.sequence < $1.sequence }.prefix(limit).map {
            ($0.sequence, PushPayload.json(for: $0, container: token.container, owner: token.user))
        }
    }

    private static func signedIn(_ call: CKWSCall) throws -> String {
        guard let user = call.user else { throw CKWSFailure(status: 421, serverErrorCode: "AUTHENTICATION_REQUIRED", reason: "request needs authorization") }
        return user
    }
}

/// `GET /push/CONTAINER/ENVIRONMENT/TOKEN`: the next payload of a token's outbox, waiting up
/// to `wait` seconds (default 25) for one. A token is pollable as soon as `tokens/create` makes
/// it (CloudKit JS registers only on later visits). A poll that ends with nothing, or because
/// the server is stopping, answers ``idleAnswer``; `/outbox` after the token lists every payload
/// since the token was made, delivered or not.
struct WebCourier: Sendable {
    let stores: StoreDirectory
    let polls: LongPolls

    /// What an idle poll answers: a push payload that names no change. CloudKit JS reads every
    /// poll's body as JSON and looks in its `ck` for a notification; this one it reads as none,
    /// quietly, and polls again.
    static let idleAnswer: JSONValue = .object([("ck", .object([]))])

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let uuid = RequestUUID.make()
        let parts = request.uri.path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        do {
            guard parts.count == 4 || (parts.count == 5 && parts[4] == "outbox") else { throw CKWSFailure.notFound("No web courier at \(request.uri.path)") }
            let stores = self.stores, container = parts[1], environment = parts[2], id = parts[3]
            let (store, token) = try await CKWSResponder.offload {
                let store = try stores.store(container: container, environment: environment)
                guard let token = try store.pushToken(id), token.container == container else { throw CKWSFailure.notFound("Unknown push token") }
                return (store, token)
            }
            if parts.count == 5 {
                let payloads = try await CKWSResponder.offload { try PushEndpoints.outbox(token, store: store, after: token.startSequence, limit: 1000) }
                return CKWSResponder.response(status: .ok, body: .object([("registered", .bool(token.isRegistered)),
                                                                          ("payloads", .array(payloads.map(\.1)))]), uuid: uuid)
            }
            let wait = min(max(Double(request.uri.queryParameters["wait"].map(String.init) ?? "") ?? 25, 0), 60)
            let deadline = Date().addingTimeInterval(wait)
            polls.opened()
            defer { polls.closed() }
            // Read when a notification may have come: at once on PostgreSQL (another server's
            // commit announces it), every 250 ms on a file.
            let watch = try await CKWSResponder.offload { store.watch([.notifications], polling: .milliseconds(250)) }
            var due = true
            repeat {
                if !due {
                    try await Task.sleep(for: .milliseconds(50))
                    due = watch.isDue()
                    continue
                }
                due = false
                let next = try await CKWSResponder.offload { () -> (Int64, JSONValue)? in
                    let current = try store.pushToken(id)?.deliveredSequence ?? token.deliveredSequence
                    guard let first = try PushEndpoints.outbox(token, store: store, after: current, limit: 1).first else { return nil }
                    try store.markPushDelivered(id, upTo: first.0)
                    return first
                }
                if let next { return CKWSResponder.response(status: .ok, body: next.1, uuid: uuid) }
            } while Date() < deadline && !polls.isStopping
            return CKWSResponder.response(status: .ok, body: WebCourier.idleAnswer, uuid: uuid)
        } catch let failure as CKWSFailure {
            return CKWSResponder.response(status: .init(code: failure.status), body: failure.json(uuid: uuid), uuid: uuid)
        }
    }
}
