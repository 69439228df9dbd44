import DedicatedThreads
import Foundation

/// Sends messages to one SMTP relay through libcurl.
///
/// ```swift
/// let relay = try SMTPRelay(url: "smtp://mailer@relay.example:587", password: secret, caFile: "/etc/checkin/relay-ca.pem")
/// let qr = try InlineImage(contentID: "pass-qr@checkin.example", fileName: "pass.png", data: png)
/// let message = try MailMessage(
///     from: MailAddress("passes@checkin.example", displayName: event.name),
///     to: [MailAddress(guest.email, displayName: guest.name)],
///     subject: "Your pass for \(event.name)", date: clock.now,
///     messageID: MessageID(local: "issue-\(workflow.id)-\(step)", domain: "checkin.example"),
///     text: "…\(passURL)…", html: "…<img src=\"\(qr.htmlSource)\" alt=\"Your pass\">…", inlineImages: [qr])
/// do {
///     try await SMTPMailer(relay: relay).send(message)
/// } catch where error.isTransient {
///     // retry the step later (4xx, unreachable, TLS, timeout)
/// } catch {
///     // fail the step (5xx): error.replyCode, error.replyText
/// }
/// ```
///
/// Each `send` runs libcurl's blocking transfer on a thread of its own, never on the concurrency pool's
/// threads, and suspends the caller until the relay took the message or refused it; the caller decides how
/// many sends run at once. Cancelling the calling task stops the transfer within about a second.
public struct SMTPMailer: Sendable {
    public let relay: SMTPRelay

    public init(relay: SMTPRelay) {
        self.relay = relay
    }

    /// Writes `message` (`MIMEWriter`) and hands it to the relay: envelope sender `message.from`, one
    /// recipient per `message.to`. Returns once the relay accepted the data (its 250 reply to the final dot).
    public func send(_ message: MailMessage) async throws(SMTPError) {
        try await send(
            MIMEWriter.write(message), from: message.from.address, to: message.to.map(\.address))
    }

    /// Hands `bytes` (a complete RFC 5322 message with CRLF line endings) to the relay with the given
    /// envelope. Addresses are checked by `MailAddress` when they come from a `MailMessage`.
    func send(_ bytes: [UInt8], from: String, to: [String]) async throws(SMTPError) {
        let relay = self.relay
        let cancellation = CancellationFlag()
        let result: Result<Void, SMTPError> = await withTaskCancellationHandler {
            await DedicatedThread.run(named: "smtp-send") {
                Self.transfer(relay: relay, body: bytes, from: from, to: to, cancellation: cancellation)
            }
        } onCancel: {
            cancellation.cancel()
        }
        try result.get()
    }

    /// One transfer on the calling thread (blocking).
    private static func transfer(
        relay: SMTPRelay, body: [UInt8], from: String, to: [String], cancellation: CancellationFlag
    ) -> Result<Void, SMTPError> {
        guard !cancellation.isCancelled else {
            return .failure(SMTPError(kind: .cancelled, replyCode: nil, replyText: nil, curlCode: 0, curlMessage: ""))
        }
        do {
            let transfer = try CurlSMTPTransfer(
                relay: relay, body: body, from: from, to: to, cancellation: cancellation)
            return transfer.perform()
        } catch {
            return .failure(error)
        }
    }
}
