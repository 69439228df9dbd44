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

    /// The time `text` names, to the millisecond the API carries: a finer fraction ("18:00:00.0005Z") is
    /// rounded to its nearest millisecond, so a time read and written again reads back the same.
    public static func date(_ text: String) -> Date? {
        let parsed =
            (try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: .iso8601))
        guard let parsed else { return nil }
        return Date(timeIntervalSince1970: (parsed.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
