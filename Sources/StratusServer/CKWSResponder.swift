import Foundation
import Hummingbird
import NIOCore
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// Answers CloudKit Web Services requests: reads the path, the credentials and the JSON body,
/// runs the endpoint on the engine (off the event loop: SQLite calls block), and writes the
/// JSON CloudKit would, with its headers.
struct CKWSResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let stores: StoreDirectory
    let maximumBodyBytes: Int
    let tickets: AssetTickets
    let logger: RequestLogger
    let sessions: WebSessionPolicy
    /// Credentials already checked, so a request costs no store reads for them.
    let credentials = CredentialCache()

    /// Endpoints by operation; the database each allows and whether it writes.
    private struct Endpoint {
        var databases: Set<String>
        var writes: Bool
        var run: @Sendable (CKWSCall) throws -> CKWSAnswer

        init(databases: Set<String>, writes: Bool, run: @escaping @Sendable (CKWSCall) throws -> JSONValue) {
            self.init(databases: databases, writes: writes, answer: { CKWSAnswer(try run($0)) })
        }

        init(databases: Set<String>, writes: Bool, answer: @escaping @Sendable (CKWSCall) throws -> CKWSAnswer) {
            self.databases = databases
            self.writes = writes
            self.run = answer
        }
    }

    private static let endpoints: [String: Endpoint] = [
        "records/query": Endpoint(databases: ["public", "private", "shared"], writes: false, answer: RecordEndpoints.query),
        "records/lookup": Endpoint(databases: ["public", "private", "shared"], writes: false, answer: RecordEndpoints.lookup),
        "records/modify": Endpoint(databases: ["public", "private", "shared"], writes: true, answer: ModifyEndpoint.modify),
        "records/changes": Endpoint(databases: ["private", "shared"], writes: false, answer: RecordEndpoints.changes),
        "zones/list": Endpoint(databases: ["public", "private", "shared"], writes: false, run: ZoneEndpoints.list),
        "zones/lookup": Endpoint(databases: ["public", "private", "shared"], writes: false, run: ZoneEndpoints.lookup),
        "zones/modify": Endpoint(databases: ["private"], writes: true, run: ZoneEndpoints.modify),
        "zones/changes": Endpoint(databases: ["private"], writes: false, run: ChangeEndpoints.zones),
        "changes/database": Endpoint(databases: ["private", "shared"], writes: false, run: { try ChangeEndpoints.database($0) }),
        "changes/zone": Endpoint(databases: ["private", "shared"], writes: false, answer: ChangeEndpoints.zone),
        "subscriptions/list": Endpoint(databases: ["public", "private", "shared"], writes: false, run: SubscriptionEndpoints.list),
        "subscriptions/lookup": Endpoint(databases: ["public", "private", "shared"], writes: false, run: SubscriptionEndpoints.lookup),
        "subscriptions/modify": Endpoint(databases: ["public", "private", "shared"], writes: true, run: SubscriptionEndpoints.modify),
        "records/resolve": Endpoint(databases: ["public"], writes: true, run: ShareEndpoints.resolve),
        "records/accept": Endpoint(databases: ["public"], writes: true, run: ShareEndpoints.accept),
        "users/current": Endpoint(databases: ["public", "private"], writes: true, run: UserEndpoints.current),
        "users/caller": Endpoint(databases: ["public"], writes: true, run: UserEndpoints.caller),
        "users/discover": Endpoint(databases: ["public"], writes: true, run: UserEndpoints.lookup),
        "users/lookup/id": Endpoint(databases: ["public"], writes: true, run: UserEndpoints.lookup),
        "users/lookup/email": Endpoint(databases: ["public"], writes: true, run: UserEndpoints.lookup),
        "users/lookup/contacts": Endpoint(databases: ["public"], writes: true, run: UserEndpoints.contacts),
        "assets/rereference": Endpoint(databases: ["public", "private"], writes: false, run: AssetEndpoints.rereference),
        "assets/upload": Endpoint(databases: ["public", "private"], writes: true, run: { try AssetEndpoints.upload($0, tickets: $0.tickets, host: $0.host) }),
    ]

    /// Every operation served, as `docs/ckws-openapi.yaml` must list them (`tokens/...` name no
    /// database).
    static var servedOperations: Set<String> { Set(endpoints.keys).union(tokenEndpoints.keys) }

    private static let tokenEndpoints: [String: Endpoint] = [
        "tokens/create": Endpoint(databases: ["private"], writes: true, run: PushEndpoints.create),
        "tokens/register": Endpoint(databases: ["private"], writes: true, run: PushEndpoints.register),
    ]

    func respond(to request: Request, context: Context) async throws -> Response {
        let uuid = RequestUUID.make()
        let started = ContinuousClock.now
        var request = request
        // Known once the request reaches a store: where its log entry goes.
        var signedIn: (Store, String?)?
        let parsedPath = CKWSPath(request.uri.path)
        // The body as it arrived, kept with the answer for the log's newest requests.
        var requestBody = Data()
        func log(_ status: Int, error: String?, detail: String? = nil, response: [UInt8]?) {
            guard let (store, user) = signedIn, let path = parsedPath else { return }
            let elapsed = ContinuousClock.now - started
            logger.record(RequestLogEntry(time: Date(), user: user, container: path.container, database: path.database ?? "-",
                                          endpoint: path.operation, status: status,
                                          durationMicroseconds: elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000,
                                          error: error, detail: detail),
                          bodies: RequestLogger.PendingBodies(request: requestBody, response: response), in: store)
        }
        do {
            if request.method == .options { return CKWSResponder.response(status: .noContent, body: nil, uuid: uuid) }
            guard let path = parsedPath else {
                throw CKWSFailure.notFound("No CloudKit Web Services endpoint at \(request.uri.path); paths look like /database/1/CONTAINER/development/private/records/query")
            }
            guard let endpoint = CKWSResponder.endpoints[path.operation] ?? CKWSResponder.tokenEndpoints[path.operation] else {
                throw CKWSFailure.notFound("Unknown operation '\(path.operation)'")
            }
            guard request.method == .post || request.method == .get else {
                throw CKWSFailure.badRequest("Use POST (or GET for the list endpoints), not \(request.method)")
            }
            // The token endpoints name no database; they act in the user's.
            let database = path.database ?? "private"
            guard endpoint.databases.contains(database) else {
                throw CKWSFailure.badRequest("BadRequestException: endpoint not applicable in the database type '\(path.database ?? "none")'")
            }
            let bytes = try await CKWSResponder.collectBody(of: &request, upTo: maximumBodyBytes)
            let body = try CKWSResponder.parseBody(bytes)
            let parameters = request.uri.queryParameters
            let apiToken = parameters["ckAPIToken"].map(String.init)
            let webAuthToken = CKWSResponder.webAuthToken(parameters["ckWebAuthToken"].map(String.init))
            let host = request.head.authority ?? "127.0.0.1"
            let signed = CKWSResponder.signature(request.headers)
            let bodyData = Data(bytes.readableBytesView)
            requestBody = bodyData
            // CloudKit JS signs the path with its query string; MistKit and the reference's
            // examples sign the path alone.
            let signedPaths = [request.uri.path, request.head.path ?? request.uri.path]
            let stores = self.stores, tickets = self.tickets
            guard let scope = DatabaseScope(name: database) else { throw CKWSFailure.badRequest("Unknown database '\(database)'") }
            let credentials = self.credentials, sessions = self.sessions
            // One hop off the event loop for the store, the credentials and the endpoint; what
            // it learned of the caller comes back even when the request fails, for the log.
            let outcome = try await CKWSResponder.offload { () -> RequestOutcome in
                let store: Store
                do { store = try stores.locate(container: path.container, environment: path.environment) } catch { return (nil, nil, .failure(error)) }
                // A request that only reads makes all its reads in one transaction.
                return CKWSResponder.reading(store, inOneSnapshot: !endpoint.writes) { () -> RequestOutcome in
                    let catalog: SchemaCatalog?
                    do { catalog = try stores.verify(store, container: path.container, environment: path.environment) } catch { return (nil, nil, .failure(error)) }
                    let user: String?
                    do {
                        if let signed {
                            guard path.database == "public" else {
                                throw CKWSFailure.authenticationFailed("Server-to-server keys reach the public database only")
                            }
                            user = try signed.verify(body: bodyData, paths: signedPaths, container: path.container, store: store)
                        } else {
                            user = try CKWSAuthenticator(store: store, path: path, host: host, cache: credentials, sessions: sessions)
                                .user(apiToken: apiToken, webAuthToken: webAuthToken, writes: endpoint.writes)
                        }
                    } catch {
                        return (store, nil, .failure(error))
                    }
                    let call = CKWSCall(path: path, store: store, user: user, body: body,
                                        database: store.database(scope, caller: user.map { .user($0) } ?? .anonymous, device: "ckws").reached(through: .server), host: host, tickets: tickets,
                                        recordTypes: RecordTypeCache(store: store, catalog: catalog))
                    do {
                        let answer = try endpoint.run(call)
                        // The session's token for the next request: a new one once it is old enough.
                        let token = try user.flatMap { user in
                            try webAuthToken.map { try sessions.replacement(for: $0, user: user, container: path.container, store: store) }
                        }
                        return (store, user, .success((answer, token)))
                    } catch let error as CloudKitError where error.code == .notAuthenticated {
                        // A fault (or a refusal) saying the user is signed out: the sign-in URL, as CKWS sends.
                        let authenticator = CKWSAuthenticator(store: store, path: path, host: host, cache: credentials, sessions: sessions)
                        return (store, user, .failure(authenticator.required(error.message)))
                    } catch let error as CloudKitError {
                        return (store, user, .failure(CKWSResponder.failure(for: error)))
                    } catch {
                        return (store, user, .failure(error))
                    }
                }
            }
            if let store = outcome.0 { signedIn = (store, outcome.1) }
            let (answer, sessionToken) = try outcome.2.get()
            log(200, error: nil, detail: answer.logDetail, response: answer.body)
            var response = CKWSResponder.response(status: .ok, bytes: answer.body, uuid: uuid)
            if let sessionToken {
                // Both names iCloud's answers have been seen with; clients read one or the other.
                response.headers[.init("X-Apple-CloudKit-Web-Auth-Token")!] = sessionToken
                response.headers[.init("X-Apple-CloudKit-Session")!] = sessionToken
            }
            return response
        } catch let failure as CKWSFailure {
            let body = JSONWriter.bytes(failure.json(uuid: uuid))
            log(failure.status, error: "\(failure.serverErrorCode): \(failure.reason)", response: body)
            var response = CKWSResponder.response(status: .init(code: failure.status), bytes: body, uuid: uuid)
            if let retryAfter = failure.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
            return response
        } catch {
            let failure = CKWSFailure(status: 500, serverErrorCode: "INTERNAL_ERROR", reason: "\(error)")
            let body = JSONWriter.bytes(failure.json(uuid: uuid))
            log(500, error: failure.reason, response: body)
            return CKWSResponder.response(status: .internalServerError, bytes: body, uuid: uuid)
        }
    }

    /// The three server-to-server headers, when the request carries a key ID.
    static func signature(_ headers: HTTPFields) -> ServerToServerSignature? {
        guard let keyID = headers[.init("X-Apple-CloudKit-Request-KeyID")!] else { return nil }
        return ServerToServerSignature(keyID: keyID, date: headers[.init("X-Apple-CloudKit-Request-ISO8601Date")!] ?? "",
                                       signature: headers[.init("X-Apple-CloudKit-Request-SignatureV1")!] ?? "")
    }

    /// A CloudKit error of the whole request: bad input is `BAD_REQUEST` with the engine's
    /// reason (a refused predicate says where), a missing zone `ZONE_NOT_FOUND`, an unknown
    /// record type `BAD_REQUEST` as CloudKit answers (the engine's code for it is `unknownItem`).
    static func failure(for error: CloudKitError) -> CKWSFailure {
        switch error.reason {
        case .unknownRecordType:
            return .badRequest(error.message)
        default:
            return CKWSFailure(error)
        }
    }

    /// The web auth token a request carries: none when it is empty, or the `null` (or
    /// `undefined`) CloudKit JS writes for a signed-out page. Clients that do not encode '+'
    /// send it as a space.
    static func webAuthToken(_ parameter: String?) -> String? {
        guard let parameter, !parameter.isEmpty, parameter != "null", parameter != "undefined" else { return nil }
        return parameter.replacingOccurrences(of: " ", with: "+")
    }

    /// The whole body: 413 past `limit`, 400 when the client stops sending before the end its
    /// `Content-Length` announced.
    static func collectBody(of request: inout Request, upTo limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw CKWSFailure(status: 413, serverErrorCode: "BAD_REQUEST", reason: "The request body is larger than \(limit) bytes")
        } catch {
            let announced = request.headers[.contentLength].map { " of the \($0) bytes its Content-Length announced" } ?? ""
            throw CKWSFailure.badRequest("The request body ended before all\(announced) arrived")
        }
    }

    /// The body as JSON; an empty body is `{}` (clients POST the list endpoints with nothing).
    /// Bytes that are not UTF-8 are refused, as iCloud does, rather than repaired.
    static func parseBody(_ buffer: ByteBuffer) throws -> JSONValue {
        let bytes = buffer.readableBytesView
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return .object([]) }
        do {
            let json = try JSONParser.parse(strictUTF8: bytes)
            guard case .object = json else { throw CKWSFailure.badRequest("The request body must be a JSON object") }
            return json
        } catch let error as JSONParser.SyntaxError {
            throw CKWSFailure.badRequest("The request body is not JSON: \(error)")
        }
    }

    static func response(status: HTTPResponse.Status, body: JSONValue?, uuid: String) -> Response {
        response(status: status, bytes: body.map { JSONWriter.bytes($0) }, uuid: uuid)
    }

    static func response(status: HTTPResponse.Status, bytes body: [UInt8]?, uuid: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=UTF-8"
        headers[.init("X-Apple-Request-UUID")!] = uuid
        headers[.init("X-Apple-CloudKit-Version")!] = "1.0"
        headers[.accessControlAllowOrigin] = "*"
        headers[.accessControlAllowHeaders] = "Content-Type, X-Apple-CloudKit-Request-KeyID, X-Apple-CloudKit-Request-ISO8601Date, X-Apple-CloudKit-Request-SignatureV1"
        headers[.accessControlExposeHeaders] = "X-Apple-Request-UUID, X-Apple-CloudKit-Web-Auth-Token, X-Apple-CloudKit-Session"
        guard let body else { return Response(status: status, headers: headers) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Runs blocking engine work on a thread of its own, so the event loops keep serving.
    /// What a request's work learned: its store and caller (for the log, even when it failed)
    /// and its answer with the session's next token, or its failure.
    typealias RequestOutcome = (Store?, String?, Result<(CKWSAnswer, String?), any Error>)

    /// Runs a request's work on `store`, in one read transaction when `oneSnapshot`; a store
    /// that cannot begin one answers with its error.
    static func reading(_ store: Store, inOneSnapshot oneSnapshot: Bool,
                        _ work: () -> RequestOutcome) -> RequestOutcome {
        guard oneSnapshot else { return work() }
        do {
            return try store.readingOneSnapshot(work)
        } catch let error as CloudKitError {
            return (store, nil, .failure(failure(for: error)))
        } catch {
            return (store, nil, .failure(error))
        }
    }

    static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
