import CheckinCore
import Foundation

/// The email that carries a guest's pass: the event, the guest's party and the date in HTML with the QR code
/// inline, and a plain-text alternative with the pass's URL.
enum PassEmail {
    static func make(
        issuance: PassIssuance, guest: Guest, event: Event, passURL: String, png: [UInt8], domain: String,
        timeZone: TimeZone
    ) -> OutgoingEmail? {
        guard let to = issuance.recipient else { return nil }
        let date = dateText(event.startsAt, timeZone: timeZone)
        let first = firstName(guest.name)
        let party = guest.partySize == 1 ? "1 person" : "\(guest.partySize) people"
        let code = guest.id.displayCode
        let text = """
            Hello \(first),

            Your pass for \(event.name) (\(date)\(event.venue.map { ", \($0)" } ?? "")) admits \(party).

            Show the QR code at the door. It is also here:
            \(passURL)

            Confirmation code, if the camera cannot read it: \(code)

            """
        let e = HTMLText.escape
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(e(event.name))</title></head>
            <body style="font-family: sans-serif; color: #1b1f24; margin: 0;">
            <div style="background: #1d4ed8; color: #ffffff; padding: 24px; text-align: center;">
            <h1 style="margin: 0;">\(e(event.name))</h1>
            <p style="margin: 8px 0 0 0;">\(e(date))\(event.venue.map { " · " + e($0) } ?? "")</p>
            </div>
            <div style="padding: 24px; text-align: center;">
            <p>Hello \(e(first)), show this code at the door.</p>
            <img src="cid:\(contentID(issuance))" alt="Your pass: QR code" width="240" height="240"
              style="width: 240px; height: 240px;">
            <p>Party of \(e(String(guest.partySize))) · \(e(date))</p>
            <p>Confirmation code: <strong>\(e(code))</strong></p>
            <p><a href="\(e(passURL))">Open your pass</a></p>
            </div>
            </body></html>

            """
        return OutgoingEmail(
            to: to, subject: "Your pass for \(event.name)", text: text, html: html,
            inlineImage: InlineImage(contentID: contentID(issuance), filename: "pass.png", png: png),
            messageID: issuance.messageID(domain: domain))
    }

    static func contentID(_ issuance: PassIssuance) -> String { "pass-\(issuance.id)@checkin" }

    static func firstName(_ name: String) -> String {
        name.split(separator: " ").first.map(String.init) ?? name
    }

    static func dateText(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEEE d MMMM yyyy, HH:mm"
        return formatter.string(from: date)
    }
}
