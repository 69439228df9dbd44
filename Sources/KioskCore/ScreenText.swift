/// The words on the door's screens, written once for every display (framebuffer and text).
public enum ScreenText {
    /// The confirm screen's headline (confirm mode: a guest waits for staff).
    public static let confirmHeadline = "CONFIRM CHECK-IN"
    /// The keys staff use on the confirm screen.
    public static let confirmKeys = "Enter: check in   digits: how many arrived   Esc: cancel"

    /// "Arrived: 3": what staff typed, or the whole party while they typed nothing.
    public static func arrived(typed: String, partySize: Int) -> String {
        "Arrived: \(typed.isEmpty ? String(partySize) : typed)"
    }

    /// "Party of 2".
    public static func party(_ size: Int) -> String { "Party of \(size)" }

    /// "Notes: Wheelchair access", or nil when there are none.
    public static func notes(_ notes: String) -> String? { notes.isEmpty ? nil : "Notes: \(notes)" }

    /// "Checked in 13:07:21 at South door": when and where a repeat guest was let in; `time` is the
    /// display's own rendering of the check-in time.
    public static func checkedIn(time: String, door: String, doubleEntry: Bool = false) -> String {
        doubleEntry ? "Double entry: checked in at \(door) \(time)" : "Checked in \(time) at \(door)"
    }

    /// How many waiting check-ins make the door warn that reconnection will be slow.
    public static let longQueue = 500

    /// The warning line under the status line: an event that needs a newer kiosk, or a long queue; else nil.
    public static func syncWarning(pending: Int, updateRequired: Bool) -> String? {
        if updateRequired { return "UPDATE REQUIRED: this kiosk is too old for the event; check-ins still upload" }
        if pending >= longQueue {
            return "\(pending) check-ins waiting: reconnection will be slow (sent 50 at a time)"
        }
        return nil
    }

    /// The undo screen's title.
    public static let undoHeadline = "UNDO A CHECK-IN"

    /// What an undo row says of the check-in besides the name: when, how many arrived, the code.
    public static func undoDetail(_ recent: RecentCheckIn, time: String) -> String {
        "checked in \(time)   \(recent.checkIn.arrived) of \(recent.guest.partySize) arrived   \(recent.guest.guest.displayCode)"
    }
}
