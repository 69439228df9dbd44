import CheckinCore
import Foundation
import Hummingbird
import Mustache

/// Renders the organizer's pages from `WebTemplates`, with the headers every page gets.
struct WebPages: Sendable {
    let library: MustacheLibrary
    let timeZone: TimeZone

    init(timeZone: TimeZone) {
        self.library = Self.parsed
        self.timeZone = timeZone
    }

    /// The templates, parsed once per process: every application built (a test builds hundreds) shares them.
    private static let parsed: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in WebTemplates.all {
            // The templates are part of the binary and covered by the tests: a broken one is a programming error.
            do { try library.register(text, named: name) } catch { preconditionFailure("template \(name): \(error)") }
        }
        return library
    }()

    /// The zone an event's pages show times in: the event's own (its venue's), or the server's for an event that
    /// has none.
    func zone(of event: Event) -> TimeZone { event.zone(or: timeZone) }

    /// A whole page; `signed` puts the organizer's name and the sign-out form in the header.
    func html(
        _ template: String, _ object: Any, signed: OrganizerSessions.Signed? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        let header: [String: Any]? = signed.map {
            ["name": $0.organizer.name, "tenantName": $0.tenant.name, "csrf": $0.session.csrfToken]
        }
        let text = library.render(PageContext(page: object, organizer: header), withTemplate: template) ?? ""
        return Response(
            status: status, headers: Self.headers(type: "text/html; charset=utf-8"),
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Part of a page (the monitor's live part).
    func fragment(_ template: String, _ object: Any) -> Response {
        let text = library.render(object, withTemplate: template) ?? ""
        return Response(
            status: .ok, headers: Self.headers(type: "text/html; charset=utf-8"),
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// No caching of pages, no framing, no sniffing, and only this site's own scripts and styles.
    static func headers(type: String) -> HTTPFields {
        [
            .contentType: type, .cacheControl: "no-store", .xContentTypeOptions: "nosniff",
            .strictTransportSecurity: "max-age=31536000",
            .contentSecurityPolicy:
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
        ]
    }
}

/// A page's values plus the header's: Mustache looks names up in `page` first, then here.
struct PageContext: MustacheParent {
    var page: Any
    var organizer: [String: Any]?

    func child(named name: String) -> Any? {
        if name == "organizer" { return organizer }
        if let dictionary = page as? [String: Any] { return dictionary[name] }
        guard let value = Mirror(reflecting: page).children.first(where: { $0.label == name })?.value else {
            return nil
        }
        // An optional property: its value, or nothing (Mustache treats a present key as set).
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}
