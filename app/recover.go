package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"hermes/backend/kb"
	"hermes/backend/memory"
	"hermes/backend/session"
	"hermes/backend/store"
	"hermes/backend/text"
)

// DatabaseProblem names what is wrong with the data dir's database file, with
// the fix a user can follow; "" when Open's error is something else.
func DatabaseProblem(err error, file string) (kind, fix string) {
	switch {
	case err == nil:
		return "", ""
	case errors.Is(err, store.ErrReadOnly):
		return "read-only", fmt.Sprintf("Make %s writable for this user (or its disk), or choose another --data-dir. The file is fine and was not changed.", filepath.Dir(file))
	case errors.Is(err, store.ErrDamaged):
		return "damaged", DamagedFix(file)
	case errors.Is(err, store.ErrNewerSchema):
		return "newer", "A newer Hermes wrote this file: upgrade Hermes, or use another --data-dir. The file was not changed."
	case errors.Is(err, store.ErrNotDatabase):
		return "not-database", fmt.Sprintf("Move %s aside (keep it) or use another --data-dir; Hermes will create a new database.", filepath.Base(file))
	}
	return "", ""
}

// DamagedFix is what to do about a damaged database file.
func DamagedFix(file string) string {
	return fmt.Sprintf("Restore a backup of %s, or run `hermes doctor --recover` to copy what can still be read into %s (the damaged file is kept as it is).", file, RecoveredName(file))
}

// RecoveredName is where a recovery writes: beside the damaged file.
func RecoveredName(file string) string {
	return file[:len(file)-len(filepath.Ext(file))] + ".recovered" + filepath.Ext(file)
}

// RecoverDatabase copies what can still be read of a damaged database file into
// a new file beside it and rebuilds the search indexes there; the damaged file
// is never changed.
func RecoverDatabase(ctx context.Context, file string) (store.RecoverReport, error) {
	dst := RecoveredName(file)
	rep, err := store.Recover(ctx, file, dst)
	if err != nil {
		return rep, err
	}
	db, err := store.Open(ctx, dst)
	if err != nil {
		return rep, fmt.Errorf("recover: open %s: %w", dst, err)
	}
	defer db.Close()
	if err := rebuildIndexes(ctx, db); err != nil {
		return rep, fmt.Errorf("recover: %w", err)
	}
	return rep, nil
}

// rebuildIndexes writes the three full-text indexes (chats, memories,
// knowledge passages) again from their rows, in text.Segment's current form.
func rebuildIndexes(ctx context.Context, db *store.DB) error {
	if err := session.NewStore(db).RebuildSearch(ctx); err != nil {
		return err
	}
	if err := memory.RebuildLexical(ctx, db); err != nil {
		return err
	}
	if err := kb.RebuildIndex(ctx, db); err != nil {
		return err
	}
	return db.SetIndexForm(ctx, text.SegmentForm)
}

// upgradeIndexForm rebuilds the full-text indexes of a database written in an
// older form than this build's (docs/architecture.md, "Retrieval"). A quit or
// crash part way leaves the old form recorded, so the next start does it again.
// told (may be nil) hears it before the work starts.
func upgradeIndexForm(ctx context.Context, db *store.DB, told func()) error {
	form, err := db.IndexForm(ctx)
	if err != nil || form == text.SegmentForm {
		return err
	}
	if db.Created { // a new database has nothing to write again, and says nothing
		return db.SetIndexForm(ctx, text.SegmentForm)
	}
	if told != nil {
		told()
	}
	if err := rebuildIndexes(ctx, db); err != nil {
		return fmt.Errorf("write the search indexes in the new form: %w", err)
	}
	return nil
}
