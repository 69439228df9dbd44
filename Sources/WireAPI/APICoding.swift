import Foundation

/// The JSON coding of the check-in API (docs/api/openapi.yaml): camelCase keys, times as RFC 3339 UTC with
/// milliseconds. Server and kiosk use these two, so both write and read the same text.
public enum APICoding {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(APITime.text(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = APITime.date(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "'\(text)' is not an RFC 3339 time such as 2026-11-23T10:30:00.000Z")
            }
            return date
        }
        return decoder
    }
}

/// RFC 3339 times with milliseconds, in UTC.
public enum APITime {
    public static func text(_ date: Date) -> String {
        // The formatter truncates the binary fraction: 18.757 s, held as 18.75699999..., would print as 18.756.
        // The time is written from the middle of its nearest millisecond, so every pass keeps it.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: (milliseconds + 0.5) / 1000).formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// The times the API carries: years 1 to 9999, as RFC 3339 writes them. Foundation reads years far beyond
    /// (up to 144683), whose microseconds PostgresNIO's `Int64(seconds * 1e6)` comes within a factor of two of
    /// trapping on; every time from a device or a webhook is in this range before it reaches arithmetic.
    /// (The lower end lies a few days before 0001-01-01 in either calendar: Foundation reads early years as Julian.)
    public static let range =
        Date(timeIntervalSince1970: -62_200_000_000)...Date(timeIntervalSince1970: 253_402_300_799.999)

    /// The time `text` names, to the millisecond the API carries: a finer fraction ("18:00:00.0005Z") is
    /// rounded to its nearest millisecond, so a time read and written again reads back the same. Nil outside
    /// `range`.
    public static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        let parsed =
            (try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: .iso8601))
        guard let parsed, range.contains(parsed) else { return nil }
        return Date(timeIntervalSince1970: (parsed.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
