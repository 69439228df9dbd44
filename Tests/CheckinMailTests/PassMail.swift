import CheckinMail
import Foundation
import ImageFiles
import QREncoding

/// A pass e-mail as the issuance workflow will make it: the event's name, the guest's party size and the date
/// in the HTML, the QR code inline (a PNG from the project's own renderer), the pass URL in the text.
enum PassMail {
    static let passURL = "https://checkin.example/p/K7Q2-MX4V-9TZB"
    static let date = Date(timeIntervalSince1970: 1_796_148_000)  // Tue, 01 Dec 2026 18:00:00 +0000

    static func qrPNG(_ text: String = passURL) throws -> [UInt8] {
        try ImageFile.encodePNG(QRCodeRenderer.render(text, moduleSize: 6, quietZone: 4, correction: .medium).image)
    }

    static func make(
        to address: String = "zoe@guests.example", guest: String = "Zoë Martin", step: String = "send-pass",
        subject: String = "Your pass for Winter Gala – Zoë"
    ) throws -> MailMessage {
        let image = try InlineImage(contentID: "pass-qr@checkin.example", fileName: "pass.png", data: qrPNG())
        return try MailMessage(
            from: MailAddress("passes@checkin.example", displayName: "Winter Gala"),
            to: [MailAddress(address, displayName: guest)],
            subject: subject,
            date: date,
            messageID: MessageID(local: "issue-4711-\(step)", domain: "checkin.example"),
            text: """
                Hello Zoë,

                your pass for Winter Gala (party of 3, Tue 1 December 2026, 18:00) is here:
                \(passURL)

                Show it at the door.
                """,
            html: """
                <!doctype html>
                <html><body>
                <h1>Winter Gala</h1>
                <p>Hello Zoë, party of 3 &middot; Tue 1 December 2026, 18:00</p>
                <p><img src="\(image.htmlSource)" alt="Your pass" width="270" height="270"></p>
                <p><a href="\(passURL)">\(passURL)</a></p>
                </body></html>
                """,
            inlineImages: [image])
    }
}
