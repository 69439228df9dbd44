/// The kiosk database's schema, one migration at a time.
///
/// A migration never changes once it has shipped: kiosks in the field have already applied it, and an
/// edited one would leave their schema different from a new kiosk's. To change the schema, append a new
/// migration with the next number. (A kiosk upgraded mid-event then keeps its pending sync queue.)
///
/// Times are milliseconds since 1970 (INTEGER). Guest ids are the 16-character base32 codes. `name_key`,
/// `email_key` and `roster_words.word` are written by the store (`SearchKey`), not by SQL.
enum Migrations {
    static let all: [Migration] = [
        createTables, rosterWords, syncState, rosterSync, reverts, clockOffsetUncertainty, doubleEntries,
        personalDataRetention, lanPeers, peerNotices, peerItemSignatures,
    ]

    static let createTables = Migration(
        number: 1, name: "roster, tombstones, check-ins, sync queue, audit log",
        sql: """
            CREATE TABLE roster (
                event      INTEGER NOT NULL,
                guest_id   TEXT    NOT NULL CHECK (length(guest_id) = 16 AND guest_id NOT GLOB '*[^A-Z2-7]*'),
                tenant     INTEGER NOT NULL,
                name       TEXT    NOT NULL,
                name_key   TEXT    NOT NULL,
                email      TEXT    NOT NULL DEFAULT '',
                email_key  TEXT    NOT NULL DEFAULT '',
                party_size INTEGER NOT NULL DEFAULT 1 CHECK (party_size >= 1),
                status     TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled')),
                notes      TEXT    NOT NULL DEFAULT '',
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (event, guest_id)
            ) WITHOUT ROWID;
            CREATE INDEX roster_by_name ON roster (event, name_key);
            CREATE INDEX roster_by_email ON roster (event, email_key);

            CREATE TABLE tombstones (
                event        INTEGER NOT NULL,
                guest_id     TEXT    NOT NULL,
                cancelled_at INTEGER NOT NULL,
                reason       TEXT    NOT NULL DEFAULT '',
                PRIMARY KEY (event, guest_id)
            ) WITHOUT ROWID;

            CREATE TABLE check_ins (
                id       INTEGER PRIMARY KEY,
                event    INTEGER NOT NULL,
                guest_id TEXT    NOT NULL,
                door     TEXT    NOT NULL,
                at       INTEGER NOT NULL,
                arrived  INTEGER NOT NULL CHECK (arrived >= 0),
                source   TEXT    NOT NULL CHECK (source IN ('camera', 'manual')),
                UNIQUE (event, guest_id)
            );

            CREATE TABLE sync_queue (
                sequence        INTEGER PRIMARY KEY AUTOINCREMENT,
                event           INTEGER NOT NULL,
                guest_id        TEXT    NOT NULL,
                door            TEXT    NOT NULL,
                at              INTEGER NOT NULL,
                arrived         INTEGER NOT NULL,
                source          TEXT    NOT NULL,
                idempotency_key TEXT    NOT NULL UNIQUE,
                attempts        INTEGER NOT NULL DEFAULT 0,
                last_error      TEXT
            );

            CREATE TABLE audit_log (
                id       INTEGER PRIMARY KEY,
                at       INTEGER NOT NULL,
                door     TEXT    NOT NULL,
                source   TEXT    NOT NULL,
                payload  TEXT    NOT NULL,
                guest_id TEXT,
                verdict  TEXT    NOT NULL,
                reason   TEXT    NOT NULL
            );
            """)

    /// Each word of each name, for "smi" finds "Anna Smith". Filled here from `name_key` (words split at
    /// spaces and hyphens, as `SearchKey.wordsSQL` does), then kept by the store on every roster write.
    static let rosterWords = Migration(
        number: 2, name: "roster name words",
        sql: """
            CREATE TABLE roster_words (
                event    INTEGER NOT NULL,
                word     TEXT    NOT NULL,
                guest_id TEXT    NOT NULL,
                PRIMARY KEY (event, word, guest_id),
                FOREIGN KEY (event, guest_id) REFERENCES roster (event, guest_id) ON DELETE CASCADE
            ) WITHOUT ROWID;
            CREATE INDEX roster_words_by_guest ON roster_words (event, guest_id);

            WITH RECURSIVE split (event, guest_id, word, rest) AS (
                SELECT event, guest_id, '', replace(name_key, '-', ' ') || ' ' FROM roster
                UNION ALL
                SELECT event, guest_id, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1)
                FROM split WHERE rest <> ''
            )
            INSERT OR IGNORE INTO roster_words (event, word, guest_id)
            SELECT event, word, guest_id FROM split WHERE word <> '';
            """)

    /// The kiosk's enrolment with a server (one row), the last contact and clock offset, and what the server
    /// answered for items that left the queue other than as a plain confirmation: `superseded` (the guest was
    /// checked in earlier at another door; the screen can tell) and `rejected` (refused for good: kept for the
    /// operator, never retried, never dropped). The queue itself is unchanged: an item leaves `sync_queue` only
    /// when the server has answered for it.
    static let syncState = Migration(
        number: 3, name: "sync enrolment, superseded scans, sync failures",
        sql: """
            CREATE TABLE sync_enrolment (
                id              INTEGER PRIMARY KEY CHECK (id = 1),
                server_url      TEXT    NOT NULL,
                device_id       TEXT    NOT NULL,
                token           TEXT    NOT NULL,
                tenant          INTEGER NOT NULL,
                queue_epoch     TEXT    NOT NULL,
                ca_file         TEXT,
                enrolled_at     INTEGER NOT NULL,
                last_contact    INTEGER,
                clock_offset_ms INTEGER
            );

            CREATE TABLE sync_superseded (
                sequence        INTEGER PRIMARY KEY,
                event           INTEGER NOT NULL,
                guest_id        TEXT    NOT NULL,
                door            TEXT    NOT NULL,
                at              INTEGER NOT NULL,
                arrived         INTEGER NOT NULL,
                source          TEXT    NOT NULL,
                winning_door    TEXT,
                winning_at      INTEGER,
                answered_at     INTEGER NOT NULL
            );

            CREATE TABLE sync_failures (
                sequence        INTEGER PRIMARY KEY,
                event           INTEGER NOT NULL,
                guest_id        TEXT    NOT NULL,
                door            TEXT    NOT NULL,
                at              INTEGER NOT NULL,
                arrived         INTEGER NOT NULL,
                source          TEXT    NOT NULL,
                idempotency_key TEXT    NOT NULL,
                reason          TEXT    NOT NULL,
                failed_at       INTEGER NOT NULL
            );
            """)

    /// The server's roster on the kiosk: where the first download and the deltas stand per event (`sync_roster`),
    /// each roster row's server version (an older row is never applied over a newer one), the kind of a queued
    /// item (a check-in, or staff reverting one), and the queue by guest (merge protection asks, per roster row,
    /// whether the guest has something queued).
    static let rosterSync = Migration(
        number: 4, name: "roster download state, row versions, queued reverts",
        sql: """
            CREATE TABLE sync_roster (
                event         INTEGER PRIMARY KEY,
                complete      INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
                next_page     TEXT,
                change_cursor TEXT,
                fetched       INTEGER NOT NULL DEFAULT 0,
                total         INTEGER,
                fetched_at    INTEGER
            );
            ALTER TABLE roster ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sync_queue ADD COLUMN kind TEXT NOT NULL DEFAULT 'check_in'
                CHECK (kind IN ('check_in', 'revert'));
            CREATE INDEX sync_queue_by_guest ON sync_queue (event, guest_id);
            """)

    /// Undoing a check-in from the kiosk: each check-in made here keeps its queue sequence (a revert names it,
    /// so the server undoes that scan and not another door's), a queued revert the sequence it undoes, and a
    /// refused item its kind.
    static let reverts = Migration(
        number: 5, name: "check-ins keep their queue sequence, reverts name theirs",
        sql: """
            ALTER TABLE check_ins ADD COLUMN queue_sequence INTEGER;
            ALTER TABLE sync_queue ADD COLUMN reverts INTEGER;
            ALTER TABLE sync_failures ADD COLUMN kind TEXT NOT NULL DEFAULT 'check_in';
            """)

    /// How far the kept clock offset may be off, so a slow exchange does not replace a precise measure.
    static let clockOffsetUncertainty = Migration(
        number: 6, name: "clock offset uncertainty",
        sql: """
            ALTER TABLE sync_enrolment ADD COLUMN clock_offset_uncertainty_ms INTEGER;
            """)

    /// A guest looked up at the door says "double entry" when this door's admit was superseded (found by guest);
    /// an enrolment in progress keeps its nonce, so a redeem whose answer was lost is asked again with it and
    /// gives this kiosk its identity without a new code.
    static let doubleEntries = Migration(
        number: 7, name: "superseded scans by guest, enrolment nonce",
        sql: """
            CREATE INDEX sync_superseded_by_guest ON sync_superseded(event, guest_id);
            CREATE TABLE sync_enrolment_attempt (
                id          INTEGER PRIMARY KEY CHECK (id = 1),
                nonce       TEXT    NOT NULL,
                started_at  INTEGER NOT NULL
            );
            """)

    /// When each event's guests' personal data is deleted here (the server says, with each heartbeat answer: the
    /// event's end plus its retention), and when it was.
    static let personalDataRetention = Migration(
        number: 8, name: "personal data purge dates",
        sql: """
            CREATE TABLE event_retention (
                event     INTEGER PRIMARY KEY,
                purge_at  INTEGER NOT NULL,
                purged_at INTEGER
            );
            """)

    /// Doors exchanging their queue items on the LAN (docs/SYNC.md, "Between doors"): this kiosk's peer key pair
    /// (the database is sealed at rest, as for the token), the server's peer credential per event, the items
    /// held (this kiosk's own and its peers', keyed as they are uploaded: device, queue epoch, sequence) and the
    /// doors seen. Every item queued while the kiosk is enrolled goes into `peer_items` in the transaction that
    /// queued it, and stays there once the upload has taken it out of `sync_queue`.
    static let lanPeers = Migration(
        number: 9, name: "LAN peers",
        sql: """
            CREATE TABLE peer_identity (
                id          INTEGER PRIMARY KEY CHECK (id = 1),
                private_key BLOB    NOT NULL,
                public_key  BLOB    NOT NULL,
                created_at  INTEGER NOT NULL
            );

            CREATE TABLE peer_credentials (
                event       INTEGER PRIMARY KEY,
                credential  TEXT    NOT NULL,
                received_at INTEGER NOT NULL
            );

            CREATE TABLE peer_items (
                device          TEXT    NOT NULL,
                epoch           TEXT    NOT NULL,
                sequence        INTEGER NOT NULL,
                event           INTEGER NOT NULL,
                guest_id        TEXT    NOT NULL,
                kind            TEXT    NOT NULL CHECK (kind IN ('check_in', 'revert')),
                door            TEXT    NOT NULL,
                at              INTEGER NOT NULL,
                arrived         INTEGER NOT NULL,
                source          TEXT    NOT NULL,
                reverts         INTEGER,
                clock_offset_ms INTEGER,
                received_at     INTEGER NOT NULL,
                PRIMARY KEY (device, epoch, sequence)
            ) WITHOUT ROWID;
            CREATE INDEX peer_items_by_guest ON peer_items (event, guest_id);
            CREATE INDEX peer_items_by_event ON peer_items (event, device, epoch, sequence);

            CREATE TABLE peer_sightings (
                device     TEXT    PRIMARY KEY,
                door       TEXT    NOT NULL,
                address    TEXT    NOT NULL,
                last_heard INTEGER NOT NULL,
                linked     INTEGER NOT NULL CHECK (linked IN (0, 1))
            );

            CREATE TRIGGER sync_queue_into_peer_items AFTER INSERT ON sync_queue
            WHEN EXISTS (SELECT 1 FROM sync_enrolment WHERE id = 1)
            BEGIN
                INSERT OR IGNORE INTO peer_items
                    (device, epoch, sequence, event, guest_id, kind, door, at, arrived, source, reverts,
                     clock_offset_ms, received_at)
                SELECT device_id, queue_epoch, NEW.sequence, NEW.event, NEW.guest_id, NEW.kind, NEW.door, NEW.at,
                    NEW.arrived, NEW.source, NEW.reverts, clock_offset_ms, NEW.at
                FROM sync_enrolment WHERE id = 1;
            END;
            """)

    /// What the server says that doors pass on to each other (docs/SYNC.md, "As built on the LAN"), each kept as
    /// signed (`notice`, JSON): the newest signed row of each guest a delta brought (a cancellation, a walk-in, an
    /// edit), and the revocation of each device the server revoked. `id` orders them as they arrived, for the
    /// push to linked doors. And each door seen gets its clock's skew against this door's, measured at its hello.
    static let peerNotices = Migration(
        number: 10, name: "LAN peer notices",
        sql: """
            CREATE TABLE peer_guest_notices (
                id          INTEGER PRIMARY KEY,
                event       INTEGER NOT NULL,
                guest_id    TEXT    NOT NULL,
                version     INTEGER NOT NULL,
                notice      TEXT    NOT NULL,
                received_at INTEGER NOT NULL,
                UNIQUE (event, guest_id)
            );

            CREATE TABLE peer_revocations (
                id          INTEGER PRIMARY KEY,
                event       INTEGER NOT NULL,
                device      TEXT    NOT NULL,
                revoked_at  INTEGER NOT NULL,
                notice      TEXT    NOT NULL,
                received_at INTEGER NOT NULL,
                UNIQUE (event, device)
            );

            ALTER TABLE peer_sightings ADD COLUMN clock_skew_ms INTEGER;
            """)

    /// Doors pass on each other's items (docs/SYNC.md, "Passed on through a door"): each item keeps its author's
    /// signature, and the newest credential of each author seen (a linked door's, or one that came with an item
    /// passed on) is kept per event, to send with the author's items to doors that have not seen it.
    static let peerItemSignatures = Migration(
        number: 11, name: "LAN item signatures",
        sql: """
            ALTER TABLE peer_items ADD COLUMN signature BLOB;

            CREATE TABLE peer_authors (
                event       INTEGER NOT NULL,
                device      TEXT    NOT NULL,
                not_before  INTEGER NOT NULL,
                credential  TEXT    NOT NULL,
                received_at INTEGER NOT NULL,
                PRIMARY KEY (event, device)
            );
            """)
}
