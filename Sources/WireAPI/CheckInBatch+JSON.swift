import struct Foundation.Date

extension CheckInBatch {
    /// Reads an upload directly, without JSONDecoder, whose boxing of every field cost the server more CPU per
    /// item than the item's own database work. Strict, like `RosterPage(json:)`: anything it does not expect
    /// throws, and the caller then decodes with `APICoding.decoder()`, which decides; unknown keys are skipped.
    public init(json bytes: UnsafeRawBufferPointer) throws {
        var reader = JSONReader(bytes)
        var items: [CheckInItem]?
        try reader.object { reader, key in
            guard key == "items" else { return false }
            var list: [CheckInItem] = []
            try reader.array { reader in list.append(try reader.checkInItem()) }
            items = list
            return true
        }
        try reader.end()
        guard let items else { throw reader.failure("a batch without items") }
        self.init(items: items)
    }
}

extension CheckInBatchResult {
    /// The answer's JSON as `APICoding.encoder()` writes it (sorted keys, absent optionals left out, the same
    /// escapes and times), byte for byte, written directly.
    public func encodedJSON() -> [UInt8] {
        var json = JSONText()
        json.bytes.reserveCapacity(200 * outcomes.count + 64)
        json.open()
        json.key("outcomes")
        json.bytes.append(UInt8(ascii: "["))
        for (index, outcome) in outcomes.enumerated() {
            if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
            json.open()
            if let checkIn = outcome.checkIn {
                json.key("checkIn")
                checkIn.write(to: &json)
            }
            json.field("outcome", outcome.outcome.rawValue)
            if let reason = outcome.reason { json.field("reason", reason) }
            json.field("sequence", outcome.sequence)
            json.close()
        }
        json.bytes.append(UInt8(ascii: "]"))
        json.field("serverTime", APITime.text(serverTime))
        json.close()
        return json.bytes
    }
}

extension JSONReader {
    mutating func itemKey() throws -> ItemKey {
        var deviceId: String?
        var epoch: String?
        var sequence: Int64?
        try object { reader, key in
            switch key {
            case "deviceId": deviceId = try reader.string()
            case "epoch": epoch = try reader.string()
            case "sequence": sequence = try reader.int()
            default: return false
            }
            return true
        }
        guard let deviceId, let epoch, let sequence else { throw failure("a key without deviceId, epoch or sequence") }
        return ItemKey(deviceId: deviceId, epoch: epoch, sequence: sequence)
    }

    mutating func checkInItem() throws -> CheckInItem {
        var key: ItemKey?
        var guestId: String?
        var kind: ItemKind?
        var scannedAt: Date?
        var clockOffsetMs: Int64?
        var arrived: Int?
        var door: String?
        var source: String?
        var reverts: ItemKey?
        var list: UInt32?
        try object { reader, name in
            switch name {
            case "key": key = try reader.itemKey()
            case "guestId": guestId = try reader.string()
            case "kind":
                guard let value = ItemKind(rawValue: try reader.string()) else { throw reader.failure("a kind") }
                kind = value
            case "scannedAt": scannedAt = try reader.date()
            case "clockOffsetMs": clockOffsetMs = try reader.optionalInt()
            case "arrived": arrived = Int(try reader.int())
            case "door": door = try reader.string()
            case "source": source = try reader.string()
            case "reverts": reverts = try reader.null() ? nil : try reader.itemKey()
            case "list":
                if try !reader.null() {
                    // A list id is a 32-bit number; anything else is refused here, never trapped on later.
                    guard let id = UInt32(exactly: try reader.int()) else { throw reader.failure("a list id") }
                    list = id
                }
            default: return false
            }
            return true
        }
        guard let key, let guestId, let kind, let scannedAt, let arrived, let door, let source else {
            throw failure("an item without key, guestId, kind, scannedAt, arrived, door or source")
        }
        return CheckInItem(
            key: key, guestId: guestId, kind: kind, scannedAt: scannedAt, clockOffsetMs: clockOffsetMs,
            arrived: arrived, door: door, source: source, reverts: reverts, list: list)
    }
}
