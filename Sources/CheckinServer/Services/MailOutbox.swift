import CheckinCore
import Logging
import ServiceLifecycle

/// The e-mails the organizer's pages send after their answer (password-reset links): queued here and sent one
/// after another by this service, beside the HTTP server in the application's service group. A graceful stop
/// takes no new mail and sends what is queued (within the server's shutdown limit) before the service ends.
public final class MailOutbox: Service, Sendable {
    /// Mails waiting at most: the pages' own limits (3 reset links an hour per address, 10 requests per client)
    /// keep far fewer waiting; past it a new mail is refused, and said.
    public static let capacity = 256

    private let mailer: any Mailer
    private let logger: Logger
    private let stream: AsyncStream<OutgoingEmail>
    private let continuation: AsyncStream<OutgoingEmail>.Continuation

    public init(mailer: any Mailer, logger: Logger) {
        self.mailer = mailer
        self.logger = logger
        (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(Self.capacity))
    }

    /// Queues `email`; false if it will not be sent (the outbox is full, or the server is stopping).
    @discardableResult
    func post(_ email: OutgoingEmail) -> Bool {
        switch continuation.yield(email) {
        case .enqueued: return true
        case .dropped, .terminated:
            logger.warning("an e-mail was not queued: the outbox is full or the server is stopping")
            return false
        @unknown default: return false
        }
    }

    public func run() async {
        await withGracefulShutdownHandler {
            for await email in stream {
                do { try await mailer.send(email) } catch {
                    logger.warning("an e-mail was not sent: \(error)")
                }
            }
        } onGracefulShutdown: { [continuation] in
            continuation.finish()
        }
    }
}
