package kb

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"hermes/backend/retrieval"
)

func TestZZEval(t *testing.T) {
	dir := os.Getenv("KBDEV")
	if dir == "" {
		t.Skip()
	}
	e := newEnv(t)
	e.docs = dir + "/docs"
	e.add(t, "kb")
	f, _ := os.Open(dir + "/queries.jsonl")
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	type q struct {
		ID, Query, File, Lang string
		Answers               []string
	}
	var qs []q
	for sc.Scan() {
		var x q
		json.Unmarshal(sc.Bytes(), &x)
		qs = append(qs, x)
	}
	ctx := context.Background()
	colls, _ := e.s.collections(ctx, nil)
	ok := func(x q, file, text string) bool {
		if file != x.File {
			return false
		}
		for _, a := range x.Answers {
			if strings.Contains(norm(text), norm(a)) {
				return true
			}
		}
		return false
	}
	text := func(id int64) (string, string) {
		var file, tx string
		e.db.QueryRow(`SELECT f.path, k.text FROM kb_chunks k JOIN kb_files f ON f.id=k.file_id WHERE k.id=?`, id).Scan(&file, &tx)
		return file, tx
	}
	for _, mode := range []string{"lex", "plain"} {
		hit1 := map[string]int{}
		hit5 := map[string]int{}
		n := map[string]int{}
		fileHit := map[string]int{}
		for _, x := range qs {
			var ids []int64
			switch mode {
			case "lex":
				ids, _ = e.s.lexical(ctx, x.Query, nil, 10)
			case "plain":
				pt := retrieval.PlainTerms(x.Query)
				if len(pt) == 0 {
					n[x.Lang]++
					continue
				}
				expr := "{body} : (" + strings.Join(pt, " OR ") + ")"
				rows, err := e.db.Query(`SELECT rowid FROM kb_fts WHERE kb_fts MATCH ? ORDER BY rank LIMIT 10`, expr)
				if err != nil {
					t.Fatal(err, expr)
				}
				for rows.Next() {
					var id int64
					rows.Scan(&id)
					ids = append(ids, id)
				}
				rows.Close()
			case "vec":
				ids = e.s.nearest(ctx, colls, x.Query, 10)
			default:
				hits, _ := e.s.Search(ctx, Query{Text: x.Query, K: 10})
				for _, h := range hits {
					ids = append(ids, h.Chunk)
				}
			}
			n[x.Lang]++
			if mode == "lex" && x.Lang == "zh" && len(ids) > 0 && os.Getenv("MISS") != "" {
				fl, tx := text(ids[0])
				if !ok(x, fl, tx) {
					fmt.Printf("MISS %s | want %s %q | got %s %.80q\n", x.Query, x.File, x.Answers[0], fl, tx)
				}
			}
			if len(ids) > 0 {
				if fl, _ := text(ids[0]); fl == x.File {
					fileHit[x.Lang]++
				}
			}
			for i, id := range ids {
				fl, tx := text(id)
				if ok(x, fl, tx) {
					if i == 0 {
						hit1[x.Lang]++
					}
					if i < 5 {
						hit5[x.Lang]++
					}
					break
				}
			}
		}
		for _, l := range []string{"en", "zh"} {
			fmt.Printf("%s %s hit@1 %.3f hit@5 %.3f file@1 %.3f\n", mode, l, float64(hit1[l])/float64(n[l]), float64(hit5[l])/float64(n[l]), float64(fileHit[l])/float64(n[l]))
		}
	}
}
