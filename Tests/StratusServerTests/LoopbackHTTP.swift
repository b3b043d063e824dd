import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// An async-http-client for the tests that run `stratus serve` as a process: HTTPS that trusts
/// a certificate made at test time, and many requests at once to several servers (a pool of
/// keep-alive connections per server, no per-request setup).
struct LoopbackHTTP: Sendable {
    /// What a server answered: the status, the headers (names in lower case) and the body's
    /// JSON object (empty when it is none).
    struct Reply: @unchecked Sendable {
        var status: Int
        var headers: [String: String]
        var text: String
        var json: [String: Any]

        var records: [[String: Any]] { json["records"] as? [[String: Any]] ?? [] }
        var zones: [[String: Any]] { json["zones"] as? [[String: Any]] ?? [] }
    }

    let client: HTTPClient

    init(configuration: HTTPClient.Configuration = HTTPClient.Configuration()) {
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends `body` (JSON text; GET without one) to `url`. The time limit only guards against a hang.
    func send(_ url: String, body: String? = nil, method: HTTPMethod? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method ?? (body == nil ? .GET : .POST)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        let text = String(buffer: bytes)
        let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        let headers = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
        return Reply(status: Int(response.status.code), headers: headers, text: text, json: json)
    }

    func shutdown() async {
        try? await client.shutdown()
    }
}
