import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// HTTP/1.0's rule for connections, which the version-free request Hummingbird hands on
/// cannot carry: a request without `Connection: keep-alive` gets its answer in its own
/// version, with `Connection: close`, and the connection closes after it (a client reading to
/// the end of the stream is not left waiting for the idle timeout).
final class ConnectionPersistenceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The version of each request still waiting for its answer, and whether it keeps the
    /// connection open.
    private var waiting: [(version: HTTPVersion, keepAlive: Bool)] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let keepAlive = head.isKeepAlive
        waiting.append((head.version, keepAlive))
        // Hummingbird closes the connection after the answer to a request that says `close`.
        if !keepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200, !waiting.isEmpty else {
            context.write(data, promise: promise)
            return
        }
        let request = waiting.removeFirst()
        head.version = request.version
        if !request.keepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

/// Hummingbird's HTTP/1 channel with ``ConnectionPersistenceHandler`` just after the HTTP/1
/// decoder, where requests still carry their version.
struct CKWSChildChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(ConnectionPersistenceHandler(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
