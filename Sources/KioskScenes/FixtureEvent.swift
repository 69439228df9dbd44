import Cryptography
import Foundation
import KioskCore
import PassFormat
import SignedRecords

/// A made-up event for tests and the demo: its keys, its roster and the passes of its guests.
public struct FixtureEvent: Sendable {
    public var tenant = TenantID(7)
    public var event = EventID(4711)
    public var keyID: KeyID = 1
    public var urlBase = "https://pass.example.org/p"
    public let issuerKey: Ed25519PrivateKey
    /// Another key, for forged passes (claiming key id 1) and passes of an unknown key id.
    public let forgerKey: Ed25519PrivateKey
    public var guests: [RosterGuest]

    /// A deterministic event from `seed` (same seed, same keys and roster), or fresh random keys.
    public init(seed: UInt64, guestCount: Int = 300, randomKeys: Bool = false) throws {
        var rng = SplitMix64(seed: seed)
        func seedBytes() -> [UInt8] { (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        let issuerSeed = seedBytes()
        let forgerSeed = seedBytes()
        issuerKey = randomKeys ? try Ed25519PrivateKey.generate() : try Ed25519PrivateKey(seed: issuerSeed)
        forgerKey = randomKeys ? try Ed25519PrivateKey.generate() : try Ed25519PrivateKey(seed: forgerSeed)
        guests = []
        for i in 0..<guestCount {
            let first = Self.firstNames[Int.random(in: 0..<Self.firstNames.count, using: &rng)]
            let last = Self.lastNames[Int.random(in: 0..<Self.lastNames.count, using: &rng)]
            let party = [1, 1, 1, 1, 2, 2, 3, 4][Int.random(in: 0..<8, using: &rng)]
            let notes = i % 17 == 3 ? Self.notes[i % Self.notes.count] : ""
            guests.append(
                RosterGuest(
                    guest: GuestID.random(using: &rng), tenant: tenant, event: event, name: "\(first) \(last)",
                    email: Self.emailLocalPart("\(first).\(last)") + "\(i)@example.org", partySize: party, notes: notes)
            )
        }
    }

    public var issuer: PassIssuer { PassIssuer(keyID: keyID, tenant: tenant, event: event, privateKey: issuerKey) }

    /// The QR text of a genuine pass for `guest`.
    public func passURL(for guest: GuestID) throws -> String { try issuer.issue(for: guest).url(base: urlBase) }

    /// The roster as CSV, as `kioskctl roster import` reads it.
    public var rosterCSV: String {
        var lines = ["guest_id,name,email,party_size,status,notes"]
        for g in guests {
            lines.append(
                [g.guest.text, g.name, g.email, String(g.partySize), g.status.rawValue, g.notes]
                    .map(Self.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Chloé.Van der Berg" -> "chloe.vanderberg": ASCII, no spaces or apostrophes.
    static func emailLocalPart(_ s: String) -> String {
        s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
            .filter { $0.isASCII && ($0.isLetter || $0 == ".") }
    }

    static func csvField(_ s: String) -> String {
        s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    static let firstNames = [
        "Anna", "Ben", "Chloé", "David", "Elif", "Farah", "Gustav", "Hana", "Ivan", "Julia", "Kofi",
        "Lena", "Mateo", "Nora", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tomás", "Uma",
        "Viktor", "Wen", "Ximena", "Yusuf", "Zoë",
    ]
    static let lastNames = [
        "Smith", "Okafor", "Müller", "Rossi", "Nakamura", "García", "Novak", "Jensen", "O'Brien",
        "Kowalski", "Haddad", "Silva", "Dubois", "Ivanova", "Chen", "Andersson", "Papadopoulos",
        "Van der Berg", "Moreau", "Kaur",
    ]
    static let notes = [
        "VIP: escort to the front", "Wheelchair access", "Press", "Speaker", "Bring guest list, party of friends",
    ]
}
