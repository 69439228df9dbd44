import Foundation

/// What a guest's fields may hold, checked by the server wherever a guest comes in (the organizer's form, a CSV
/// import, the admin API), not only by the browser's form: a name a screen can show, an e-mail address a pass
/// can be sent to.
public enum GuestFields {
    public static let maximumNameLength = 200
    public static let maximumPhoneLength = 40
    /// The ticket type, the check-in note and the arrival alert.
    public static let maximumTextLength = 500

    /// What is wrong with the fields, naming the field and what to do; nil when they are fine.
    public static func problem(
        name: String, email: String?, phone: String?, ticketType: String? = nil, note: String? = nil,
        arrivalAlert: String? = nil
    ) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "the name is empty" }
        if trimmed.count > maximumNameLength {
            return "the name has \(trimmed.count) characters; at most \(maximumNameLength)"
        }
        if let email, !email.isEmpty, !EmailAddress.isPlausible(email) {
            return "the e-mail address '\(email.prefix(60))' is not one a pass can be sent to: it needs one @ with a "
                + "name before it and a domain such as example.org after it, and no spaces"
        }
        if let phone, phone.count > maximumPhoneLength {
            return "the phone number has \(phone.count) characters; at most \(maximumPhoneLength)"
        }
        for (field, text) in [("ticket type", ticketType), ("check-in note", note), ("arrival alert", arrivalAlert)] {
            if let text, text.count > maximumTextLength {
                return "the \(field) has \(text.count) characters; at most \(maximumTextLength)"
            }
        }
        return nil
    }
}
