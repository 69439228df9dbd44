import CheckinCore
import Hummingbird

/// The request context of the organizer's pages: a signed-in organizer (`OrganizerSessionMiddleware` found the
/// session before any handler runs) and, on an event's pages, the event once `EventOwnerMiddleware` has found it
/// to be theirs.
struct OrganizerContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let clientAddress: String?
    let bodyLimit: Int
    let signed: OrganizerSessions.Signed
    /// Set by `EventOwnerMiddleware` on the event's pages.
    var event: Event?

    init(context: ServerContext) throws {
        guard let signed = context.organizer else { throw HTTPError(.unauthorized) }
        coreContext = context.coreContext
        clientAddress = context.clientAddress
        bodyLimit = context.bodyLimit
        self.signed = signed
    }

    var maxUploadSize: Int { bodyLimit }
}

/// The context of one event's pages: the organizer and their event.
struct EventPageContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let bodyLimit: Int
    let signed: OrganizerSessions.Signed
    let event: Event

    init(context: OrganizerContext) throws {
        guard let event = context.event else { throw HTTPError(.notFound) }
        coreContext = context.coreContext
        bodyLimit = context.bodyLimit
        signed = context.signed
        self.event = event
    }

    var maxUploadSize: Int { bodyLimit }
}
