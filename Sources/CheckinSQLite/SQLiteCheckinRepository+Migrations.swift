import CheckinCore
import GRDB

extension SQLiteCheckinRepository {
    /// The schema, one numbered step at a time. A shipped step never changes: a new need is a new step.
    /// `secrets` seals what 0007 finds stored in plain text.
    static func migrator(secrets: any SecretSealing) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("0001 tenants, events, guests, devices, check-ins, audit") { db in
            try db.execute(
                sql: """
                    CREATE TABLE tenant (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE TABLE event (
                        id INTEGER PRIMARY KEY,
                        tenant_id INTEGER NOT NULL REFERENCES tenant(id),
                        name TEXT NOT NULL,
                        venue TEXT,
                        ops_contact TEXT,
                        starts_at DATETIME NOT NULL,
                        ends_at DATETIME NOT NULL,
                        grace_minutes INTEGER NOT NULL,
                        minimum_kiosk_version TEXT
                    );
                    CREATE INDEX event_by_tenant ON event(tenant_id);
                    -- One counter for every change a kiosk must learn: one writer at a time, so its order is
                    -- commit order.
                    CREATE TABLE change_sequence (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        value INTEGER NOT NULL
                    );
                    INSERT INTO change_sequence (id, value) VALUES (1, 0);
                    CREATE TABLE guest (
                        event_id INTEGER NOT NULL REFERENCES event(id),
                        id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        email TEXT,
                        phone TEXT,
                        party_size INTEGER NOT NULL,
                        access_type TEXT,
                        check_in_note TEXT,
                        arrival_alert TEXT,
                        status TEXT NOT NULL CHECK (status IN ('active', 'cancelled')),
                        version INTEGER NOT NULL,
                        change_seq INTEGER NOT NULL,
                        updated_at DATETIME NOT NULL,
                        PRIMARY KEY (event_id, id)
                    );
                    CREATE INDEX guest_by_change ON guest(event_id, change_seq);
                    CREATE TABLE device (
                        id TEXT PRIMARY KEY,
                        tenant_id INTEGER NOT NULL REFERENCES tenant(id),
                        door TEXT NOT NULL,
                        kiosk_version TEXT NOT NULL,
                        token_hash TEXT NOT NULL UNIQUE,
                        queue_epoch TEXT NOT NULL,
                        enrolled_at DATETIME NOT NULL,
                        revoked_at DATETIME,
                        last_seen_at DATETIME,
                        report_door TEXT,
                        report_kiosk_version TEXT,
                        report_pending INTEGER,
                        report_oldest_pending_at DATETIME,
                        report_roster_cursor TEXT,
                        report_roster_fetched_at DATETIME,
                        report_camera TEXT,
                        report_clock_offset_ms INTEGER,
                        report_device_time DATETIME
                    );
                    CREATE INDEX device_by_tenant ON device(tenant_id);
                    CREATE TABLE enrolment_code (
                        code_hash TEXT PRIMARY KEY,
                        tenant_id INTEGER NOT NULL REFERENCES tenant(id),
                        event_id INTEGER NOT NULL REFERENCES event(id),
                        replaces_device TEXT REFERENCES device(id),
                        created_at DATETIME NOT NULL,
                        expires_at DATETIME NOT NULL,
                        used_at DATETIME,
                        device_id TEXT REFERENCES device(id)
                    );
                    -- At most one check-in per guest and event: the scan with the earliest corrected time.
                    CREATE TABLE check_in (
                        event_id INTEGER NOT NULL,
                        guest_id TEXT NOT NULL,
                        device_id TEXT NOT NULL,
                        epoch TEXT NOT NULL,
                        sequence INTEGER NOT NULL,
                        door TEXT NOT NULL,
                        device_time DATETIME NOT NULL,
                        corrected_time DATETIME NOT NULL,
                        received_at DATETIME NOT NULL,
                        arrived INTEGER NOT NULL,
                        PRIMARY KEY (event_id, guest_id),
                        FOREIGN KEY (event_id, guest_id) REFERENCES guest(event_id, id)
                    );
                    -- Every scan that reached the server, with its idempotency key and the answer it got.
                    CREATE TABLE check_in_event (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        event_id INTEGER NOT NULL REFERENCES event(id),
                        guest_id TEXT NOT NULL,
                        device_id TEXT NOT NULL,
                        epoch TEXT NOT NULL,
                        sequence INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        door TEXT NOT NULL,
                        source TEXT NOT NULL,
                        device_time DATETIME NOT NULL,
                        corrected_time DATETIME NOT NULL,
                        received_at DATETIME NOT NULL,
                        arrived INTEGER NOT NULL,
                        outcome TEXT NOT NULL,
                        reason TEXT,
                        reverts_device_id TEXT,
                        reverts_epoch TEXT,
                        reverts_sequence INTEGER,
                        answer TEXT NOT NULL,
                        UNIQUE (device_id, epoch, sequence)
                    );
                    CREATE INDEX check_in_event_by_event ON check_in_event(event_id, id);
                    CREATE TABLE audit (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        at DATETIME NOT NULL,
                        tenant_id INTEGER,
                        device_id TEXT,
                        action TEXT NOT NULL,
                        detail TEXT NOT NULL
                    );
                    CREATE TABLE setting (
                        name TEXT PRIMARY KEY,
                        value TEXT NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("0002 organizers, their web sessions, who made an enrolment code") { db in
            try db.execute(
                sql: """
                    CREATE TABLE organizer (
                        id INTEGER PRIMARY KEY,
                        tenant_id INTEGER NOT NULL REFERENCES tenant(id),
                        email TEXT NOT NULL UNIQUE,
                        name TEXT NOT NULL,
                        password_hash TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE TABLE web_session (
                        token_hash TEXT PRIMARY KEY,
                        organizer_id INTEGER NOT NULL REFERENCES organizer(id),
                        csrf_token TEXT NOT NULL,
                        created_at DATETIME NOT NULL,
                        expires_at DATETIME NOT NULL
                    );
                    ALTER TABLE enrolment_code ADD COLUMN created_by TEXT NOT NULL DEFAULT 'admin';
                    CREATE INDEX enrolment_code_by_event ON enrolment_code(event_id, device_id);
                    """)
        }
        migrator.registerMigration("0003 pass issuance, signing keys, guest webhooks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE signing_key (
                        key_id INTEGER PRIMARY KEY,
                        tenant_id INTEGER NOT NULL REFERENCES tenant(id),
                        private_key_pem TEXT NOT NULL,
                        public_key BLOB NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE INDEX signing_key_by_tenant ON signing_key(tenant_id, key_id);
                    CREATE TABLE pass_issuance (
                        id TEXT PRIMARY KEY,
                        tenant_id INTEGER NOT NULL,
                        event_id INTEGER NOT NULL,
                        guest_id TEXT NOT NULL,
                        recipient TEXT,
                        step TEXT NOT NULL,
                        failed_step TEXT,
                        attempts INTEGER NOT NULL,
                        next_attempt_at DATETIME NOT NULL,
                        last_error TEXT,
                        pass TEXT,
                        image BLOB,
                        stored_name TEXT,
                        sent_at DATETIME,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE INDEX pass_issuance_due ON pass_issuance(next_attempt_at)
                        WHERE step IN ('sign', 'render', 'store', 'email');
                    CREATE INDEX pass_issuance_by_guest ON pass_issuance(event_id, guest_id);
                    CREATE TABLE webhook_secret (
                        id INTEGER PRIMARY KEY,
                        tenant_id INTEGER NOT NULL REFERENCES tenant(id),
                        secret TEXT NOT NULL,
                        created_at DATETIME NOT NULL
                    );
                    CREATE TABLE webhook_receipt (
                        tenant_id INTEGER NOT NULL,
                        webhook_id TEXT NOT NULL,
                        received_at DATETIME NOT NULL,
                        outcome TEXT NOT NULL,
                        PRIMARY KEY (tenant_id, webhook_id)
                    );
                    ALTER TABLE guest ADD COLUMN external_ref TEXT;
                    CREATE UNIQUE INDEX guest_by_external_ref ON guest(event_id, external_ref)
                        WHERE external_ref IS NOT NULL;
                    """)
        }
        migrator.registerMigration("0004 offline alerts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE offline_alert (
                        event_id INTEGER PRIMARY KEY REFERENCES event(id),
                        email TEXT,
                        webhook_url TEXT,
                        webhook_secret TEXT,
                        updated_at DATETIME NOT NULL
                    );
                    CREATE TABLE offline_episode (
                        event_id INTEGER NOT NULL,
                        device_id TEXT NOT NULL,
                        last_seen_at DATETIME NOT NULL,
                        door TEXT NOT NULL,
                        detected_at DATETIME NOT NULL,
                        ended_at DATETIME,
                        PRIMARY KEY (event_id, device_id, last_seen_at)
                    );
                    CREATE INDEX offline_episode_open ON offline_episode(event_id) WHERE ended_at IS NULL;
                    CREATE TABLE alert_delivery (
                        id TEXT PRIMARY KEY,
                        event_id INTEGER NOT NULL,
                        device_id TEXT NOT NULL,
                        door TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        channel TEXT NOT NULL,
                        target TEXT NOT NULL,
                        last_seen_at DATETIME NOT NULL,
                        state TEXT NOT NULL,
                        attempts INTEGER NOT NULL,
                        next_attempt_at DATETIME NOT NULL,
                        last_error TEXT,
                        created_at DATETIME NOT NULL,
                        sent_at DATETIME
                    );
                    CREATE INDEX alert_delivery_due ON alert_delivery(next_attempt_at) WHERE state = 'pending';
                    CREATE INDEX alert_delivery_by_event ON alert_delivery(event_id, created_at);
                    """)
        }
        migrator.registerMigration("0005 enrolment codes by device") { db in
            // The device lists' "which event, enrolled by whom" is the device's latest redeemed code: looked up by
            // device for each row (the monitor, the watch every 30 s), not by event.
            try db.execute(sql: "CREATE INDEX enrolment_code_by_device ON enrolment_code(device_id, used_at)")
        }
        migrator.registerMigration("0006 enrolment nonces, check-in events by guest") { db in
            // A kiosk whose redeem answer was lost asks again with the same nonce (its SHA-256 kept here); the
            // double entries of a guest are read, and set right, by guest.
            try db.execute(
                sql: """
                    ALTER TABLE enrolment_code ADD COLUMN redeem_nonce_hash TEXT;
                    CREATE INDEX check_in_event_by_guest ON check_in_event(event_id, guest_id);
                    CREATE INDEX check_in_event_superseded ON check_in_event(event_id) WHERE outcome = 'superseded';
                    """)
        }
        migrator.registerMigration(sealingMigration) { db in
            // Signing keys and webhook secrets are sealed under a key outside the database (in Swift: SQL cannot
            // seal); triggers refuse a plain one from now on.
            try sealStoredSecrets(db, secrets)
        }
        migrator.registerMigration("0008 rate limit hits") { db in
            // The sign-in throttle and the unauthenticated audit's limit, shared by every connection: one row per
            // hit, kept until it leaves its window.
            try db.execute(
                sql: """
                    CREATE TABLE rate_limit_hit (
                        key TEXT NOT NULL,
                        expires_at DATETIME NOT NULL
                    );
                    CREATE INDEX rate_limit_hit_by_key ON rate_limit_hit(key, expires_at);
                    CREATE INDEX rate_limit_hit_expiry ON rate_limit_hit(expires_at);
                    """)
        }
        migrator.registerMigration("0009 event time zones") { db in
            // The venue's IANA zone, in which every time of the event is shown (NULL: the server's zone).
            try db.execute(sql: "ALTER TABLE event ADD COLUMN time_zone TEXT")
        }
        migrator.registerMigration("0010 password resets") { db in
            // A reset link's token is kept as its hash only, until it is used or expires.
            try db.execute(
                sql: """
                    CREATE TABLE password_reset (
                        token_hash TEXT PRIMARY KEY,
                        organizer_id INTEGER NOT NULL REFERENCES organizer(id) ON DELETE CASCADE,
                        expires_at DATETIME NOT NULL
                    );
                    CREATE INDEX password_reset_by_organizer ON password_reset(organizer_id);
                    """)
        }
        migrator.registerMigration("0011 personal data purge") { db in
            // When the event's personal data was purged (PersonalDataRetention); NULL: not yet.
            try db.execute(sql: "ALTER TABLE event ADD COLUMN personal_data_purged_at DATETIME")
        }
        migrator.registerMigration("0012 LAN peers of a device's report") { db in
            // The device ids a kiosk last reported a live LAN link with (issue 23), as a JSON array; NULL: it
            // did not say.
            try db.execute(sql: "ALTER TABLE device ADD COLUMN report_lan_peers TEXT")
        }
        migrator.registerMigration("0013 check-in lists and gates") { db in
            // Issue 51: an event's lists (every event gets its first, covering every ticket type, so a setup
            // made before lists keeps working), and the list and direction each device serves (NULL: the first).
            try db.execute(
                sql: """
                    CREATE TABLE checkin_list (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        event_id INTEGER NOT NULL REFERENCES event(id),
                        name TEXT NOT NULL,
                        rules TEXT NOT NULL,
                        capacity INTEGER,
                        version INTEGER NOT NULL,
                        created_at DATETIME NOT NULL,
                        UNIQUE (event_id, name)
                    );
                    INSERT INTO checkin_list (event_id, name, rules, version, created_at)
                        SELECT id, 'Main entrance', '{"allowsReentry":true}', 1, CURRENT_TIMESTAMP FROM event ORDER BY id;
                    ALTER TABLE device ADD COLUMN list_id INTEGER REFERENCES checkin_list(id);
                    ALTER TABLE device ADD COLUMN direction TEXT NOT NULL DEFAULT 'entry'
                        CHECK (direction IN ('entry', 'exit'));
                    ALTER TABLE enrolment_code ADD COLUMN list_id INTEGER REFERENCES checkin_list(id);
                    ALTER TABLE enrolment_code ADD COLUMN direction TEXT NOT NULL DEFAULT 'entry'
                        CHECK (direction IN ('entry', 'exit'));
                    """)
        }
        migrator.registerMigration("0014 check-ins per list, exits") { db in
            // Issue 51: a guest is checked in once per list. The check-ins move to list_check_in, keyed by list;
            // `check_in` stays as the view of the first lists' ones (what every page, count and export of an
            // event read before lists), so no reader can count a guest twice by joining it. Each scan names its
            // list; exits are scans of kind 'exit'.
            try db.execute(
                sql: """
                    CREATE TABLE list_check_in (
                        event_id INTEGER NOT NULL,
                        guest_id TEXT NOT NULL,
                        list_id INTEGER NOT NULL REFERENCES checkin_list(id),
                        first_list INTEGER NOT NULL CHECK (first_list IN (0, 1)),
                        device_id TEXT NOT NULL,
                        epoch TEXT NOT NULL,
                        sequence INTEGER NOT NULL,
                        door TEXT NOT NULL,
                        device_time DATETIME NOT NULL,
                        corrected_time DATETIME NOT NULL,
                        received_at DATETIME NOT NULL,
                        arrived INTEGER NOT NULL,
                        PRIMARY KEY (event_id, guest_id, list_id),
                        FOREIGN KEY (event_id, guest_id) REFERENCES guest(event_id, id)
                    );
                    INSERT INTO list_check_in (event_id, guest_id, list_id, first_list, device_id, epoch, sequence,
                        door, device_time, corrected_time, received_at, arrived)
                        SELECT c.event_id, c.guest_id,
                            (SELECT min(l.id) FROM checkin_list AS l WHERE l.event_id = c.event_id), 1, c.device_id,
                            c.epoch, c.sequence, c.door, c.device_time, c.corrected_time, c.received_at, c.arrived
                        FROM check_in AS c;
                    DROP TABLE check_in;
                    CREATE VIEW check_in AS
                        SELECT event_id, guest_id, device_id, epoch, sequence, door, device_time, corrected_time,
                            received_at, arrived
                        FROM list_check_in WHERE first_list = 1;
                    ALTER TABLE check_in_event ADD COLUMN list_id INTEGER REFERENCES checkin_list(id);
                    UPDATE check_in_event SET list_id =
                        (SELECT min(l.id) FROM checkin_list AS l WHERE l.event_id = check_in_event.event_id);
                    CREATE INDEX check_in_event_by_guest_list ON check_in_event(event_id, guest_id, list_id);
                    """)
        }
        return migrator
    }
}
