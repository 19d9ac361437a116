package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
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
	Failed string `json:"failed,omitempty"` // why the rest of the table could not be read
}

// Recover copies what can still be read of a damaged database (src, opened
// read-only and never changed) into a new file dst with the current schema:
// table by table, row by row, keeping each table's rows until the first
// unreadable page. Search indexes are not copied; the packages that own them
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

// copyTable copies the columns both files have, row by row, until the source
// fails to read.
func copyTable(ctx context.Context, in *sql.DB, out *DB, table string) (int, error) {
	cols, err := columns(ctx, out.DB, table)
	if err != nil {
		return 0, err
	}
	have, err := columns(ctx, in, table)
	if err != nil {
		return 0, fmt.Errorf("not readable in the damaged file: %w", err)
	}
	var both []string
	for _, c := range cols {
		for _, h := range have {
			if c == h {
				both = append(both, `"`+c+`"`)
			}
		}
	}
	if len(both) == 0 {
		return 0, errors.New("no columns in common")
	}
	list := strings.Join(both, ", ")
	rows, err := in.QueryContext(ctx, `SELECT rowid, `+list+` FROM "`+table+`"`)
	if err != nil {
		// WITHOUT ROWID tables have no rowid.
		if rows, err = in.QueryContext(ctx, `SELECT NULL, `+list+` FROM "`+table+`"`); err != nil {
			return 0, err
		}
	}
	defer rows.Close()
	n := 0
	err = out.Tx(ctx, func(tx *sql.Tx) error {
		ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO "`+table+`"(rowid, `+list+`) VALUES (?`+strings.Repeat(", ?", len(both))+`)`)
		if err != nil {
			if ins, err = tx.PrepareContext(ctx, `INSERT OR IGNORE INTO "`+table+`"(`+list+`) VALUES (?`+strings.Repeat(", ?", len(both)-1)+`)`); err != nil {
				return err
			}
		}
		defer ins.Close()
		vals := make([]any, len(both)+1)
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return nil // keep what was copied
			}
			args := vals
			if vals[0] == nil {
				args = vals[1:]
			}
			if _, err := ins.ExecContext(ctx, args...); err == nil {
				n++
			}
		}
		return nil
	})
	if err == nil {
		err = rows.Err()
	}
	return n, err
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
