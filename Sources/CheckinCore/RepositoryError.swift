/// What a `CheckinRepository` refuses. Storage failures themselves are the database layer's errors.
public enum RepositoryError: Error, Equatable, Sendable {
    /// The thing does not exist (or belongs to another tenant: the caller cannot tell).
    case notFound(String)
    /// An enrolment code that was already redeemed.
    case codeUsed
    /// An enrolment code past its expiry.
    case codeExpired
    /// A roster cursor the repository did not make.
    case badCursor
    /// A guest id that is already in the event.
    case duplicateGuest(String)
    /// An organizer's e-mail address that already has an account.
    case duplicateOrganizer(String)
    /// A check-in list's name the event already has.
    case duplicateList(String)
}
