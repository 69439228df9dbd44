import Foundation

extension ScanOutcome {
    /// The answer as stored beside its key, what a repeat of the key is answered with: JSON as Foundation's
    /// JSONEncoder writes it with its defaults (the time as seconds since 2001, a Double), written directly:
    /// JSONEncoder cost more CPU per check-in than the check-in's SQLite statements. `init(storedAnswer:)` reads
    /// both, and every answer stored before.
    public func storedAnswer() throws -> String {
        var text = "{\"kind\":\"" + kind.rawValue + "\""
        if let checkIn {
            text +=
                ",\"checkIn\":{\"door\":" + Self.quoted(checkIn.door) + ",\"at\":"
                + checkIn.at.timeIntervalSinceReferenceDate.description + ",\"arrived\":" + String(checkIn.arrived)
            if let deviceId = checkIn.deviceId { text += ",\"deviceId\":" + Self.quoted(deviceId) }
            if let sequence = checkIn.sequence { text += ",\"sequence\":" + String(sequence) }
            text += "}"
        }
        if let reason { text += ",\"reason\":" + Self.quoted(reason) }
        return text + "}"
    }

    /// A stored answer read back.
    public init(storedAnswer: String) throws {
        self = try JSONDecoder().decode(ScanOutcome.self, from: Data(storedAnswer.utf8))
    }

    /// A JSON string: quote, backslash and control characters escaped, everything else as it is.
    static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(value.utf8.count + 2)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }
}
