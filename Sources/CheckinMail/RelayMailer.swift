import CheckinCore
import Foundation

/// The server's `Mailer`: an `OutgoingEmail` written as a MIME message from the configured sender and sent to
/// the relay. A 4xx answer, an unreachable relay or a failed TLS handshake is transient (the step retries); a
/// 5xx answer, or a message that cannot be written (a malformed address), is permanent (the step fails).
public struct RelayMailer: Mailer {
    public let mailer: SMTPMailer
    public let from: MailAddress

    public init(relay: SMTPRelay, from: MailAddress) {
        mailer = SMTPMailer(relay: relay)
        self.from = from
    }

    public func send(_ email: OutgoingEmail) async throws {
        let message: MailMessage
        do {
            let images = try email.inlineImage.map {
                [try CheckinMail.InlineImage(contentID: $0.contentID, fileName: $0.filename, data: $0.png)]
            }
            message = try MailMessage(
                from: from, to: [try MailAddress(email.to)], subject: email.subject, date: Date(),
                messageID: try MessageID(email.messageID), text: email.text, html: email.html,
                inlineImages: images ?? [])
        } catch {
            throw MailFailure.permanent("the message cannot be written: \(error)")
        }
        do {
            try await mailer.send(message)
        } catch {
            throw error.isTransient ? MailFailure.transient("\(error)") : MailFailure.permanent("\(error)")
        }
    }
}
