import Foundation
import StratusEngine
import StratusRemote
import StratusServer
import StratusCloud
import StratusTestSupport

/// A CKWS server on a loopback port chosen at run time, over a store in a temporary folder,
/// with an API token and a session token for its owner, and clients for it.
final class RemoteHarness: @unchecked Sendable {
    let folder: TemporaryDirectory
    let store: Store
    let port: Int
    let apiToken: String
    let webAuthToken: String
    private let server: CKWSServer
    private let task: Task<Void, any Error>
    static let container = "iCloud.com.example.remote"

    init(sessions: WebSessionPolicy = WebSessionPolicy()) async throws {
        folder = try TemporaryDirectory("stratus-remote")
        store = try Store(path: folder.storePath)
        apiToken = try store.makeAPIToken(container: Self.container)
        webAuthToken = try store.makeSessionToken(container: Self.container, user: store.owner)
        let server = CKWSServer(configuration: .init(port: 0, source: .opened(store, container: nil), sessions: sessions))
        self.server = server
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        task = Task { try await server.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CocoaError(.coderReadCorrupt) }
        self.port = port
    }

    var endpoint: RemoteEndpoint { RemoteEndpoint(url: "http://127.0.0.1:\(port)", container: Self.container, environment: "development") }

    /// A client signed in as the store's owner unless told otherwise.
    func client(_ credentials: RemoteCredentials? = nil, keeper: (any SessionTokenKeeper)? = nil, retry: RetryPolicy = .never,
                waiter: (any ThrottleWaiter)? = nil) -> CKWSClient {
        CKWSClient(name: "test", endpoint: endpoint, credentials: credentials ?? RemoteCredentials(apiToken: apiToken, webAuthToken: webAuthToken),
                   keeper: keeper, retry: retry, waiter: waiter)
    }

    func stop() async {
        await server.shutDown()
        _ = try? await task.value
        folder.remove()
    }
}

/// Keeps every token handed to it, in order.
final class RecordingKeeper: SessionTokenKeeper, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []

    var tokens: [String] { lock.withLock { kept } }

    func keep(webAuthToken: String) throws {
        lock.withLock { kept.append(webAuthToken) }
    }
}

/// Runs the client's blocking calls on a thread of their own, never on the test's (Swift
/// concurrency's few threads also run the in-process server: blocking them all would leave no
/// thread to answer).
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// The CloudKit error `body` throws, nil when it throws none (or another error).
func failure<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async -> CloudKitError? {
    do {
        _ = try await blocking(body)
        return nil
    } catch {
        return error as? CloudKitError
    }
}
