-- The database says a newer kiosk migrated it: this kiosk must refuse it, not guess.
INSERT INTO kiosk_migrations (number, name, applied_at) VALUES (999, 'written by a kiosk from the future', 0);
