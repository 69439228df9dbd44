import NIOCore
import NIOHTTPTypes

/// After the HTTP decoder, on every connection: adds `RequestHeaderTimeout` at the front of the pipeline and
/// tells it when a request's header is complete and when its answer went out; from the header on, holds the
/// body to a pace (`bodyProgressBytes` within each `bodyProgressTimeout`, or its end; else the connection is
/// closed: a body a byte every few seconds held a connection for ever); closes the connection once an
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
    private let bodyProgressTimeout: TimeAmount
    private let bodyProgressBytes: Int
    private var bodyDeadline: Scheduled<Void>?
    private var bodyBytesSinceProgress = 0
    private var closeAfterAnswer = false
    static let lingering: TimeAmount = .seconds(2)

    init(headerTimeout: TimeAmount, bodyProgressTimeout: TimeAmount = .seconds(20), bodyProgressBytes: Int = 16 * 1024)
    {
        self.headerTimeout = RequestHeaderTimeout(timeout: headerTimeout)
        self.bodyProgressTimeout = bodyProgressTimeout
        self.bodyProgressBytes = bodyProgressBytes
    }

    convenience init(limits: EdgeLimits) {
        self.init(
            headerTimeout: limits.requestHeaderTimeout, bodyProgressTimeout: limits.bodyProgressTimeout,
            bodyProgressBytes: limits.bodyProgressBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        do {
            try context.pipeline.syncOperations.addHandler(headerTimeout, position: .first)
        } catch {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            headerTimeout.headerReceived()
            bodyBytesSinceProgress = 0
            expectBody(context: context)
        case .body(let part):
            bodyBytesSinceProgress += part.readableBytes
            if bodyBytesSinceProgress >= bodyProgressBytes {
                bodyBytesSinceProgress = 0
                expectBody(context: context)
            }
        case .end:
            bodyDeadline?.cancel()
            bodyDeadline = nil
        }
        context.fireChannelRead(data)
    }

    /// The next `bodyProgressBytes` of the body (or its end) must come within `bodyProgressTimeout`.
    private func expectBody(context: ChannelHandlerContext) {
        bodyDeadline?.cancel()
        bodyDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: bodyProgressTimeout) { [weak self] in
            self?.bodyDeadline = nil
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        bodyDeadline?.cancel()
        bodyDeadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        bodyDeadline?.cancel()
        bodyDeadline = nil
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
