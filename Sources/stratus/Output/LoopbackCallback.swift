import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The loopback web server a browser sign-in ends at: `http://127.0.0.1:PORT/callback`. It
/// takes the web auth token from the query (`ckWebAuthToken` or `ckSession`), or, when the
/// token came in the URL's fragment (which a browser never sends), answers a tiny page that
/// moves the fragment into the query and comes back.
final class LoopbackCallback {
    private let socket: Int32
    let port: Int

    /// Listens on 127.0.0.1:`port` (0: a free one).
    init(port: Int) throws {
        #if os(Linux)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw CommandFailure.failed("cannot open a socket for the sign-in callback") }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 8) == 0 else {
            close(socket)
            throw CommandFailure.failed("cannot listen on 127.0.0.1:\(port) for the sign-in callback; pick another with --port")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.socket = socket
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }

    var url: String { "http://127.0.0.1:\(port)/callback" }

    /// Waits for a request carrying the token; nil after `timeout` seconds without one.
    func waitForToken(timeout: Int) -> String? {
        let deadline = Date().addingTimeInterval(TimeInterval(timeout))
        while Date() < deadline {
            var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000).rounded(.up))
            guard poll(&waiting, 1, min(left, 1000)) > 0 else { continue }
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { continue }
            defer { close(connection) }
            guard let target = LoopbackCallback.requestTarget(connection) else { continue }
            if let token = LoopbackCallback.token(in: target) {
                LoopbackCallback.answer(connection, status: "200 OK", html: "<h1>Signed in</h1><p>Stratus has the token; you can close this tab.</p>")
                return token
            }
            if target.hasPrefix("/callback") {
                // A token in the fragment: the page sends it back as a query.
                LoopbackCallback.answer(connection, status: "200 OK", html: """
                    <p id="m">Signing in…</p><script>if (location.hash.length > 1) { location.replace(location.pathname + "?" + location.hash.slice(1)); } \
                    else { document.getElementById("m").textContent = "No token arrived; sign in again."; }</script>
                    """)
            } else {
                LoopbackCallback.answer(connection, status: "404 Not Found", html: "<p>Not here.</p>")
            }
        }
        return nil
    }

    /// `ckWebAuthToken` or `ckSession` of a request target; a `+` that became a space is put back.
    static func token(in target: String) -> String? {
        guard let items = URLComponents(string: "http://127.0.0.1" + target)?.queryItems else { return nil }
        let value = items.first { $0.name == "ckWebAuthToken" }?.value ?? items.first { $0.name == "ckSession" }?.value
        guard let value, !value.isEmpty else { return nil }
        return value.replacingOccurrences(of: " ", with: "+")
    }

    /// The target of the request line (`/callback?...`), read from at most 16 KiB of headers.
    private static func requestTarget(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 16 << 10 {
            var waiting = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 5000) > 0 else { return nil }
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[0..<count]
            if received.count >= 4, received.suffix(4) == [13, 10, 13, 10] { break }
        }
        let line = String(decoding: received.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self).split(separator: " ")
        guard line.count >= 2, line[0] == "GET" || line[0] == "POST" else { return nil }
        return String(line[1])
    }

    private static func answer(_ connection: Int32, status: String, html: String) {
        let body = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Stratus sign-in</title></head><body>\(html)</body></html>"
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(response.utf8)
        // A browser that went away must not end the sign-in (no SIGPIPE).
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
