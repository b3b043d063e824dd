import Foundation
import FoundationNetworking
import StratusEngine
import StratusSQLite
@testable import StratusServer
import StratusTestSupport
import Testing

/// A CKWS server on a loopback port chosen at run time, over a store in a temporary folder,
/// with an API token and a web auth token for it. Stop it with ``stop()``.
final class ServerHarness: @unchecked Sendable {
    let folder: TemporaryDirectory
    var directory: URL { folder.url }
    let store: Store
    let port: Int
    let apiToken: String
    let webAuthToken: String
    private let task: Task<Void, any Error>
    private let server: CKWSServer
    static let container = "iCloud.com.example.stratus"

    struct Reply {
        var status: Int
        var json: [String: Any]
        var headers: [String: String]

        subscript(key: String) -> Any? { json[key] }
        var records: [[String: Any]] { json["records"] as? [[String: Any]] ?? [] }
        var zones: [[String: Any]] { json["zones"] as? [[String: Any]] ?? [] }
        var code: String? { json["serverErrorCode"] as? String }
    }

    init(source: ((URL) -> StoreSource)? = nil, maximumBodyBytes: Int = 1 << 20, sessions: WebSessionPolicy = WebSessionPolicy()) async throws {
        folder = try TemporaryDirectory("stratus-server")
        store = try Store(path: folder.storePath)
        apiToken = try store.makeAPIToken(container: Self.container)
        webAuthToken = try store.makeWebAuthToken(container: Self.container, user: store.owner)
        var configuration = CKWSServer.Configuration(port: 0, source: source?(folder.url) ?? .opened(store, container: nil),
                                                     maximumBodyBytes: maximumBodyBytes, sessions: sessions)
        // Tests read back bodies older than a batch's newest: no time budget may drop them.
        configuration.requestBodyBudget = .seconds(60)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let server = CKWSServer(configuration: configuration)
        self.server = server
        task = Task { try await server.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CocoaError(.coderReadCorrupt) }
        self.port = port
    }

    /// The web courier's long polls waiting now.
    var openLongPolls: Int { server.longPolls.open }

    func stop() async {
        await server.shutDown()
        _ = try? await task.value
        folder.remove()
    }

    var base: String { "http://127.0.0.1:\(port)/database/1/\(Self.container)/development" }

    /// Sends `body` (JSON text) to `DATABASE/OPERATION` with the harness's tokens unless told
    /// otherwise.
    func call(_ database: String, _ operation: String, _ body: String? = nil, method: String? = nil,
              apiToken: String?? = .none, webAuthToken: String?? = .none, base: String? = nil) async throws -> Reply {
        var query: [String] = []
        if let token = apiToken ?? self.apiToken { query.append("ckAPIToken=\(token)") }
        if let token = webAuthToken ?? self.webAuthToken {
            query.append("ckWebAuthToken=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)")
        }
        let url = "\(base ?? self.base)/\(database)/\(operation)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try await send(url, body: body, method: method ?? (body == nil ? "GET" : "POST"))
    }

    func send(_ url: String, body: String?, method: String) async throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields { headers[String(describing: key).lowercased()] = String(describing: value) }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? ["_text": String(decoding: data, as: UTF8.self)]
        return Reply(status: http.statusCode, json: json, headers: headers)
    }
}
