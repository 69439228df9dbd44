import NIOCore

/// Closes a connection whose request header is not complete `timeout` after the request's first byte (a
/// slowloris: a client that sends a header a few bytes at a time holds a connection for ever). First in the
/// pipeline (before TLS too), so it sees every byte that arrives; `RequestEdgeHandler`, after the HTTP decoder,
/// tells it when a header is complete and when an answer is sent (the next request's first byte starts the
/// clock again). A connection that sends nothing is Hummingbird's idle timeout's.
final class RequestHeaderTimeout: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let timeout: TimeAmount
    private var waitingForHeader = true
    /// After a refused body: what still arrives is dropped here, before the HTTP decoder.
    private var discarding = false
    private var deadline: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if discarding { return }
        if waitingForHeader && deadline == nil {
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
                guard let self, let context = self.context else { return }
                self.deadline = nil
                context.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    /// The request's header is complete: its deadline no longer holds.
    func headerReceived() {
        waitingForHeader = false
        deadline?.cancel()
        deadline = nil
    }

    /// The answer went out: the next byte starts the next request's deadline.
    func answerSent() {
        waitingForHeader = true
    }

    /// From now on every byte that arrives is dropped unread (the connection is closing).
    func discardInput() {
        discarding = true
        deadline?.cancel()
        deadline = nil
    }
}
