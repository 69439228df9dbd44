import KioskCore
import KioskScenes
import PassFormat
import SignedRecords

/// A roster with names and e-mails shaped like real ones (two or three words, some hyphenated, accents), so
/// the search and the field-level model's prefix tokens see realistic lengths.
enum BenchRoster {
    static let first = [
        "Anna", "Bob", "Émile", "Carla", "Dan", "Eva", "Farid", "Grace", "Hiroshi", "Ingrid", "José", "Kateřina",
        "Liam", "Maria", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tomás", "Ursula", "Viktor", "Wen",
        "Ximena", "Yusuf", "Zoë", "Mary-Jane", "Jean-Luc", "Aoife",
    ]
    static let last = [
        "Smith", "Jones", "Zola-Martin", "Smithers", "Brown", "Müller", "García", "Nguyen", "Kowalski", "O'Neil",
        "Rossi", "Dubois", "Andersson", "Tanaka", "Okafor", "Novák", "Fernández", "Schmidt", "Kim", "Patel",
        "Van der Berg", "Silva", "Ivanova", "Haddad", "Murphy", "Johansson", "Costa", "Weber", "Lee", "Khan",
    ]

    static func make(_ count: Int, event: EventID = EventID(1)) -> [RosterGuest] {
        var rng = SplitMix64(seed: 1818)
        return (0..<count).map { i in
            let f = first[Int.random(in: 0..<first.count, using: &rng)]
            let l = last[Int.random(in: 0..<last.count, using: &rng)]
            let email =
                "\(f.lowercased().filter(\.isASCII)).\(l.lowercased().filter { $0.isLetter && $0.isASCII })\(i)@example.org"
            return RosterGuest(
                guest: GuestID.random(using: &rng), tenant: TenantID(1), event: event, name: "\(f) \(l)", email: email,
                partySize: 1 + i % 3, notes: i % 5 == 0 ? "phone +44 7700 9\(String(format: "%05d", i % 100_000))" : "")
        }
    }
}
