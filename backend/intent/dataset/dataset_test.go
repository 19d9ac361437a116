package dataset

import (
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"ok", `{"text":"hi","label":"chitchat","lang":"en"}` + "\n\n" + `{"text":"你好","label":"chitchat","lang":"zh"}`, ""},
		{"unknown label", `{"text":"hi","label":"greeting","lang":"en"}`, `x.jsonl:1: unknown label "greeting"`},
		{"unknown lang", `{"text":"hi","label":"chitchat","lang":"fr"}`, `unknown lang "fr"`},
		{"unknown field", `{"text":"hi","label":"chitchat","lang":"en","id":1}`, "unknown field"},
		{"empty text", `{"text":" ","label":"chitchat","lang":"en"}`, "empty text"},
		{"line number", `{"text":"hi","label":"chitchat","lang":"en"}` + "\n" + `{`, "x.jsonl:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exs, err := Read(strings.NewReader(tc.in), "x.jsonl")
			if tc.want == "" {
				if err != nil || len(exs) != 2 {
					t.Fatalf("Read = %v, %v", exs, err)
				}
				if back := string(Marshal(exs)); back != strings.ReplaceAll(tc.in, "\n\n", "\n")+"\n" {
					t.Fatalf("Marshal = %q", back)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Read error = %v, want %q", err, tc.want)
			}
		})
	}
}
