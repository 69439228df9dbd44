import CheckinCore
import Foundation

/// The e-mail with a password-reset link, and where it is sent from.
struct PasswordResetMail: Sendable {
    /// Sends it after the page's answer.
    let outbox: MailOutbox
    /// The server's address as organizers reach it (`serve --public-url`): the link starts with it.
    let address: PublicAddress
    /// How long a link works: 30 minutes.
    static let lifetime: TimeInterval = 30 * 60

    func email(to organizer: Organizer, token: String) -> OutgoingEmail {
        let base = address.value
        let link = "\(base)/password-reset/\(token)"
        let domain = URL(string: base)?.host ?? "checkin.invalid"
        let text = """
            Hello \(organizer.name),

            someone (we hope you) asked for a new password for \(organizer.email). To set one, open this link within \
            30 minutes; it works once:

            \(link)

            If you did not ask, ignore this message: your password stays as it is.
            """
        let html = """
            <p>Hello \(HTMLText.escape(organizer.name)),</p>
            <p>someone (we hope you) asked for a new password for \(HTMLText.escape(organizer.email)). To set one, open \
            this link within 30 minutes; it works once:</p>
            <p><a href="\(HTMLText.escape(link))">Set a new password</a></p>
            <p>If you did not ask, ignore this message: your password stays as it is.</p>
            """
        return OutgoingEmail(
            to: organizer.email, subject: "Your new password for check-in", text: text, html: html, inlineImage: nil,
            messageID: "<reset-\(UUID().uuidString.lowercased())@\(domain)>")
    }
}
