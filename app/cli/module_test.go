package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The build tools (task, nfpm) are their own module, build/tools, joined to
// Hermes' by go.work so `go tool task` works from the repository: Hermes'
// go.mod names neither, and the workspace links Hermes with exactly the
// modules its own go.mod gives (docs/architecture.md, "Layout").
func TestToolsHaveTheirOwnModule(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"go-task/task", "goreleaser/nfpm", "golang.org/x/tools"} {
		if strings.Contains(string(mod), tool) {
			t.Errorf("go.mod names %s: the build tools belong in build/tools/go.mod", tool)
		}
	}
	linked := func(gowork string) []string {
		cmd := exec.Command("go", "list", "-deps", "-tags", "sqlite_fts5", "-f", "{{with .Module}}{{.Path}}@{{.Version}}{{end}}", ".")
		cmd.Dir, cmd.Env = root, append(os.Environ(), "GOWORK="+gowork, "GOFLAGS=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list (GOWORK=%q): %v", gowork, err)
		}
		mods := slices.Compact(slices.Sorted(slices.Values(strings.Fields(string(out)))))
		return mods
	}
	alone, joined := linked("off"), linked(filepath.Join(root, "go.work"))
	if !slices.Equal(alone, joined) {
		t.Errorf("the workspace changes what Hermes links:\nalone  %v\njoined %v", alone, joined)
	}
	if len(alone) < 10 {
		t.Errorf("only %d modules linked: %v", len(alone), alone)
	}
}

// docs/architecture.md's "Who owns what" names every backend package (go list),
// so the map a newcomer reads is the tree that is there.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "./backend/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		parts := strings.Split(strings.TrimPrefix(p, "hermes/"), "/")
		top := parts[0] + "/" + parts[1] // backend/X: its subpackages are its own business
		if !seen[top] && !strings.Contains(string(doc), "`"+top+"`") {
			t.Errorf("docs/architecture.md does not name %s", top)
		}
		seen[top] = true
	}
	if len(seen) < 20 {
		t.Fatalf("only %d backend packages listed: %v", len(seen), seen)
	}
}
