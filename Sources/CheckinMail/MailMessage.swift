import Foundation

/// One e-mail: the pass message has an HTML part with the QR code inline and a plain-text alternative.
///
/// A value is valid once made (addresses, ids and the subject are checked), so writing it cannot fail.
/// `MIMEWriter` turns it into the bytes sent: `multipart/alternative` { `text/plain`, `multipart/related`
/// { `text/html`, the inline images } }. The envelope is the `from` and `to` addresses.
public struct MailMessage: Sendable, Equatable {
    public let from: MailAddress
    public let to: [MailAddress]
    /// Any text without line breaks; encoded (RFC 2047) when not plain ASCII.
    public let subject: String
    /// The Date header: when the message was made (the caller's clock).
    public let date: Date
    /// Stable per workflow step, so a message sent twice is recognizably the same.
    public let messageID: MessageID
    /// The plain-text alternative (with the pass URL).
    public let text: String
    /// The HTML body; refers to each inline image as `cid:<contentID>` (`InlineImage.htmlSource`).
    public let html: String
    /// Images shown by the HTML (the QR code).
    public let inlineImages: [InlineImage]

    /// Refuses a message without recipients, a subject with a line break or other control character (header
    /// injection), and two inline images with one Content-ID.
    public init(
        from: MailAddress, to: [MailAddress], subject: String, date: Date, messageID: MessageID, text: String,
        html: String, inlineImages: [InlineImage] = []
    ) throws(MailError) {
        guard !to.isEmpty else { throw .noRecipients }
        guard !HeaderText.hasControlCharacter(subject) else { throw .controlCharacter(field: "Subject") }
        var seen = Set<String>()
        for image in inlineImages where !seen.insert(image.contentID).inserted {
            throw .invalidIdentifier(field: "Content-ID (used twice)", value: image.contentID)
        }
        self.from = from
        self.to = to
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.text = text
        self.html = html
        self.inlineImages = inlineImages
    }
}
