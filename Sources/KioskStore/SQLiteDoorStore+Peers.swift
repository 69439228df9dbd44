internal import GRDB
import KioskCore
import PassFormat
import SignedRecords

import struct Foundation.Data
import struct Foundation.Date
import class Foundation.JSONDecoder
import class Foundation.JSONEncoder

/// What this kiosk keeps to meet its peers on the LAN (docs/SYNC.md, "Between doors"): its peer key pair, the
/// server's credential for it per event, and the doors it has seen.
extension SQLiteDoorStore {
    /// This kiosk's peer key pair (P-256: the raw private key, the X9.63 public key), or nil before it made one.
    public func peerIdentity() throws -> (privateKey: [UInt8], publicKey: [UInt8])? {
        try read("reading the peer key pair") { db in try Self.peerIdentity(db) }
    }

    /// Keeps the key pair if the kiosk has none yet, and returns the one kept: the first call stores, later calls
    /// (another process made one first) return the stored pair and drop theirs.
    @discardableResult
    public func savePeerIdentity(privateKey: [UInt8], publicKey: [UInt8], at now: Date) throws
        -> (privateKey: [UInt8], publicKey: [UInt8])
    {
        try write("keeping the peer key pair") { db in
            try db.execute(
                sql: """
                    INSERT INTO peer_identity (id, private_key, public_key, created_at) VALUES (1, ?, ?, ?)
                    ON CONFLICT (id) DO NOTHING
                    """, arguments: [Data(privateKey), Data(publicKey), now.storeMilliseconds])
            guard let identity = try Self.peerIdentity(db) else {
                throw StoreError(
                    kind: .other, resultCode: 0, message: "peer key pair neither inserted nor found",
                    operation: "keeping the peer key pair", path: path)
            }
            return identity
        }
    }

    private static func peerIdentity(_ db: Database) throws -> (privateKey: [UInt8], publicKey: [UInt8])? {
        guard let row = try Row.fetchOne(db, sql: "SELECT private_key, public_key FROM peer_identity WHERE id = 1")
        else { return nil }
        return (
            [UInt8](try row.decode(Data.self, forColumn: Column("private_key"))),
            [UInt8](try row.decode(Data.self, forColumn: Column("public_key")))
        )
    }

    /// Keeps the server's peer credentials, each replacing the one kept for its event.
    public func savePeerCredentials(_ credentials: [PeerCredential], at now: Date) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try run("encoding peer credentials") {
            try credentials.map { ($0.event, String(decoding: try encoder.encode($0), as: UTF8.self)) }
        }
        try write("keeping the peer credentials") { db in
            for (event, json) in encoded {
                try db.cachedStatement(
                    sql: """
                        INSERT OR REPLACE INTO peer_credentials (event, credential, received_at) VALUES (?, ?, ?)
                        """
                ).execute(arguments: [Int64(event), json, now.storeMilliseconds])
            }
        }
    }

    /// The credential kept for the event, if any.
    public func peerCredential(event: EventID) throws -> PeerCredential? {
        try read("reading the peer credential") { db in
            guard
                let json = try String.fetchOne(
                    db, sql: "SELECT credential FROM peer_credentials WHERE event = ?",
                    arguments: [Int64(event.rawValue)])
            else { return nil }
            do {
                return try JSONDecoder().decode(PeerCredential.self, from: Data(json.utf8))
            } catch {
                throw StoreError.corruptValue(
                    "peer credential of event \(event) is not readable: \(error)",
                    operation: "reading the peer credential", path: path)
            }
        }
    }

    /// The stream this kiosk's own items are keyed under (device id and queue epoch of its enrolment), or nil for
    /// a door that was never enrolled.
    public func ownPeerStream() throws -> PeerVector.Stream? {
        try read("reading the kiosk's own peer stream") { db in try Self.ownPeerStream(db)?.stream }
    }

    /// The enrolment's stream and the clock offset kept with the last contact.
    static func ownPeerStream(_ db: Database) throws -> (stream: PeerVector.Stream, clockOffsetMs: Int64?)? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT device_id, queue_epoch, clock_offset_ms FROM sync_enrolment WHERE id = 1"))
        else { return nil }
        return (
            PeerVector.Stream(device: try row.text(Column("device_id")), epoch: try row.text(Column("queue_epoch"))),
            try row.decode(Int64?.self, forColumn: Column("clock_offset_ms"))
        )
    }

    /// Notes a door seen on the LAN, replacing what was kept of that device (its clock's skew only when measured).
    public func recordPeerSighting(_ sighting: PeerSighting) throws {
        try write("recording a peer sighting", durability: .normal) { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO peer_sightings (device, door, address, last_heard, linked, clock_skew_ms)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (device) DO UPDATE SET
                        door = excluded.door, address = excluded.address, last_heard = excluded.last_heard,
                        linked = excluded.linked, clock_skew_ms = COALESCE(excluded.clock_skew_ms, clock_skew_ms)
                    """
            ).execute(arguments: [
                sighting.device, sighting.door, sighting.address, sighting.lastHeard, sighting.linked,
                sighting.clockSkewMs,
            ])
        }
    }

    /// The doors seen on the LAN, by door name.
    public func peerSightings() throws -> [PeerSighting] {
        try read("reading peer sightings") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM peer_sightings ORDER BY door, device").map { row in
                PeerSighting(
                    device: try row.text(Column("device")), door: try row.text(Column("door")),
                    address: try row.text(Column("address")),
                    lastHeard: try row.decode(Int64.self, forColumn: Column("last_heard")),
                    linked: try row.decode(Bool.self, forColumn: Column("linked")),
                    clockSkewMs: try row.decode(Int64?.self, forColumn: Column("clock_skew_ms")))
            }
        }
    }
}
