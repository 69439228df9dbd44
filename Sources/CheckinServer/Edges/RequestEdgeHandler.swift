import NIOCore
import NIOHTTPTypes

/// After the HTTP decoder, on every connection: adds `RequestHeaderTimeout` at the front of the pipeline and
/// tells it when a request's header is complete and when its answer went out; closes the connection once an
/// answer that says `Connection: close` is sent (413 from `BodyLimitMiddleware`), so the server never reads the
/// rest of a body it refused (Hummingbird would otherwise read it to the end to reach the next request). The
/// close lingers: the answer, then end of output (FIN), what still arrives dropped unread, and the connection
/// closed `lingering` later, so that a client still sending gets the 413 rather than a reset.
final class RequestEdgeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let headerTimeout: RequestHeaderTimeout
    private var closeAfterAnswer = false
    static let lingering: TimeAmount = .seconds(2)

    init(headerTimeout: TimeAmount) {
        self.headerTimeout = RequestHeaderTimeout(timeout: headerTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        do {
            try context.pipeline.syncOperations.addHandler(headerTimeout, position: .first)
        } catch {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { headerTimeout.headerReceived() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.status == .contentTooLarge || head.headerFields[.connection]?.lowercased() == "close" {
                closeAfterAnswer = true
            }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            headerTimeout.answerSent()
            guard closeAfterAnswer else { return context.write(data, promise: promise) }
            headerTimeout.discardInput()
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in
                context.close(mode: .output, promise: nil)
                context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingering) { context.close(promise: nil) }
            }
        }
    }
}
