import Cryptography
import Foundation
import GRDB
import KioskCore
import SignedRecords

/// The field-level alternative, measured in parts: what each of its operations costs through OpenSSL (an
/// HMAC-SHA256 search key, an AES-256-GCM seal and open of a short field), and how large its tables grow when
/// every name word, name and e-mail prefix (lengths 1..N) and every code prefix of 6..15 characters is a keyed
/// hash row, as the kiosk's prefix search would need without plain search keys.
enum FieldLevelModel {
    static func run(roster: [RosterGuest], folder: String, plainBytes: Int) throws {
        let key = (0..<32).map { UInt8($0) }
        let cipher = try PageCipher(key: key)
        var hmac: [Double] = []
        var seal: [Double] = []
        var open: [Double] = []
        var field = [UInt8](repeating: 0x41, count: 24 + PageCipher.reservedBytes)
        for i in 0..<20_000 {
            let id = Array(roster[i % roster.count].guest.text.utf8)
            hmac.append(Stopwatch.milliseconds { _ = HMACSHA256.mac(key: key, message: id) })
            seal.append(try Stopwatch.milliseconds { try field.withUnsafeMutableBytes { try cipher.seal($0) } })
            open.append(Stopwatch.milliseconds { _ = field.withUnsafeMutableBytes { cipher.open($0) } })
        }
        let us = { (values: [Double]) in String(format: "%.2f", values.median * 1000) }
        let lookupAdd = (hmac.median + 3 * open.median) * 1000
        let admitAdd = (hmac.median + 4 * seal.median) * 1000
        print("## Field-level AES-256-GCM with keyed search hashes: its parts, measured\n")
        print(
            table(
                ["operation (swift-crypto, one call)", "p50 µs"],
                [
                    ["HMAC-SHA256 of a guest code (the lookup key)", us(hmac)],
                    ["AES-256-GCM seal, 24-byte field", us(seal)],
                    ["AES-256-GCM open, 24-byte field", us(open)],
                    ["a lookup adds: 1 HMAC + open name, e-mail, notes", String(format: "%.2f", lookupAdd)],
                    [
                        "an admit adds: 1 HMAC + seal code in check-in, queue, audit, payload",
                        String(format: "%.2f", admitAdd),
                    ],
                ]))
        var rows: [[String]] = []
        for cap in [Int.max, 8, 4] {
            let (tokens, bytes) = try tokenTable(roster: roster, cap: cap, path: folder + "/tokens-\(cap).db", key: key)
            rows.append([
                cap == .max ? "1..word length" : "1..\(cap)", f1(Double(tokens) / Double(roster.count)),
                f2(Double(bytes) / 1e6), f2(Double(bytes) / Double(plainBytes)),
            ])
        }
        print("\n## Field-level: roster with sealed fields and prefix-token rows, \(roster.count) guests\n")
        print(table(["name/e-mail prefix lengths", "token rows per guest", "file MB", "× plain kiosk.db"], rows))
        print("\n(the plain kiosk.db of the same roster is \(f2(Double(plainBytes) / 1e6)) MB, indexes included)\n")
    }

    /// Builds the field-level roster (sealed name, e-mail, notes; keyed hash of the code) and its token rows
    /// in a plain file; returns the token rows and the file's size.
    static func tokenTable(roster: [RosterGuest], cap: Int, path: String, key: [UInt8]) throws -> (Int, Int) {
        let queue = try DatabaseQueue(path: path)
        var count = 0
        func mac(_ text: String) -> Data { Data(HMACSHA256.mac(key: key, message: Array(text.utf8)).prefix(16)) }
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE roster (event INTEGER NOT NULL, guest BLOB NOT NULL, code BLOB NOT NULL,
                        name BLOB NOT NULL, email BLOB NOT NULL, notes BLOB NOT NULL, party_size INTEGER NOT NULL,
                        status TEXT NOT NULL, updated_at INTEGER NOT NULL, version INTEGER NOT NULL,
                        PRIMARY KEY (event, guest)) WITHOUT ROWID;
                    CREATE TABLE search_tokens (event INTEGER NOT NULL, token BLOB NOT NULL, guest BLOB NOT NULL,
                        PRIMARY KEY (event, token, guest)) WITHOUT ROWID;
                    """)
            let insertGuest = try db.makeStatement(
                sql: "INSERT INTO roster VALUES (1, ?, ?, ?, ?, ?, 1, 'active', 1750000000000, 1)")
            let insertToken = try db.makeStatement(sql: "INSERT OR IGNORE INTO search_tokens VALUES (1, ?, ?)")
            func sealed(_ text: String) -> Data { Data(repeating: 7, count: text.utf8.count + 28) }
            for guest in roster {
                let id = mac("g:" + guest.guest.text)
                try insertGuest.execute(arguments: [
                    id, sealed(guest.guest.text), sealed(guest.name), sealed(guest.email), sealed(guest.notes),
                ])
                let name = guest.name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                    .lowercased()
                var tokens: Set<String> = []
                for word in name.split(whereSeparator: { $0 == " " || $0 == "-" }) {
                    for length in 1...min(word.count, cap) { tokens.insert("w:" + word.prefix(length)) }
                }
                for length in 1...min(name.count, cap) { tokens.insert("n:" + name.prefix(length)) }
                let email = guest.email.lowercased()
                for length in 1...min(email.count, cap) { tokens.insert("e:" + email.prefix(length)) }
                for length in 6...15 { tokens.insert("c:" + guest.guest.text.prefix(length)) }
                for token in tokens { try insertToken.execute(arguments: [mac(token), id]) }
                count += tokens.count
            }
        }
        try queue.close()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return (count, bytes)
    }
}
