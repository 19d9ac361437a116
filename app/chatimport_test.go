package app

import (
	"context"
	"encoding/base64"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hermes/backend/llm/llmtest"
)

// TestChatImportBound: the window's and web mode's methods preview a file,
// import it with session:import progress events, refuse a bad one in words the
// UI shows (invalid_input with the reader's reason), and say what to do about
// a missing file.
func TestChatImportBound(t *testing.T) {
	a, _, _, ev := newTestApp(t, llmtest.Echo(1, 0))
	file := filepath.Join("..", "backend", "chatimport", "testdata", "claude.json")
	p, err := a.Sessions.PreviewChatImport("pre-1", "claude", file)
	if err != nil || p.Conversations != 2 || p.Messages != 7 || p.First != "2024-03-02T08:00:01Z" || p.Last != "2024-04-01T12:02:00Z" {
		t.Fatalf("preview %+v, %v", p, err)
	}
	if list, _ := a.Sessions.ListSessions(); len(list) != 0 {
		t.Fatalf("the preview wrote %d sessions", len(list))
	}
	if !strings.Contains(strings.Join(ev.got, "\n"), `session:import:pre-1 {"phase":"checking"`) {
		t.Fatalf("no progress while previewing: %q", ev.got)
	}
	res, err := a.Sessions.ImportChats("imp-1", "claude", file, "")
	if err != nil || res.Sessions != 2 || res.Messages != 7 {
		t.Fatalf("import %+v, %v", res, err)
	}
	var phases []string
	for _, e := range ev.got {
		if name, data, _ := strings.Cut(e, " "); name == "session:import:imp-1" {
			phases = append(phases, data)
		}
	}
	if len(phases) == 0 || !strings.Contains(phases[len(phases)-1], `"phase":"importing","done":7,"total":7`) {
		t.Fatalf("progress events %q", phases)
	}
	_, err = a.Sessions.ImportChats("imp-2", "chatgpt", file, "") // a Claude file read as ChatGPT's
	var ue *UserError
	if !errors.As(err, &ue) || ue.Code != CodeInvalidInput || !strings.Contains(ue.Message, "is this a ChatGPT export?") {
		t.Fatalf("wrong format: %v", err)
	}
	_, err = a.Sessions.PreviewChatImport("pre-2", "chatgpt", filepath.Join(t.TempDir(), "nope.json"))
	if !errors.As(err, &ue) || !strings.Contains(ue.Message, "no file") {
		t.Fatalf("missing file: %v", err)
	}
}

// TestExportPDFBound: web mode's ExportPDF is the PDF, base64-encoded.
func TestExportPDFBound(t *testing.T) {
	a, _, _, _ := newTestApp(t, llmtest.Echo(1, 0))
	if _, err := a.Sessions.ImportChats("imp-1", "openwebui", filepath.Join("..", "backend", "chatimport", "testdata", "openwebui.json"), ""); err != nil {
		t.Fatal(err)
	}
	b64, err := a.Sessions.ExportPDF("openwebui:owu-1")
	if err != nil {
		t.Fatal(err)
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || !strings.HasPrefix(string(data), "%PDF-") {
		t.Fatalf("not a PDF: %v %.10q", err, data)
	}
}

// The window imports into a project: the conversations an import creates are
// in it; an unknown project imports nothing.
func TestChatImportIntoAProjectBound(t *testing.T) {
	a, c, _, _ := newTestApp(t, llmtest.Echo(1, 0))
	file := filepath.Join("..", "backend", "chatimport", "testdata", "openwebui.json")
	if _, err := a.Sessions.ImportChats("imp-0", "openwebui", file, "no-such-project"); err == nil {
		t.Fatal("an import into no project was accepted")
	}
	if list, _ := a.Sessions.ListSessions(); len(list) != 0 {
		t.Fatalf("a refused import wrote %d sessions", len(list))
	}
	p, err := c.SaveProject(context.Background(), ProjectInput{Name: "Moved in"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Sessions.ImportChats("imp-1", "openwebui", file, p.ID)
	if err != nil || res.Sessions == 0 {
		t.Fatalf("import: %+v %v", res, err)
	}
	list, _ := a.Sessions.ListSessions()
	for _, s := range list {
		if s.ProjectID != p.ID {
			t.Fatalf("an imported chat is not in the project: %+v", s)
		}
	}
}

// TestChatImportSourcesAreListed: the sources the dialog offers (the constants,
// which the UI's type is written from) are the sources an import reads.
func TestChatImportSourcesAreListed(t *testing.T) {
	want := []string{string(SourceChatGPT), string(SourceClaude), string(SourceOpenWebUI), string(SourceJSONL)}
	got := ChatImportSources()
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("ChatImportSources() = %v; the ChatImportSource constants are %v", got, want)
	}
}
