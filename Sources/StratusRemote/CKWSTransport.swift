import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import StratusCloud

/// One HTTP exchange with a CKWS server, on AsyncHTTPClient's shared client, waited for on the
/// calling thread: the `CloudService` calls are synchronous, and the HTTP work runs on NIO's own
/// event loops, so blocking the caller (never an event loop: refused) cannot starve it.
struct CKWSTransport: Sendable {
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    /// The process's HTTP client: a connection that cannot be made fails at once (rather than
    /// being retried until the deadline), and redirects are not followed (one would carry the
    /// tokens in the query to another address).
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(90)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// How long one request may take before it counts as unanswered.
    var timeout: TimeAmount = .seconds(90)
    /// The largest answer read (a page of 200 records with their fields fits many times over).
    var maximumAnswerBytes = 64 << 20

    /// Sends `body` to `url` and waits for the whole answer. A failure to reach the server is
    /// `serviceUnavailable` with `remoteUnreachable`, naming the server (never the query
    /// string, which holds the tokens).
    func post(_ url: String, headers: HTTPHeaders, body: [UInt8], server: String) throws -> Answer {
        try exchange(url, method: .POST, headers: headers, body: body, server: server)
    }

    /// Reads `url` (an asset's `downloadURL`), with the same bounds and failures as ``post``.
    func get(_ url: String, server: String) throws -> Answer {
        try exchange(url, method: .GET, headers: HTTPHeaders(), body: nil, server: server)
    }

    private func exchange(_ url: String, method: HTTPMethod, headers: HTTPHeaders, body: [UInt8]?, server: String) throws -> Answer {
        guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
            throw CloudKitError(.internalError, "a remote call was made on an event loop, which it would block", reason: .remoteUnreachable(url: server))
        }
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url, method: method, headers: headers, body: body.map { .bytes($0) })
        } catch {
            throw CloudKitError(.invalidArguments, "the remote's URL \(server) is not an http or https URL", reason: .remoteUnreachable(url: server))
        }
        let response: HTTPClient.Response
        do {
            response = try CKWSTransport.client.execute(request: request, deadline: .now() + timeout).wait()
        } catch {
            throw CloudKitError(.serviceUnavailable, "could not reach \(server): \(CKWSTransport.describe(error))", reason: .remoteUnreachable(url: server))
        }
        var bytes = response.body ?? ByteBuffer()
        guard bytes.readableBytes <= maximumAnswerBytes else {
            throw CloudKitError(.internalError, "\(server) answered more than \(maximumAnswerBytes) bytes", reason: .remoteUnreachable(url: server))
        }
        return Answer(status: Int(response.status.code), headers: response.headers, body: bytes.readBytes(length: bytes.readableBytes) ?? [])
    }

    /// A transport failure in a few words, without the URL (and so without its tokens).
    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout { return "no answer in time" }
        if error is NIOConnectionError || error is ChannelError || (error as? IOError) != nil { return "the connection failed" }
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed { return "the server closed the connection" }
        return "the connection failed (\(type(of: error)))"
    }
}
