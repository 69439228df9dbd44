import CheckinCore
import Foundation
import WireAPI

/// What an offline alert says, by e-mail and as the webhook's body.
struct OfflineAlertMessage {
    let delivery: AlertDelivery
    let event: Event
    let monitorURL: String
    let timeZone: TimeZone

    var offline: Bool { delivery.kind == .offline }

    var subject: String {
        offline ? "Offline: \(delivery.door) at \(event.name)" : "Back online: \(delivery.door) at \(event.name)"
    }

    var text: String {
        let time = TimeText(now: delivery.createdAt, timeZone: timeZone)
        let seen = time.dayAndTime(delivery.lastSeenAt)
        let silent = Int(delivery.createdAt.timeIntervalSince(delivery.lastSeenAt) / 60)
        let contact = event.opsContact.map { "\nVenue ops contact: \($0)\n" } ?? ""
        if offline {
            return """
                The kiosk at \(delivery.door) (device \(delivery.device)) has not reached the check-in server since \
                \(seen), \(silent) minutes ago.

                The kiosk keeps checking guests in without the network and sends what it recorded once it is back. \
                If this door is open, check the kiosk's power and network.
                \(contact)
                Sync monitor: \(monitorURL)

                You get this once for this silence. Another message follows when the kiosk reports again.

                """
        }
        return """
            The kiosk at \(delivery.door) (device \(delivery.device)) is reporting to the check-in server again \
            (noticed \(time.dayAndTime(delivery.createdAt)); silent since \(seen)). Its queued check-ins are on \
            their way up.

            Sync monitor: \(monitorURL)

            """
    }

    var html: String {
        let e = HTMLText.escape
        let paragraphs = text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
            .map { "<p>\(e($0).replacingOccurrences(of: "\n", with: "<br>"))</p>" }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(e(subject))</title></head>
            <body style="font-family: sans-serif; color: #1b1f24;">
            <h1 style="font-size: 20px; color: \(offline ? "#b91c1c" : "#15803d");">\(e(subject))</h1>
            \(paragraphs.joined(separator: "\n"))
            </body></html>

            """
    }

    func email(domain: String) -> OutgoingEmail {
        OutgoingEmail(
            to: delivery.target, subject: subject, text: text, html: html, inlineImage: nil,
            messageID: delivery.messageID(domain: domain))
    }

    /// The webhook's JSON body (`DeviceAlert`, the API's coding).
    func webhookBody(timestamp: Date) throws -> [UInt8] {
        let alert = DeviceAlert(
            type: delivery.kind.eventType, timestamp: timestamp,
            data: DeviceAlert.Data(
                eventId: event.id.rawValue, eventName: event.name, deviceId: delivery.device, door: delivery.door,
                lastSeenAt: delivery.lastSeenAt, noticedAt: delivery.createdAt, opsContact: event.opsContact,
                monitorUrl: monitorURL))
        return Array(try APICoding.encoder().encode(alert))
    }
}
