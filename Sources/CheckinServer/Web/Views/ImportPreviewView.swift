import CheckinCore

/// What an uploaded guest file would do, shown before anything is written, with the form that imports it.
struct ImportPreviewView {
    var eventId: UInt32
    var eventName: String
    var added: String
    var updated: String
    var unchanged: String
    var duplicates: String?
    var nothing: Bool
    /// The first names the file updates, to recognise the file by.
    var updatedNames: String?
    var file: String
    var csrf: String

    init(plan: GuestImportPlan, event: Event, file: String, csrf: String) {
        eventId = event.id.rawValue
        eventName = event.name
        added = TimeText.counted(plan.additions.count, "new guest")
        updated = TimeText.counted(plan.updates.count, "guest") + " updated"
        unchanged = TimeText.counted(plan.unchanged, "guest") + " already as the file has them"
        if plan.possibleDuplicates > 0 {
            duplicates =
                "\(TimeText.counted(plan.possibleDuplicates, "new line has", "new lines have")) no guest_id and no "
                + "e-mail but the name of a guest already here: importing adds them again. Add a guest_id or e-mail "
                + "column (export the guest list to get the ids) if they are the same people."
        }
        nothing = plan.additions.isEmpty && plan.updates.isEmpty
        if !plan.updates.isEmpty {
            updatedNames =
                plan.updates.prefix(10).map(\.guest.name).joined(separator: ", ")
                + (plan.updates.count > 10 ? ", …" : "")
        }
        self.file = file
        self.csrf = csrf
    }
}
