import PassFormat

/// What importing a guest file into an event would do, worked out before anything is written (the organizer's
/// preview): each line updates the guest it names by `guest_id`, or, without an id, the one guest of the event
/// with its e-mail address; a line that changes nothing is skipped; any other line adds a guest. Importing the
/// same file twice changes nothing the second time.
public struct GuestImportPlan: Equatable, Sendable {
    /// An existing guest and the values the file gives it.
    public struct Update: Equatable, Sendable {
        public var id: GuestID
        public var guest: NewGuest

        public init(id: GuestID, guest: NewGuest) {
            self.id = id
            self.guest = guest
        }
    }

    public var additions: [NewGuest] = []
    public var updates: [Update] = []
    /// Lines that match a guest and change nothing.
    public var unchanged = 0
    /// Added lines without an id or e-mail whose name is already an existing guest's: likely the same person
    /// twice, said in the preview.
    public var possibleDuplicates = 0

    public init(rows: [GuestCSV.Row], existing: [Guest]) {
        let byID = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // An address matches only when one guest of the event has it and one line of the file gives it: a family
        // sharing an address is added, not merged.
        let existingByEmail = Dictionary(grouping: existing.filter { $0.email != nil }) { Self.key($0.email!) }
        let fileEmails = Dictionary(grouping: rows.compactMap { $0.idGiven ? nil : $0.guest.email.map(Self.key) }) {
            $0
        }
        let names = Set(existing.map { $0.name.lowercased() })
        var matched: Set<GuestID> = []
        for row in rows {
            var match: Guest?
            if row.idGiven {
                match = byID[row.guest.id]
            } else if let email = row.guest.email.map(Self.key), fileEmails[email]?.count == 1,
                let holders = existingByEmail[email], holders.count == 1
            {
                match = holders[0]
            }
            if let match, matched.insert(match.id).inserted {
                if Self.differs(match, row.guest) {
                    var values = row.guest
                    values.id = match.id
                    updates.append(Update(id: match.id, guest: values))
                } else {
                    unchanged += 1
                }
                continue
            }
            if !row.idGiven && row.guest.email == nil && names.contains(row.guest.name.lowercased()) {
                possibleDuplicates += 1
            }
            additions.append(row.guest)
        }
    }

    static func key(_ email: String) -> String { email.lowercased() }

    /// Whether the file's values differ from what the guest has (the status is left to cancel and restore).
    static func differs(_ guest: Guest, _ values: NewGuest) -> Bool {
        guest.name != values.name || guest.email != values.email || guest.phone != values.phone
            || guest.partySize != values.partySize || guest.ticketType != values.ticketType
            || guest.checkInNote != values.checkInNote || guest.arrivalAlert != values.arrivalAlert
    }
}
