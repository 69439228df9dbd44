/// The organizer's pages as Mustache templates (swift-mustache), one file each in `Templates/`, put into the binary
/// by SwiftPM (`.embedInCode` in Package.swift): nothing to install beside it. `{{x}}` is HTML-escaped; the layout
/// is the parent of every page.
enum WebTemplates {
    /// Every template by the name the pages render it with (its file's name without `.mustache`).
    static let all: [String: String] = [
        "account": text(PackageResources.account_mustache),
        "confirm": text(PackageResources.confirm_mustache),
        "dashboard": text(PackageResources.dashboard_mustache),
        "dashboard-live": text(PackageResources.dashboard_live_mustache),
        "devices": text(PackageResources.devices_mustache),
        "double-entries": text(PackageResources.double_entries_mustache),
        "event-nav": text(PackageResources.event_nav_mustache),
        "events": text(PackageResources.events_mustache),
        "forbidden": text(PackageResources.forbidden_mustache),
        "guest-edit": text(PackageResources.guest_edit_mustache),
        "guests": text(PackageResources.guests_mustache),
        "import-preview": text(PackageResources.import_preview_mustache),
        "layout": text(PackageResources.layout_mustache),
        "lists": text(PackageResources.lists_mustache),
        "monitor": text(PackageResources.monitor_mustache),
        "monitor-live": text(PackageResources.monitor_live_mustache),
        "no-shows": text(PackageResources.no_shows_mustache),
        "not-found": text(PackageResources.not_found_mustache),
        "pass": text(PackageResources.pass_mustache),
        "pass-missing": text(PackageResources.pass_missing_mustache),
        "password-new": text(PackageResources.password_new_mustache),
        "password-reset": text(PackageResources.password_reset_mustache),
        "sign-in": text(PackageResources.sign_in_mustache),
    ]

    /// A file's text without its final line break (a partial's output ends where its last line does).
    static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
