import Foundation
#if canImport(Glibc)
import Glibc
#endif
import StratusCloud
import StratusEngine
import Testing

/// A request written byte by byte on a TCP socket, for what an HTTP library would not send: an
/// HTTP/1.0 request, a body shorter than its Content-Length, a path with `..` in it.
struct RawHTTPConnection {
    struct Answer {
        var head: String
        var body: String
        /// Whether the server closed the connection after the answer (rather than the read
        /// giving up).
        var closed: Bool
        var statusLine: String { head.components(separatedBy: "\r\n").first ?? "" }
        /// The answer's head, or what happened when there was none, for a failure's message.
        var described: String { head.isEmpty ? (closed ? "closed with no answer" : "no answer before the patience ran out") : head }
    }

    /// Sends `bytes` to the port, half-closes when `halfClose`, and reads until the server closes
    /// the connection or `patience` passes with nothing more. The blocking socket calls run on a
    /// thread of their own: the server in this process answers on the same task pool. The
    /// patience is long because a loaded test run can keep that pool busy for many seconds.
    static func exchange(port: Int, _ bytes: [UInt8], halfClose: Bool = false, patience: Int = 90) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingExchange(port: port, bytes, halfClose: halfClose, patience: patience) })
            }
        }
    }

    private static func blockingExchange(port: Int, _ bytes: [UInt8], halfClose: Bool, patience: Int) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: patience, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        _ = bytes.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count, 0) }
        if halfClose { shutdown(fd, Int32(SHUT_WR)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var closed = false
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { received += buffer[..<count]; continue }
            closed = count == 0
            break
        }
        let text = String(decoding: received, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        return Answer(head: parts.first ?? "", body: parts.dropFirst().joined(separator: "\r\n\r\n"), closed: closed)
    }
}

@Suite struct RawHTTPConnectionTests {
    @Test func anHTTP10RequestWithoutKeepAliveIsAnsweredAndClosed() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let path = "/database/1/\(ServerHarness.container)/development/public/zones/list?ckAPIToken=\(server.apiToken)"
        let answer = try await RawHTTPConnection.exchange(port: server.port, Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(answer.closed, "the connection stays open after the answer")
        #expect(answer.statusLine == "HTTP/1.0 200 OK", "\(answer.described)")
        #expect(answer.head.lowercased().contains("connection: close"), "\(answer.head)")
        #expect(answer.body.contains("\"zones\""), "\(answer.body)")
    }

    @Test func aBodyCutShortOfItsContentLengthIsABadRequest() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let path = "/database/1/\(ServerHarness.container)/development/private/records/query?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken)"
        let request = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"query\":"
        let answer = try await RawHTTPConnection.exchange(port: server.port, Array(request.utf8), halfClose: true)
        #expect(answer.statusLine.hasPrefix("HTTP/1.1 400"), "\(answer.described)")
        #expect(answer.body.contains("BAD_REQUEST"), "\(answer.body)")
        #expect(answer.body.contains("1000"), "\(answer.body)")
    }

    @Test func onlyTheExactDownloadURLServesAnAsset() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let asset = try server.store.putAsset(Data("secret bytes".utf8))
        let issued = "/assets/download/\(ServerHarness.container)/development/\(asset.fileChecksum)"
        let exact = try await RawHTTPConnection.exchange(port: server.port, Array("GET \(issued) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(exact.statusLine.hasPrefix("HTTP/1.1 200"), "\(exact.described)")
        #expect(exact.body == "secret bytes")
        for tail in ["/../../x", "/photo.png", "/"] {
            let answer = try await RawHTTPConnection.exchange(port: server.port, Array("GET \(issued)\(tail) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            #expect(answer.statusLine.hasPrefix("HTTP/1.1 404"), "\(tail): \(answer.described)")
            #expect(!answer.body.contains("secret"))
        }
    }
}
