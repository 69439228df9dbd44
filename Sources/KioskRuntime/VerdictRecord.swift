import Foundation
import KioskCore

/// One line of replay output: what the screen showed for one code, as JSON.
public struct VerdictRecord: Codable, Equatable, Sendable {
    public var file: String?
    public var frame: Int?
    public var verdict: String
    public var guest: String?
    public var name: String?
    public var partySize: Int?
    public var arrived: Int?
    public var notes: String?
    /// For already_checked_in: when and at which door.
    public var checkedInAt: String?
    public var door: String?
    /// For already_checked_in: true when this door admitted the guest too (a double entry).
    public var doubleEntry: Bool?
    public var at: String
    public var source: String

    enum CodingKeys: String, CodingKey {
        case file, frame, verdict, guest, name, arrived, notes, door, at, source
        case partySize = "party_size"
        case checkedInAt = "checked_in_at"
        case doubleEntry = "double_entry"
    }

    public init(_ result: ScanResult, file: String?, frame: Int?) {
        self.file = file
        self.frame = frame
        verdict = result.verdict.name
        let g = result.verdict.guest
        guest = g?.guest.text
        name = g?.name
        partySize = g?.partySize
        notes = g.flatMap { $0.notes.isEmpty ? nil : $0.notes }
        at = Self.timestamp(result.at)
        source = result.source.rawValue
        switch result.verdict {
        case .admitted(_, let n): arrived = n
        case .alreadyCheckedIn(_, let when, let where_, let double):
            doubleEntry = double ? true : nil
            checkedInAt = Self.timestamp(when)
            door = where_
        default: break
        }
    }

    /// ISO 8601 with milliseconds, UTC, rounded as the database rounds. One formatter for every record, not one
    /// made per line; ISO8601DateFormatter is safe to use from several threads once configured.
    nonisolated(unsafe) static let formatter: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()

    static func timestamp(_ d: Date) -> String { formatter.string(from: d) }

    /// The record as one JSON line, keys in a stable order.
    public var jsonLine: String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? e.encode(self)) ?? Data(), as: UTF8.self)
    }
}
