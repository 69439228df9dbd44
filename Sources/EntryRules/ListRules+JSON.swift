import Foundation

extension ListRules: Codable {
    enum CodingKeys: String, CodingKey {
        case ticketTypes, opensAt, closesAt, maximumEntries, maximumEntriesPerDay, minimumMinutesBetweenEntries
        case allowsReentry
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ticketTypes = try container.decodeIfPresent([String].self, forKey: .ticketTypes).map(Set.init)
        opensAt = try container.decodeIfPresent(Date.self, forKey: .opensAt)
        closesAt = try container.decodeIfPresent(Date.self, forKey: .closesAt)
        maximumEntries = try container.decodeIfPresent(Int.self, forKey: .maximumEntries)
        maximumEntriesPerDay = try container.decodeIfPresent(Int.self, forKey: .maximumEntriesPerDay)
        minimumMinutesBetweenEntries = try container.decodeIfPresent(Int.self, forKey: .minimumMinutesBetweenEntries)
        allowsReentry = try container.decodeIfPresent(Bool.self, forKey: .allowsReentry) ?? true
    }

    /// The ticket types sorted, absent values left out: the same rules always make the same bytes (the server
    /// signs them for the doors).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(ticketTypes?.sorted(), forKey: .ticketTypes)
        try container.encodeIfPresent(opensAt, forKey: .opensAt)
        try container.encodeIfPresent(closesAt, forKey: .closesAt)
        try container.encodeIfPresent(maximumEntries, forKey: .maximumEntries)
        try container.encodeIfPresent(maximumEntriesPerDay, forKey: .maximumEntriesPerDay)
        try container.encodeIfPresent(minimumMinutesBetweenEntries, forKey: .minimumMinutesBetweenEntries)
        try container.encode(allowsReentry, forKey: .allowsReentry)
    }

    /// The rules as the server stores them and sends them to doors: JSON, keys sorted, times in RFC 3339 UTC
    /// to the second.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Encoding plain values cannot fail; the fallback keeps the signature of a total function.
        guard let data = try? encoder.encode(self) else { return #"{"allowsReentry":true}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads rules stored or sent as `json`; nil for anything else (the caller names what it was reading).
    public init?(json: String) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let rules = try? decoder.decode(ListRules.self, from: Data(json.utf8)) else { return nil }
        self = rules
    }
}
