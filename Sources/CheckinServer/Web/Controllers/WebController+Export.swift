import CheckinCore
import Foundation
import Hummingbird
import PassFormat
import WireAPI

extension WebController {
    /// `GET /events/{id}/export/guests.csv`: every guest with their check-in, for a spreadsheet.
    @Sendable func exportGuests(_ request: Request, context: EventPageContext) async throws -> Response {
        let event = context.event
        let guests = try await repository.searchGuests(event: event.id, text: "", limit: Int(Int32.max))
        let rows = guests.map { guest in
            [
                guest.id.text, guest.id.displayCode, guest.name, guest.email ?? "", guest.phone ?? "",
                String(guest.partySize), guest.ticketType ?? "", guest.checkInNote ?? "", guest.arrivalAlert ?? "",
                guest.status.rawValue, guest.checkIn.map { APITime.text($0.at) } ?? "", guest.checkIn?.door ?? "",
                guest.checkIn.map { String($0.arrived) } ?? "",
            ]
        }
        let text = SpreadsheetCSV.document(
            header: [
                "guest_id", "code", "name", "email", "phone", "party_size", "ticket_type", "notes", "arrival_alert",
                "status", "checked_in_at", "door", "arrived",
            ], rows: rows)
        try await auditExport(context, "guests", count: rows.count)
        return Self.csv(text, name: "event-\(event.id.rawValue)-guests.csv")
    }

    /// `GET /events/{id}/export/check-ins.csv`: every scan that reached the server, in the order received.
    @Sendable func exportCheckIns(_ request: Request, context: EventPageContext) async throws -> Response {
        let event = context.event
        let scans = try await repository.checkInEvents(event: event.id)
        let rows = scans.map { scan in
            [
                APITime.text(scan.correctedTime), scan.guest, scan.kind.rawValue, scan.outcome.rawValue, scan.door,
                scan.source, scan.key.deviceId, String(scan.key.sequence), String(scan.arrived),
                APITime.text(scan.deviceTime), APITime.text(scan.receivedAt), scan.reason ?? "",
            ]
        }
        let text = SpreadsheetCSV.document(
            header: [
                "time", "guest_id", "kind", "outcome", "door", "source", "device", "sequence", "arrived",
                "device_time", "received_at", "reason",
            ], rows: rows)
        try await auditExport(context, "check-ins", count: rows.count)
        return Self.csv(text, name: "event-\(event.id.rawValue)-check-ins.csv")
    }

    func auditExport(_ context: EventPageContext, _ what: String, count: Int) async throws {
        try await repository.appendAudit(
            AuditEntry(
                at: clock.now(), tenant: context.event.tenant, device: nil, action: "exported",
                detail: "\(count) \(what) of event \(context.event.id) by organizer \(context.signed.organizer.email)"))
    }

    static func csv(_ text: String, name: String) -> Response {
        var headers = WebPages.headers(type: "text/csv; charset=utf-8")
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
