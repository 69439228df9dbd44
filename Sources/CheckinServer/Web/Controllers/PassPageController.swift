import CheckinCore
import Cryptography
import Foundation
import Hummingbird
import PassFormat

/// `GET /p/{pass}`: the guest's pass on a phone (event, first name, QR code, confirmation code). A pass
/// whose signature does not verify with the tenant's keys, or whose guest is unknown, gets the same page as
/// anything else: nothing to learn, nothing to enumerate (a pass is 85 random-looking signed bytes).
struct PassPageController {
    let repository: any CheckinRepository
    let pages: WebPages
    let steps: PassIssuanceSteps?

    func addRoutes(to router: Router<ServerContext>) {
        // The QR code holds the URL in upper case (QR alphanumeric mode).
        router.get("p/:pass", use: page)
        router.get("P/:pass", use: page)
    }

    struct View {
        var eventName: String
        var date: String
        var venue: String?
        var firstName: String
        var partySize: String
        var code: String
        var qr: String
        var cancelled: Bool
        var checkedIn: String?
    }

    @Sendable func page(_ request: Request, context: ServerContext) async throws -> Response {
        guard let text = context.parameters.get("pass"), let view = try await view(text) else {
            return pages.html("pass-missing", [String: Any](), status: .notFound)
        }
        var response = pages.html("pass", view)
        response.headers[HTTPFields.Element.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPFields.Element.Name("X-Robots-Tag")!] = "noindex"
        return response
    }

    func view(_ text: String) async throws -> View? {
        guard let token = try? PassToken(payload: Array(text.utf8)) else { return nil }
        var keys = TrustedKeys()
        for key in try await repository.signingKeys(tenant: token.tenant) {
            if let publicKey = try? Ed25519PublicKey(raw: key.publicKey) { keys.trust(publicKey, as: key.keyID) }
        }
        guard keys.isValidSignature(token.signature, of: token.signedMessage, keyID: token.keyID),
            let event = try await repository.event(token.event), event.tenant == token.tenant,
            let guest = try await repository.guest(token.guest, event: event.id)
        else { return nil }
        let time = TimeText(now: event.startsAt, timeZone: pages.zone(of: event))
        let url = steps?.passURL(token.text) ?? "/P/" + token.text
        return View(
            eventName: event.name, date: PassEmail.dateText(event.startsAt, timeZone: pages.zone(of: event)),
            venue: event.venue, firstName: PassEmail.firstName(guest.name),
            partySize: guest.partySize == 1 ? "1 person" : "\(guest.partySize) people", code: guest.id.displayCode,
            qr: try QRCodeSVG.svg(url, label: "Your pass: QR code"), cancelled: guest.status == .cancelled,
            checkedIn: guest.checkIn.map { "Checked in at \($0.door), \(time.time($0.at))" })
    }
}
