import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import StratusEngine

/// A CloudKit Web Services server over Stratus stores, on Hummingbird: unmodified clients
/// (MistKit, CloudKit JS, scripts) point their base URL at it instead of iCloud.
///
/// SIGTERM and SIGINT stop it gracefully: long polls end at once, other requests in flight
/// finish, then the stores close.
public final class CKWSServer: Sendable {
    public struct Configuration: Sendable {
        /// Loopback unless told otherwise: a store holds everyone's private data.
        public var host: String
        /// 0 picks a free port (``run(onListening:)`` says which).
        public var port: Int
        public var source: StoreSource
        /// Larger bodies are refused with HTTP 413 before they are read.
        public var maximumBodyBytes: Int
        /// Connections idle this long are closed.
        public var idleTimeoutSeconds: Int64
        /// The largest asset an upload URL takes.
        public var maximumAssetBytes: Int
        /// How long sign-in sessions last and how often their tokens are replaced.
        public var sessions: WebSessionPolicy
        /// HTTPS with this certificate and key; nil: plain HTTP (loopback, or a TLS proxy in front).
        public var tls: ServerTLS?
        /// Seconds between SIGTERM and no longer taking connections, while `/health` answers 503.
        public var drainSeconds: Int
        /// The time a request log flush may spend on bodies besides each batch's newest (see
        /// ``RequestLogger``); tests that read older bodies back lift it, so a busy machine
        /// cannot fail them.
        var requestBodyBudget = RequestLogger.bodyBudget

        public init(host: String = "127.0.0.1", port: Int = 8765, source: StoreSource,
                    maximumBodyBytes: Int = 16 << 20, idleTimeoutSeconds: Int64 = 60, maximumAssetBytes: Int = 50 << 20,
                    sessions: WebSessionPolicy = WebSessionPolicy(), tls: ServerTLS? = nil, drainSeconds: Int = 0) {
            self.host = host
            self.port = port
            self.source = source
            self.maximumBodyBytes = maximumBodyBytes
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.maximumAssetBytes = maximumAssetBytes
            self.sessions = sessions
            self.tls = tls
            self.drainSeconds = drainSeconds
        }
    }

    public let configuration: Configuration
    private let group = LockedValue<ServiceGroup?>(nil)
    /// The web courier's long polls, which a shutdown ends first.
    let longPolls = LongPolls()

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Stops a running server as SIGTERM does: no new connections, requests in flight finish.
    public func shutDown() async {
        let running = group.withLock { $0 }
        await running?.triggerGracefulShutdown()
    }

    /// Serves until SIGTERM or SIGINT, or ``shutDown()``, then returns. `onListening` gets the
    /// port the server listens on once it does.
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let stores = StoreDirectory(source: configuration.source)
        defer { stores.closeAll() }
        var logger = Logger(label: "stratus.serve")
        logger.logLevel = .warning
        let tickets = AssetTickets()
        let requestLog = RequestLogger(bodyBudget: configuration.requestBodyBudget)
        let logging = Task { await requestLog.run() }
        defer { logging.cancel() }
        let draining = DrainState()
        let responder = CKWSRouter(api: CKWSResponder(stores: stores, maximumBodyBytes: configuration.maximumBodyBytes, tickets: tickets,
                                                      logger: requestLog, sessions: configuration.sessions),
                                   signIn: SignInPage(stores: stores), assets: AssetTransfer(stores: stores, tickets: tickets,
                                                                                             maximumBytes: configuration.maximumAssetBytes),
                                   courier: WebCourier(stores: stores, polls: longPolls),
                                   health: HealthCheck(stores: stores, draining: draining))
        let idleTimeout = configuration.idleTimeoutSeconds
        let tls = configuration.tls
        let app = Application(
            responder: responder,
            server: HTTPServerBuilder { responder in
                let http = CKWSChildChannel(http1: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: .seconds(idleTimeout))))
                guard let tls else { return http }
                return try TLSChannel(http, tlsConfiguration: tls.configuration)
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Stratus"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        // Shut down last to first: the drain period (`/health` says 503), the long polls end,
        // then the server stops taking requests and finishes those in flight.
        let services = ServiceGroup(configuration: .init(services: [app, LongPollStopper(polls: longPolls),
                                                                    DrainPeriod(state: draining, seconds: configuration.drainSeconds)],
                                                         gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        group.withLock { $0 = services }
        do {
            try await services.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw AddressInUse(host: configuration.host, port: configuration.port)
        }
        logging.cancel()
        await logging.value
    }
}

/// Waits for the graceful shutdown, then ends the long polls.
private struct LongPollStopper: Service {
    let polls: LongPolls

    func run() async throws {
        try? await gracefulShutdown()
        polls.stop()
    }
}

/// The server could not listen: another program holds the address. Said as such, since the
/// system's own words (`bind(descriptor:ptr:bytes:)`, errno 98) tell a user nothing to do.
public struct AddressInUse: Error, CustomStringConvertible {
    public var host: String
    public var port: Int

    public var description: String {
        "port \(port) on \(host) is taken by another program; pick another with --port N (--port 0 takes any free port)"
    }
}

/// The sign-in page, assets, the web courier and the health check apart, everything is the CKWS API.
struct CKWSRouter: HTTPResponder {
    typealias Context = BasicRequestContext
    let api: CKWSResponder
    let signIn: SignInPage
    let assets: AssetTransfer
    let courier: WebCourier
    let health: HealthCheck

    func respond(to request: Request, context: Context) async throws -> Response {
        if request.uri.path == "/health" { return try await health.respond(to: request, context: context) }
        if request.uri.path == "/signin" { return try await signIn.respond(to: request, context: context) }
        if request.uri.path.hasPrefix("/assets/") { return try await assets.respond(to: request, context: context) }
        if request.uri.path.hasPrefix("/push/") { return try await courier.respond(to: request, context: context) }
        return try await api.respond(to: request, context: context)
    }
}

/// Whether `pem` is a P-256 public key, as server-to-server keys must be.
public func isP256PublicKey(_ pem: String) -> Bool { ServerToServerSignature.isPublicKey(pem) }

/// The operations the server answers under `/database/1/CONTAINER/ENVIRONMENT/[DATABASE/]`.
public var servedCKWSOperations: Set<String> { CKWSResponder.servedOperations }
