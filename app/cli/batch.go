package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
)

// eachLine runs fn for every non-empty line of a JSONL batch file and writes what fn
// encodes to stdout as JSONL. fn gets the line number for its error messages.
func eachLine(cmd, file string, env Env, fn func(n int, raw []byte, out *json.Encoder) error) error {
	f, err := os.Open(file)
	if err != nil {
		return usagef("%s: %v", cmd, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	n := 0
	for sc.Scan() {
		n++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if err := fn(n, sc.Bytes(), enc); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return usagef("%s: %s line %d: %v", cmd, file, n+1, err)
	}
	return nil
}
