import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bench's load generator: keep-alive HTTP/1.1 over plain sockets, one thread per
/// connection, run in a process of its own (`stratus bench --load-client`). It costs the server's
/// machine as little as a client can, so the server's CPU per request is the server's: the
/// URLSession client the bench used to run beside the server spent more than the server did.
public struct LoadClient: Sendable {
    /// What one run asks: `connections` at once, each sending `requests` POSTs of the body
    /// template (`{client}`, `{step}` and `{slot}`, the step modulo 50, are replaced) to `path`
    /// on the loopback `port`.
    public struct Plan: Sendable {
        public var port: Int
        public var path: String
        public var bodyTemplate: String
        public var connections: Int
        public var requests: Int

        public init(port: Int, path: String, bodyTemplate: String, connections: Int, requests: Int) {
            self.port = port
            self.path = path
            self.bodyTemplate = bodyTemplate
            self.connections = connections
            self.requests = requests
        }
    }

    /// Every request's latency in milliseconds, the status codes seen, and the wall time.
    public struct Outcome: Sendable {
        public var latencies: [Double]
        public var statuses: [Int: Int]
        public var seconds: Double
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let plan: Plan

    public init(plan: Plan) { self.plan = plan }

    public func run() throws -> Outcome {
        let results = Box<[(latencies: [Double], statuses: [Int: Int], error: String?)]>([])
        let started = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: plan.connections) { client in
            var latencies: [Double] = []
            var statuses: [Int: Int] = [:]
            var failure: String?
            do {
                let connection = try Connection(port: plan.port)
                defer { connection.close() }
                latencies.reserveCapacity(plan.requests)
                for step in 0..<plan.requests {
                    let body = Array(plan.bodyTemplate.replacingOccurrences(of: "{client}", with: String(client))
                        .replacingOccurrences(of: "{step}", with: String(step)).replacingOccurrences(of: "{slot}", with: String(step % 50)).utf8)
                    let head = "POST \(plan.path) HTTP/1.1\r\nHost: 127.0.0.1:\(plan.port)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                    let start = DispatchTime.now().uptimeNanoseconds
                    try connection.send(Array(head.utf8) + body)
                    let status = try connection.readResponse()
                    latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                    statuses[status, default: 0] += 1
                }
            } catch {
                failure = "\(error)"
            }
            results.value.append((latencies, statuses, failure))
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000_000
        let all = results.value
        if let failure = all.compactMap(\.error).first { throw Failure(description: failure) }
        var statuses: [Int: Int] = [:]
        for result in all { statuses.merge(result.statuses, uniquingKeysWith: +) }
        return Outcome(latencies: all.flatMap(\.latencies), statuses: statuses, seconds: seconds)
    }
}

/// One keep-alive connection to the server on loopback, reading each response to its end by
/// its `Content-Length` (or its chunks).
private final class Connection {
    private let socket: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw LoadClient.Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw LoadClient.Failure(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    func close() { Glibc.close(socket) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw LoadClient.Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// Reads one response whole and returns its status code.
    func readResponse() throws -> Int {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw LoadClient.Failure(description: "not an HTTP response: \(head.prefix(80))")
        }
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased(), value = parts[1].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { length = Int(value) }
            if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = true }
        }
        if chunked {
            while true {
                let lineEnd = try readUntil([13, 10])
                let size = Int(String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                buffer.removeFirst(lineEnd + 2)
                try fill(size + 2)
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else {
            let count = length ?? 0
            try fill(count)
            buffer.removeFirst(count)
        }
        return status
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searched = 0
        while true {
            if buffer.count >= marker.count {
                for start in searched...(buffer.count - marker.count) where buffer[start] == marker[0] && Array(buffer[start..<start + marker.count]) == marker {
                    return start
                }
                searched = buffer.count - marker.count + 1
            }
            try receive()
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count { try receive() }
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw LoadClient.Failure(description: count == 0 ? "the server closed the connection" : "recv: \(String(cString: strerror(errno)))") }
        buffer.append(contentsOf: chunk[..<count])
    }
}
