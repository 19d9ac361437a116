// Command sqlite-exec is a small sqlite3 CLI with the SQLite Hermes links (for the
// package test: Debian 12's sqlite3 is too old for the schema's FTS5 options).
// With only FILE it runs the SQL script on stdin; with QUERY it prints the rows of
// that query, one a line, the columns separated by tabs.
//
//	go build -tags sqlite_fts5 -o sqlite-exec ./build/package/cmd/sqlite-exec
//	sqlite-exec FILE <script.sql
//	sqlite-exec FILE 'SELECT MAX(version) FROM schema_migrations'
package main

import (
	"database/sql"
	"fmt"
	"io"
	"os"
	"strings"

	_ "github.com/mattn/go-sqlite3"
)

func main() {
	if len(os.Args) != 2 && len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sqlite-exec FILE [QUERY] (without QUERY the SQL comes from stdin)")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "sqlite-exec:", err)
		os.Exit(1)
	}
}

func run(file string, query []string) error {
	db, err := sql.Open("sqlite3", "file:"+file+"?_foreign_keys=on")
	if err != nil {
		return err
	}
	defer db.Close()
	if len(query) == 0 {
		script, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		_, err = db.Exec(string(script))
		return err
	}
	rows, err := db.Query(query[0])
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		out := make([]string, len(cols))
		for i, v := range vals {
			out[i] = v.String
		}
		fmt.Println(strings.Join(out, "\t"))
	}
	return rows.Err()
}
