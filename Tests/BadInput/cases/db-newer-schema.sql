-- The database says a newer kiosk migrated it: this kiosk must refuse it, not guess.
INSERT INTO grdb_migrations (identifier) VALUES ('999 written by a kiosk from the future');
