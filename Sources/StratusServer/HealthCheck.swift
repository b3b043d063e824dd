import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import StratusEngine

/// `GET /health`, for the proxy or load balancer in front of several servers: no credentials
/// and no data, only whether this server should get requests. 200 when it can read its store
/// (one cheap read), 503 when it cannot (the database is down or unreachable) or when it is
/// draining after SIGTERM, so the proxy sends new requests elsewhere while those in flight finish.
struct HealthCheck: Sendable {
    let stores: StoreDirectory
    let draining: DrainState

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.answer(.methodNotAllowed, #"{"status":"unavailable","reason":"use GET /health"}"#)
        }
        if draining.isDraining {
            return Self.answer(.serviceUnavailable, #"{"status":"draining"}"#)
        }
        let stores = self.stores
        let readable = (try? await CKWSResponder.offload { stores.canReadStores() }) ?? false
        // Never the store's error: it could name the database's address or its user.
        return readable ? Self.answer(.ok, #"{"status":"ok"}"#) : Self.answer(.serviceUnavailable, #"{"status":"store unreachable"}"#)
    }

    private static func answer(_ status: HTTPResponse.Status, _ json: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}

/// Whether the server has been asked to stop and is draining.
final class DrainState: Sendable {
    private let draining = LockedValue(false)

    var isDraining: Bool { draining.withLock { $0 } }
    func begin() { draining.withLock { $0 = true } }
}

/// The first service to hear SIGTERM: it turns `/health` to 503 and keeps everything else
/// serving for `seconds`, time for the proxy's health checks to take the server out of
/// rotation, before the server stops taking connections.
struct DrainPeriod: Service {
    let state: DrainState
    let seconds: Int

    func run() async throws {
        try? await gracefulShutdown()
        state.begin()
        if seconds > 0 { try? await Task.sleep(for: .seconds(seconds)) }
    }
}
