package cli

import (
	"bufio"
	"encoding/json"
	"os"

	"hermes/app"
)

// eachLine runs fn for every non-empty line of a JSONL batch file and writes what fn
// encodes to stdout as JSONL. fn gets the line number for its error messages.
func eachLine(cmd, file string, env Env, fn func(n int, raw []byte, out *json.Encoder) error) error {
	f, err := os.Open(file)
	if err != nil {
		return usagef("%s: %v", cmd, err)
	}
	defer f.Close()
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	err = app.JSONLines(f, 4<<20, func(n int, line []byte) error { return fn(n, line, enc) })
	if le, ok := err.(*app.LineError); ok { // the file itself could not be read (fn's errors pass as they are)
		return usagef("%s: %s %v", cmd, file, le)
	}
	return err
}
