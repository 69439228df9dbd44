/// Writes a `MailMessage` as the bytes handed to the relay (RFC 5322 and MIME, CRLF line endings):
///
/// ```
/// multipart/alternative
///   text/plain; charset=utf-8        quoted-printable
///   multipart/related; type="text/html"
///     text/html; charset=utf-8       quoted-printable
///     image/png (Content-ID, inline) base64, one part per inline image
/// ```
///
/// The output depends only on the message: the boundaries come from the Message-ID, so a retried step sends
/// the very same bytes.
public enum MIMEWriter {
    /// The message's bytes.
    public static func write(_ message: MailMessage) -> [UInt8] {
        let tag = fingerprint(message.messageID.value)
        let alternative = "=_alt_" + tag
        let related = "=_rel_" + tag
        var lines = [
            "Date: " + HeaderText.date(message.date),
            HeaderText.addresses("From", [message.from]),
            HeaderText.addresses("To", message.to),
            HeaderText.unstructured("Subject", message.subject),
            "Message-ID: " + message.messageID.description,
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(alternative)\"",
            "",
            "--" + alternative,
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            TransferEncoding.quotedPrintable(message.text),
            "--" + alternative,
        ]
        let html = [
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            TransferEncoding.quotedPrintable(message.html),
        ]
        if message.inlineImages.isEmpty {
            lines += html
        } else {
            lines += ["Content-Type: multipart/related; boundary=\"\(related)\";\r\n type=\"text/html\"", ""]
            lines += ["--" + related] + html
            for image in message.inlineImages {
                lines += [
                    "--" + related,
                    "Content-Type: \(image.mediaType); name=\"\(image.fileName)\"",
                    "Content-Transfer-Encoding: base64",
                    "Content-ID: <\(image.contentID)>",
                    "Content-Disposition: inline; filename=\"\(image.fileName)\"",
                    "",
                    TransferEncoding.base64(image.data),
                ]
            }
            lines += ["--" + related + "--", ""]
        }
        lines += ["--" + alternative + "--", ""]
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    /// 16 hex digits of FNV-1a over the Message-ID: boundaries that differ between messages (a message quoted
    /// inside another stays readable) and stay the same for one message.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
