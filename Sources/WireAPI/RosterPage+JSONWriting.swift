import struct Foundation.Date

extension RosterPage {
    /// The page's JSON as `APICoding.encoder()` writes it (the same keys in the same sorted order, absent
    /// optionals left out, the same escapes and times), byte for byte, written directly: a 100,000-guest
    /// download is 200 of these pages, and JSONEncoder's boxing of every field cost the server more CPU than
    /// reading the rows.
    public func encodedJSON() -> [UInt8] {
        var json = JSONText()
        json.bytes.reserveCapacity(160 * guests.count + 200)
        json.open()
        if let changeCursor { json.field("changeCursor", changeCursor) }
        json.field("complete", complete)
        json.key("guests")
        json.bytes.append(UInt8(ascii: "["))
        for (index, guest) in guests.enumerated() {
            if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
            guest.write(to: &json)
        }
        json.bytes.append(UInt8(ascii: "]"))
        if let nextPage { json.field("nextPage", nextPage) }
        json.field("serverTime", APITime.text(serverTime))
        if let total { json.field("total", Int64(total)) }
        json.close()
        return json.bytes
    }
}

extension GuestRecord {
    func write(to json: inout JSONText) {
        json.open()
        if let arrivalAlert { json.field("arrivalAlert", arrivalAlert) }
        if let checkIn {
            json.key("checkIn")
            checkIn.write(to: &json)
        }
        if let checkInNote { json.field("checkInNote", checkInNote) }
        if let email { json.field("email", email) }
        json.field("id", id)
        json.field("name", name)
        json.field("partySize", Int64(partySize))
        if let phone { json.field("phone", phone) }
        if let signature { json.field("signature", signature) }
        if let signedBy { json.field("signedBy", Int64(signedBy)) }
        json.field("status", status.rawValue)
        if let ticketType { json.field("ticketType", ticketType) }
        json.field("version", version)
        json.close()
    }
}

extension CheckInSummary {
    func write(to json: inout JSONText) {
        json.open()
        json.field("arrived", Int64(arrived))
        json.field("at", APITime.text(at))
        if let deviceId { json.field("deviceId", deviceId) }
        json.field("door", door)
        if let sequence { json.field("sequence", sequence) }
        json.close()
    }
}

/// A JSON object being written, as Foundation's JSONEncoder writes it with `.withoutEscapingSlashes`.
struct JSONText {
    var bytes: [UInt8] = []
    private var first = true

    mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    /// `"name":`, after a comma unless it is the object's first key. Keys are ASCII with nothing to escape.
    mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int64) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
    }

    /// A string with JSONEncoder's escapes: quote, backslash, \b \f \n \r \t, other control characters as
    /// \u00xx; everything else (slashes, non-ASCII) as its UTF-8.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    static let hexDigits = Array("0123456789abcdef".utf8)
}
