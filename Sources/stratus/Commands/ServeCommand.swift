import ArgumentParser
import Foundation
import StratusEngine
import StratusServer
import StratusStores

/// `stratus serve`: CloudKit Web Services over the store, for clients that talk to iCloud.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store as CloudKit Web Services (/database/1/CONTAINER/ENVIRONMENT/DATABASE/...).",
        discussion: """
            Point a CKWS client's base URL at http://HOST:PORT instead of https://api.apple-cloudkit.com.
            Every request needs an API token (`stratus auth api-token --container ID`; a request without one is \
            answered 401 AUTHENTICATION_FAILED, "no auth method found", as iCloud answers); the private database and writes need \
            a signed-in user: a ckWebAuthToken from `stratus auth login`, or from the sign-in page that an \
            AUTHENTICATION_REQUIRED answer's redirectURL opens. With --store, every container name maps to that \
            store (or only --container's) and the path's environment must be the store's; with --stores DIR, \
            each container and environment has its own store, DIR/CONTAINER/ENVIRONMENT.sqlite, made on first use \
            (with --stores postgres://..., a schema of its own in that database).
            Listens on loopback unless --host says otherwise. Any other address needs HTTPS (--tls-cert and \
            --tls-key, PEM files) or --insecure-http: plain HTTP there sends API tokens, web auth tokens and every \
            user's private records in clear text. GET /health (no credentials) answers 200 while the store can be \
            read and 503 when it cannot or the server is draining, for a proxy in front of several servers. \
            SIGTERM or Ctrl-C stops it after the requests in flight (after --drain-seconds of 503 from /health). \
            --port 0 picks a free port; the first line printed says which.
            """
    )

    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "A folder of stores, one per container and environment (or a postgres:// database: a schema each).") var stores: String?
    @Option(help: "The address to listen on (beyond loopback: with --tls-cert and --tls-key, or --insecure-http).") var host: String = "127.0.0.1"
    @Option(help: "The port (0: a free one).") var port: Int = 8765
    @Option(help: "With --store: the only container identifier served.") var container: String?
    @Option(help: "Refuse request bodies larger than this many bytes.") var maxBody: Int = 16 << 20
    @Option(help: "Seconds a web auth token from the sign-in page lasts, as iCloud's 30 minutes (tokens of `auth login` never expire).")
    var tokenLifetime: Int = 30 * 60
    @Option(help: "Seconds after which an answer to a signed-in request carries a new web auth token (0: every answer).")
    var tokenRotation: Int = 60
    @Option(help: "Serve HTTPS with this certificate chain (a PEM file, the server's certificate first).") var tlsCert: String?
    @Option(help: "The private key of --tls-cert (a PEM file, not encrypted).") var tlsKey: String?
    @Flag(help: "Serve plain HTTP beyond loopback anyway (behind a TLS proxy on a network you trust): tokens and records cross it in clear text.")
    var insecureHTTP = false
    @Option(help: "Seconds /health answers 503 after SIGTERM while requests are still served, for a proxy to stop sending new ones.")
    var drainSeconds: Int = 0

    func validate() throws {
        if store != nil && stores != nil { throw ValidationError("give --store or --stores, not both") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if maxBody < 1024 { throw ValidationError("--max-body must be at least 1024") }
        if tokenLifetime < 0 { throw ValidationError("--token-lifetime must be 0 or more seconds") }
        if tokenRotation < 0 { throw ValidationError("--token-rotation must be 0 or more seconds") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("give --tls-cert and --tls-key together") }
        if insecureHTTP && tlsCert != nil { throw ValidationError("give --tls-cert and --tls-key or --insecure-http, not both") }
        if drainSeconds < 0 { throw ValidationError("--drain-seconds must be 0 or more seconds") }
    }

    func run() throws {
        let tls = try serverTLS()
        let source: StoreSource
        if let stores {
            if StoreOpener.backend(of: stores) == .sqlite {
                try? FileManager.default.createDirectory(atPath: stores, withIntermediateDirectories: true)
            }
            source = .folder(stores)
        } else {
            let path = store ?? StoreLocation.defaultPath
            // Made (or upgraded) here, so a problem with the file is said before listening; the
            // server shares this handle (a second one on the file would share its POSIX locks).
            source = .opened(try StoreLocation.open(path, ifMissing: .create), container: container)
        }
        let server = CKWSServer(configuration: .init(host: host, port: port, source: source, maximumBodyBytes: maxBody,
                                                     sessions: WebSessionPolicy(lifetime: TimeInterval(tokenLifetime),
                                                                                rotationInterval: TimeInterval(tokenRotation)),
                                                     tls: tls, drainSeconds: drainSeconds))
        let done = DispatchSemaphore(value: 0)
        let failure = LockedBox<(any Error)?>(nil)
        let host = self.host
        let scheme = tls == nil ? "http" : "https"
        Task {
            do {
                try await server.run { port in
                    Output.line("Serving CloudKit Web Services at \(scheme)://\(host):\(port)/database/1/ (Ctrl-C stops)")
                }
            } catch {
                failure.set(error)
            }
            done.signal()
        }
        done.wait()
        if let error = failure.get() as? AddressInUse { throw CommandFailure.failed(error.description) }
        if let error = failure.get() { throw CommandFailure.failed("the server stopped: \(error)") }
    }
}

extension ServeCommand {
    /// The certificate and key to serve HTTPS with, or nil for plain HTTP, which beyond
    /// loopback needs --insecure-http (and gets a warning even then).
    private func serverTLS() throws -> ServerTLS? {
        if let tlsCert, let tlsKey {
            do {
                return try ServerTLS(certificateFile: tlsCert, keyFile: tlsKey)
            } catch {
                throw CommandFailure.failed(error.description)
            }
        }
        guard !ListenAddress.isLoopback(host) else { return nil }
        guard insecureHTTP else {
            throw CommandFailure.usage("""
                refusing to serve plain HTTP on \(host), which is not a loopback address: \(ListenAddress.plainHTTPDanger). \
                Give --tls-cert FILE.pem --tls-key FILE.pem to serve HTTPS, or --insecure-http if a TLS proxy on a network you trust is in front.
                """)
        }
        Output.warn("warning: serving plain HTTP on \(host) (--insecure-http): \(ListenAddress.plainHTTPDanger).")
        return nil
    }
}

/// A value shared between the server task and the waiting command.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}
