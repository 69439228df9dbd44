internal import GRDB
import KioskCore
import PassFormat
import SignedRecords

import struct Foundation.Data
import struct Foundation.Date
import class Foundation.JSONDecoder

/// The credentials of the doors whose items this kiosk holds (docs/SYNC.md, "Passed on through a door"): a door
/// passes on another door's item with its author's credential, so the receiver can check the author's signature.
/// The newest credential of each device is kept per event; checking them is the caller's (KioskPeers).
extension SQLiteDoorStore {
    /// Keeps each credential that is newer (by `notBefore`) than the one kept for its device and event.
    public func keepPeerAuthors(_ credentials: [PeerCredential], at now: Date) throws {
        guard !credentials.isEmpty else { return }
        let encoded = try encode(credentials, operation: "encoding the doors' credentials")
        try write("keeping the doors' credentials", durability: .normal) { db in
            for (credential, json) in zip(credentials, encoded) {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO peer_authors (event, device, not_before, credential, received_at)
                        VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (event, device) DO UPDATE SET
                            not_before = excluded.not_before, credential = excluded.credential,
                            received_at = excluded.received_at
                        WHERE excluded.not_before > peer_authors.not_before
                        """
                ).execute(arguments: [
                    Int64(credential.event), credential.deviceId, credential.notBefore, json, now.storeMilliseconds,
                ])
            }
        }
    }

    /// The newest credential kept of each door of `event`, by device id.
    public func peerAuthors(event: EventID) throws -> [PeerCredential] {
        let operation = "reading the doors' credentials"
        return try read(operation) { db in
            let decoder = JSONDecoder()
            return try String.fetchAll(
                db.cachedStatement(sql: "SELECT credential FROM peer_authors WHERE event = ? ORDER BY device"),
                arguments: [Int64(event.rawValue)]
            ).map { json in
                do {
                    return try decoder.decode(PeerCredential.self, from: Data(json.utf8))
                } catch {
                    throw StoreError.corruptValue(
                        "a kept door's credential is not readable: \(error)", operation: operation, path: path)
                }
            }
        }
    }

    /// Of `items`, those not held here (by their key): only new ones are worth checking a signature for, and
    /// doors that are linked to each other pass each other the same items.
    public func unheldPeerItems(_ items: [PeerItem]) throws -> [PeerItem] {
        guard !items.isEmpty else { return [] }
        return try read("reading the items held") { db in
            try items.filter { item in
                try !Bool.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT EXISTS (SELECT 1 FROM peer_items WHERE device = ? AND epoch = ? AND sequence = ?)"),
                    arguments: [item.device, item.epoch, item.sequence])!
            }
        }
    }
}
