import struct Foundation.Data
import struct Foundation.Date

extension RosterPage {
    /// Reads a page from the server's JSON directly, without JSONDecoder, whose boxing of every field cost the
    /// kiosk about a second of CPU in a 100,000-guest download. Strict: anything it does not expect (a number
    /// with a fraction, a missing required key) throws, and the caller then decodes with `APICoding.decoder()`,
    /// which decides; keys it does not know are skipped, as JSONDecoder skips them.
    public init(json data: Data) throws {
        self = try data.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer)
            let page = try reader.rosterPage()
            try reader.end()
            return page
        }
    }
}

/// What `RosterPage(json:)` could not read.
public struct RosterPageJSONError: Error, CustomStringConvertible {
    public var offset: Int
    public var problem: String

    public var description: String { "\(problem) at byte \(offset)" }
}

struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    /// Objects and arrays open around the reader now. Skipping an unknown value recurses into it, so a body of
    /// a million `[` would overflow the stack: nesting deeper than `maximumDepth` is refused instead. The
    /// server's pages and uploads nest four deep.
    var depth = 0
    static let maximumDepth = 32

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func failure(_ problem: String) -> RosterPageJSONError { RosterPageJSONError(offset: index, problem: problem) }

    mutating func rosterPage() throws -> RosterPage {
        var guests: [GuestRecord]?
        var nextPage: String?
        var complete: Bool?
        var changeCursor: String?
        var total: Int?
        var serverTime: Date?
        try object { reader, key in
            switch key {
            case "guests":
                guests = []
                try reader.array { reader in guests!.append(try reader.guestRecord()) }
            case "nextPage": nextPage = try reader.optionalString()
            case "complete": complete = try reader.bool()
            case "changeCursor": changeCursor = try reader.optionalString()
            case "total": total = try reader.optionalInt().map { Int($0) }
            case "serverTime": serverTime = try reader.date()
            default: return false
            }
            return true
        }
        guard let guests, let complete, let serverTime else {
            throw failure("a page without guests, complete or serverTime")
        }
        return RosterPage(
            guests: guests, nextPage: nextPage, complete: complete, changeCursor: changeCursor, total: total,
            serverTime: serverTime)
    }

    mutating func guestRecord() throws -> GuestRecord {
        var id: String?
        var name: String?
        var email: String?
        var phone: String?
        var partySize: Int?
        var ticketType: String?
        var checkInNote: String?
        var arrivalAlert: String?
        var status: GuestStatus?
        var version: Int64?
        var checkIn: CheckInSummary?
        var signature: String?
        var signedBy: Int?
        try object { reader, key in
            switch key {
            case "id": id = try reader.string()
            case "name": name = try reader.string()
            case "email": email = try reader.optionalString()
            case "phone": phone = try reader.optionalString()
            case "partySize": partySize = Int(try reader.int())
            // `accessType`: the field's name from before ticket types (issue 51).
            case "ticketType", "accessType": ticketType = try reader.optionalString()
            case "checkInNote": checkInNote = try reader.optionalString()
            case "arrivalAlert": arrivalAlert = try reader.optionalString()
            case "status":
                guard let value = GuestStatus(rawValue: try reader.string()) else { throw reader.failure("a status") }
                status = value
            case "version": version = try reader.int()
            case "checkIn": checkIn = try reader.null() ? nil : try reader.checkInSummary()
            case "signature": signature = try reader.optionalString()
            case "signedBy": signedBy = try reader.optionalInt().map { Int($0) }
            default: return false
            }
            return true
        }
        guard let id, let name, let partySize, let status, let version else {
            throw failure("a guest without id, name, partySize, status or version")
        }
        return GuestRecord(
            id: id, name: name, email: email, phone: phone, partySize: partySize, ticketType: ticketType,
            checkInNote: checkInNote, arrivalAlert: arrivalAlert, status: status, version: version, checkIn: checkIn,
            signature: signature, signedBy: signedBy)
    }

    mutating func checkInSummary() throws -> CheckInSummary {
        var door: String?
        var at: Date?
        var arrived: Int?
        var deviceId: String?
        var sequence: Int64?
        try object { reader, key in
            switch key {
            case "door": door = try reader.string()
            case "at": at = try reader.date()
            case "arrived": arrived = Int(try reader.int())
            case "deviceId": deviceId = try reader.optionalString()
            case "sequence": sequence = try reader.null() ? nil : try reader.int()
            default: return false
            }
            return true
        }
        guard let door, let at, let arrived else { throw failure("a check-in without door, at or arrived") }
        return CheckInSummary(door: door, at: at, arrived: arrived, deviceId: deviceId, sequence: sequence)
    }

    // MARK: Values

    /// An object: `field` reads the value of each key it knows and returns true, or returns false and the value
    /// is skipped.
    mutating func object(_ field: (inout JSONReader, String) throws -> Bool) throws {
        try expect(UInt8(ascii: "{"))
        try nest()
        defer { depth -= 1 }
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            if try !field(&self, key) { try skipValue() }
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            default: throw failure("a comma or the end of an object")
            }
        }
    }

    mutating func array(_ element: (inout JSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        try nest()
        defer { depth -= 1 }
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return
            default: throw failure("a comma or the end of an array")
            }
        }
    }

    /// One level deeper, within `maximumDepth`.
    mutating func nest() throws {
        guard depth < Self.maximumDepth else {
            throw failure("JSON nested more than \(Self.maximumDepth) deep")
        }
        depth += 1
    }

    mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                guard let text = String(validating: bytes[start..<index], as: UTF8.self) else {
                    throw failure("a string that is not UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if byte < 0x20 { throw failure("a control character in a string") }
            index += 1
        }
        throw failure("the end of a string")
    }

    /// The rest of a string with escapes, from its first byte at `start`.
    mutating func escapedString(from start: Int) throws -> String {
        var text: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: text, as: UTF8.self) else {
                    throw failure("a string that is not UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw failure("a lone surrogate") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("a lone surrogate") }
                    text.append(contentsOf: String(Character(unicode)).utf8)
                default: throw failure("an unknown escape")
                }
            case 0..<0x20: throw failure("a control character in a string")
            default: text.append(byte)
            }
        }
        throw failure("the end of a string")
    }

    mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a hex digit")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    mutating func optionalString() throws -> String? { try null() ? nil : try string() }

    mutating func optionalInt() throws -> Int64? { try null() ? nil : try int() }

    /// An integer (no fraction, no exponent: the server writes none).
    mutating func int() throws -> Int64 {
        _ = try peek()
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let start = index
        var value: Int64 = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow, !carry else { throw failure("an integer too large") }
            value = sum
            index += 1
        }
        guard index > start, index - start == 1 || bytes[start] != UInt8(ascii: "0") else {
            throw failure("an integer")
        }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            throw failure("an integer without fraction or exponent")
        }
        return negative ? -value : value
    }

    mutating func bool() throws -> Bool {
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw failure("true or false")
    }

    /// Reads `null` if it is next.
    mutating func null() throws -> Bool { try literal("null") }

    mutating func date() throws -> Date {
        let text = try string()
        guard let date = APITime.date(text) else { throw failure("an RFC 3339 time") }
        return date
    }

    mutating func literal(_ word: StaticString) throws -> Bool {
        _ = try peek()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { word in (0..<count).allSatisfy { bytes[index + $0] == word[$0] } }
        if matches { index += count }
        return matches
    }

    /// Skips any value: an unknown key's.
    mutating func skipValue() throws {
        switch try peek() {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"): try object { _, _ in false }
        case UInt8(ascii: "["): try array { try $0.skipValue() }
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"):
            guard try null() else { throw failure("null") }
        default: try skipNumber()
        }
    }

    mutating func skipNumber() throws {
        let start = index
        while index < bytes.count,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
                || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")]
                    .contains(bytes[index])
        {
            index += 1
        }
        guard index > start else { throw failure("a value") }
    }

    // MARK: Bytes

    /// The next byte after white space, not consumed.
    mutating func peek() throws -> UInt8 {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return bytes[index]
            }
        }
        throw failure("more JSON")
    }

    mutating func next() throws -> UInt8 {
        let byte = try peek()
        index += 1
        return byte
    }

    mutating func expect(_ byte: UInt8) throws {
        guard try next() == byte else { throw failure("'\(Character(Unicode.Scalar(byte)))'") }
    }

    /// Only white space may follow the page.
    mutating func end() throws {
        while index < bytes.count {
            guard [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) else { throw failure("the end of the JSON") }
            index += 1
        }
    }
}
