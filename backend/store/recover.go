package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
)

// RecoverReport says what a recovery copied.
type RecoverReport struct {
	Into   string        `json:"into"`
	Tables []TableReport `json:"tables"`
}

// TableReport is one table of a recovery.
type TableReport struct {
	Table  string `json:"table"`
	Rows   int    `json:"rows"`
	Failed string `json:"failed,omitempty"` // why some of the table could not be read (its unreadable pages' rows are left out)
}

// Recover copies what can still be read of a damaged database (src, opened
// read-only and never changed) into a new file dst with the current schema:
// table by table, row by row, leaving out only the rows of unreadable pages.
// Search indexes are not copied; the packages that own them
// rebuild them in the new file (session.Store.RebuildSearch,
// memory.RebuildLexical, kb.RebuildIndex).
func Recover(ctx context.Context, src, dst string) (RecoverReport, error) {
	rep := RecoverReport{Into: dst}
	if _, err := os.Stat(dst); err == nil {
		return rep, fmt.Errorf("recover into %s: the file exists; move it away first", dst)
	}
	in, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: src}).EscapedPath()+"?mode=ro")
	if err != nil {
		return rep, fmt.Errorf("recover %s: %w", src, err)
	}
	defer in.Close()
	out, err := Open(ctx, dst)
	if err != nil {
		return rep, fmt.Errorf("recover into %s: %w", dst, err)
	}
	defer out.Close()
	tables, err := out.plainTables(ctx)
	if err != nil {
		return rep, fmt.Errorf("recover into %s: %w", dst, err)
	}
	for _, t := range tables {
		tr := TableReport{Table: t}
		n, err := copyTable(ctx, in, out, t)
		tr.Rows = n
		if err != nil {
			tr.Failed = err.Error()
		}
		rep.Tables = append(rep.Tables, tr)
	}
	return rep, nil
}

// plainTables are the new file's own tables, in creation order (parents before
// children), without the schema bookkeeping and the search indexes.
func (db *DB) plainTables(ctx context.Context) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	skip := map[string]bool{}
	for rows.Next() {
		var name, sqlText string
		if err := rows.Scan(&name, &sqlText); err != nil {
			return nil, err
		}
		if strings.HasPrefix(strings.ToUpper(sqlText), "CREATE VIRTUAL TABLE") {
			skip[name] = true // and its shadow tables, named after it
			continue
		}
		out = append(out, name)
	}
	keep := out[:0]
	for _, t := range out {
		shadow := false
		for v := range skip {
			shadow = shadow || strings.HasPrefix(t, v+"_")
		}
		if !shadow && t != "schema_migrations" {
			keep = append(keep, t)
		}
	}
	return keep, rows.Err()
}

// copyTable copies the columns both files have, row by row. An unreadable
// page costs its own rows only: the copy goes on after it (copyRows). err is
// the first read error, with the rows that could be read copied all the same.
func copyTable(ctx context.Context, in *sql.DB, out *DB, table string) (int, error) {
	both, err := commonColumns(ctx, in, out, table)
	if err != nil {
		return 0, err
	}
	list := strings.Join(both, ", ")
	n := 0
	var readErr error
	err = out.Tx(ctx, func(tx *sql.Tx) error {
		ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO "`+table+`"(rowid, `+list+`) VALUES (?`+strings.Repeat(", ?", len(both))+`)`)
		if err == nil {
			defer ins.Close()
			n, readErr = copyRows(ctx, in, ins, table, list, len(both)+1)
			return nil
		}
		// WITHOUT ROWID tables have no rowid: copied in one pass, up to the first unreadable page.
		if ins, err = tx.PrepareContext(ctx, `INSERT OR IGNORE INTO "`+table+`"(`+list+`) VALUES (?`+strings.Repeat(", ?", len(both)-1)+`)`); err != nil {
			return err
		}
		defer ins.Close()
		var last int64
		n, readErr = copyPass(ctx, in, ins, `SELECT `+list+` FROM "`+table+`"`, len(both), &last)
		return nil
	})
	if err == nil {
		err = readErr
	}
	return n, err
}

// commonColumns are the quoted names of the columns table has in both files.
func commonColumns(ctx context.Context, in *sql.DB, out *DB, table string) ([]string, error) {
	cols, err := columns(ctx, out.DB, table)
	if err != nil {
		return nil, err
	}
	have, err := columns(ctx, in, table)
	if err != nil {
		return nil, fmt.Errorf("not readable in the damaged file: %w", err)
	}
	var both []string
	for _, c := range cols {
		if slices.Contains(have, c) {
			both = append(both, `"`+c+`"`)
		}
	}
	if len(both) == 0 {
		return nil, errors.New("no columns in common")
	}
	return both, nil
}

// copyRows copies a rowid table in rowid order (from 0: Hermes writes no
// rowid below it). When a row cannot be read it looks for the first rowid
// after it that can (readableFrom) and goes on from there, so each pass starts
// further on; it returns the rows copied and the first read error.
func copyRows(ctx context.Context, in *sql.DB, ins *sql.Stmt, table, list string, width int) (int, error) {
	from, n := int64(0), 0
	var first error
	for {
		last := from - 1 // the last rowid read, copied or not
		k, err := copyPass(ctx, in, ins, `SELECT rowid, `+list+` FROM "`+table+`" WHERE rowid >= `+strconv.FormatInt(from, 10)+` ORDER BY rowid`, width, &last)
		n += k
		if err == nil || ctx.Err() != nil {
			return n, cmp.Or(first, err)
		}
		first = cmp.Or(first, err)
		next, ok := readableFrom(ctx, in, table, last+1)
		if !ok {
			return n, first
		}
		from = next
	}
}

// copyPass copies the rows query reads (width columns, the first the rowid
// when the insert takes one) until they end or a page cannot be read; it
// returns the rows copied and the read error, and sets *last to each row's
// first column as it reads it (a rowid).
func copyPass(ctx context.Context, in *sql.DB, ins *sql.Stmt, query string, width int, last *int64) (n int, err error) {
	rows, err := in.QueryContext(ctx, query)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	vals := make([]any, width)
	ptrs := make([]any, width)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		if id, ok := vals[0].(int64); ok {
			*last = id
		}
		if _, err := ins.ExecContext(ctx, vals...); err == nil {
			n++
		}
	}
	return n, rows.Err()
}

// readableFrom is the smallest rowid past bad (the row that could not be
// read) from which the table can be read again: a seek there lands past the
// damaged page. It doubles the step until a seek succeeds, then halves the
// gap; false when none does.
func readableFrom(ctx context.Context, in *sql.DB, table string, bad int64) (int64, bool) {
	seeks := func(at int64) bool {
		var id int64
		err := in.QueryRowContext(ctx, `SELECT rowid FROM "`+table+`" WHERE rowid >= ? ORDER BY rowid LIMIT 1`, at).Scan(&id)
		return err == nil || errors.Is(err, sql.ErrNoRows)
	}
	good := int64(0)
	for step := int64(1); ; step *= 2 {
		if step <= 0 || bad > math.MaxInt64-step || ctx.Err() != nil {
			return 0, false
		}
		if at := bad + step; seeks(at) {
			good = at
			break
		} else {
			bad = at
		}
	}
	for good-bad > 1 {
		mid := bad + (good-bad)/2
		if seeks(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good, true
}

func columns(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if len(out) == 0 && rows.Err() == nil {
		return nil, fmt.Errorf("no table %s", table)
	}
	return out, rows.Err()
}
