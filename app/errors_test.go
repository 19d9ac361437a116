package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/ollama/ollama/api"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/memory"
	"hermes/backend/session"
	"hermes/backend/store"
)

func TestEveryMappedErrorCarriesItsCode(t *testing.T) {
	busy := fmt.Errorf("add message: %w", sqlite3.Error{Code: sqlite3.ErrBusy})
	cases := []struct {
		name       string
		err        error
		code       string
		params     map[string]string
		msgHas     string
		cliMessage bool // the English text is what the command line prints
	}{
		{"empty message", fmt.Errorf("turn: %w", agent.ErrEmptyMessage), CodeEmptyMessage, nil, "Type a message first.", true},
		{"conversation gone", fmt.Errorf("get session: %w", session.ErrNotFound), CodeNotFound, nil, "no longer exists", true},
		{"memory gone", fmt.Errorf("forget: %w", memory.ErrNotFound), CodeNotFound, nil, "memory no longer exists", true},
		{"invalid session input", fmt.Errorf("rename: %w: title is too long", session.ErrInvalid), CodeInvalidInput,
			map[string]string{"detail": "Title is too long."}, "Title is too long.", true},
		{"invalid setting", fmt.Errorf("%w: chat_model: must not be empty", config.ErrInvalid), CodeInvalidInput,
			map[string]string{"detail": "chat_model: must not be empty"}, "chat_model: must not be empty", true},
		{"ollama down", fmt.Errorf("chat with m: %w: dial tcp: connection refused", llm.ErrUnreachable), CodeOllamaUnreachable,
			map[string]string{"host": "http://127.0.0.1:9"}, "not reachable at http://127.0.0.1:9", true},
		{"model missing", fmt.Errorf("chat with m: %w: no such model", llm.ErrModelNotFound), CodeModelMissing,
			map[string]string{"model": "qwen2.5"}, "hermes model pull qwen2.5", true},
		{"no first token", fmt.Errorf("chat with m: %w", &llm.TimeoutError{Setting: "first_token_timeout", Limit: 2 * time.Minute}), CodeOllamaTimeout,
			map[string]string{"setting": "first_token_timeout", "limit": "2m"}, "raise first_token_timeout in Settings", true},
		{"stalled mid-reply", fmt.Errorf("chat with m: %w", &llm.TimeoutError{Setting: "token_gap_timeout", Limit: 30 * time.Second}), CodeOllamaTimeout,
			map[string]string{"setting": "token_gap_timeout", "limit": "30s"}, "raise token_gap_timeout in Settings", true},
		{"ollama busy", fmt.Errorf("chat with m: %w: too many requests", llm.ErrOverloaded), CodeOllamaBusy, nil, "busy with other requests", true},
		{"database busy", busy, CodeDBBusy, map[string]string{"wait": store.BusyTimeout.String()}, "kept the database busy", true},
		{"not a database", fmt.Errorf("open database x: %w: file is not a database", store.ErrNotDatabase), CodeDBDamaged, nil, "not a SQLite database", true},
		{"newer schema", fmt.Errorf("open database x: %w", store.ErrNewerSchema), CodeDBNewer, nil, "newer than this build", true},
		{"download cancelled", &UserError{Message: "Cancelled.", Err: errors.Join(ErrJobCancelled, context.Canceled)}, CodeCancelled, nil, "Cancelled.", false},
		{"anything else", errors.New("disk on fire"), CodeInternal, map[string]string{"detail": "disk on fire"}, "Something went wrong: disk on fire", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := userError(tc.err, "http://127.0.0.1:9", "qwen2.5")
			if got := ErrorCode(err); got != tc.code {
				t.Fatalf("code = %q, want %q (err %v)", got, tc.code, err)
			}
			if !strings.Contains(err.Error(), tc.msgHas) {
				t.Fatalf("message %q lacks %q", err.Error(), tc.msgHas)
			}
			if tc.cliMessage && DescribeError(tc.err, "http://127.0.0.1:9", "qwen2.5").Error() != err.Error() {
				t.Fatal("the command line's message differs from the UI's English one")
			}
			b := errorBody(err)
			if b.Code != tc.code || b.Error != err.Error() {
				t.Fatalf("body = %+v", b)
			}
			for k, v := range tc.params {
				if b.Params[k] != v {
					t.Fatalf("params = %v, want %s=%q", b.Params, k, v)
				}
			}
			// The window gets the same body through the Wails ErrorFormatter.
			if got, _ := FormatError(err).(ErrorBody); got.Code != tc.code {
				t.Fatalf("FormatError = %+v", got)
			}
			// Still errors.Is-able for the command line's exit codes.
			if !errors.Is(err, tc.err) && !errors.Is(err, errors.Unwrap(tc.err)) {
				t.Fatal("the cause is lost")
			}
		})
	}
}

func TestHandWrittenUserErrorsGetACode(t *testing.T) {
	cases := []struct {
		name string
		err  error
		code string
	}{
		{"own code", &UserError{Message: "That request is already running.", Code: CodeConflict}, CodeConflict},
		{"refusal without a cause", &UserError{Message: "Give the memory ids as a JSON list."}, CodeInvalidInput},
		{"cause is bad input", &UserError{Message: "bad", Err: fmt.Errorf("%w: x", config.ErrInvalid)}, CodeInvalidInput},
		{"cause is a memory rule", &UserError{Message: "bad", Err: fmt.Errorf("%w: x", memory.ErrInvalid)}, CodeInvalidInput},
		{"cause is Ollama", &UserError{Message: "down", Err: fmt.Errorf("pull: %w", llm.ErrUnreachable)}, CodeOllamaUnreachable},
		{"operation failed in its own words", &UserError{Message: "Could not save /x: denied", Err: errors.New("denied")}, CodeFailed},
		{"unmapped error", errors.New("boom"), CodeInternal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorCode(tc.err); got != tc.code {
				t.Fatalf("code = %q, want %q", got, tc.code)
			}
			if b := errorBody(tc.err); b.Code != tc.code || b.Error != tc.err.Error() {
				t.Fatalf("body = %+v", b)
			}
		})
	}
}

// errorWeb serves a test App over HTTP and gives access to its fake Ollama.
func errorWeb(t *testing.T) (*Web, string, *llmtest.Server, *Core) {
	t.Helper()
	a, core, fake, _ := newTestApp(t, llmtest.Echo(3, 0))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	web, err := NewWeb(a, fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}, ln)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: web}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return web, "http://" + ln.Addr().String(), fake, core
}

func postCall(t *testing.T, web *Web, base, method string, args ...string) (int, ErrorBody) {
	t.Helper()
	b, _ := json.Marshal(args)
	req, _ := http.NewRequest(http.MethodPost, base+"/api/call/"+method, strings.NewReader(string(b)))
	req.Header.Set(TokenHeader, web.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body ErrorBody
	_ = json.Unmarshal(raw, &body)
	return resp.StatusCode, body
}

func TestWebErrorsCarryTheirCode(t *testing.T) {
	web, base, fake, core := errorWeb(t)
	ctx := context.Background()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	deadHost := closed.Addr().String()
	closed.Close()

	cases := []struct {
		name   string
		setup  func()
		method string
		args   []string
		status int
		code   string
		param  [2]string
	}{
		{"empty message", nil, "SendMessage", []string{"r1", "", "   "}, http.StatusUnprocessableEntity, CodeEmptyMessage, [2]string{}},
		{"unknown conversation", nil, "LoadSession", []string{"no-such-id"}, http.StatusUnprocessableEntity, CodeNotFound, [2]string{}},
		{"bad setting", nil, "SetSetting", []string{"first_token_timeout", "soon"}, http.StatusUnprocessableEntity, CodeBadSetting, [2]string{"reason", "not_duration"}},
		{"model missing", func() {
			fake.Chat = func(api.ChatRequest) llmtest.Reply {
				return llmtest.Reply{Status: 404, Error: `model "llama3.2" not found`}
			}
		}, "SendMessage", []string{"r2", "", "hi"}, http.StatusUnprocessableEntity, CodeModelMissing, [2]string{"model", ""}},
		{"no first token", func() {
			fake.Chat = func(api.ChatRequest) llmtest.Reply {
				return llmtest.Reply{Chunks: []string{"a"}, StallAfter: -1, Delay: 3 * time.Second}
			}
			if err := core.settings.Set(ctx, "first_token_timeout", "200ms"); err != nil {
				t.Fatal(err)
			}
		}, "SendMessage", []string{"r3", "", "hi"}, http.StatusUnprocessableEntity, CodeOllamaTimeout, [2]string{"setting", "first_token_timeout"}},
		{"ollama unreachable", func() {
			if err := core.settings.Set(ctx, "ollama_host", deadHost); err != nil {
				t.Fatal(err)
			}
		}, "SendMessage", []string{"r4", "", "anyone?"}, http.StatusUnprocessableEntity, CodeOllamaUnreachable, [2]string{"host", "http://" + deadHost}},
		{"bad call", nil, "NoSuchMethod", nil, http.StatusBadRequest, CodeInternal, [2]string{"detail", ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup()
			}
			status, body := postCall(t, web, base, tc.method, tc.args...)
			if status != tc.status || body.Code != tc.code || body.Error == "" {
				t.Fatalf("status %d body %+v; want %d %q", status, body, tc.status, tc.code)
			}
			if k := tc.param[0]; k != "" {
				if v, ok := body.Params[k]; !ok || (tc.param[1] != "" && v != tc.param[1]) {
					t.Fatalf("params = %v; want %s=%q", body.Params, k, tc.param[1])
				}
			}
		})
	}

	t.Run("no token", func(t *testing.T) {
		resp, err := http.Post(base+"/api/call/Status", "application/json", strings.NewReader("[]"))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body ErrorBody
		_ = json.NewDecoder(resp.Body).Decode(&body)
		if resp.StatusCode != http.StatusUnauthorized || body.Code != CodeUnauthorized || !strings.HasPrefix(body.Error, "unauthorized") {
			t.Fatalf("%d %+v", resp.StatusCode, body)
		}
	})
}

// TestFailedReplyIsStoredInTheUsersWords: a reply that failed because Ollama is
// gone keeps the user's message, not the transport's ("dial tcp"), with the
// code and parameters the UI words it by; a reload shows the same.
func TestFailedReplyIsStoredInTheUsersWords(t *testing.T) {
	a, _, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now
	if _, err := a.Settings.SetSetting("ollama_host", host); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Settings.SetSetting("manage_ollama", "never"); err != nil {
		t.Fatal(err)
	}
	res, err := a.Chat.SendMessage("r1", "", "hello")
	if err == nil {
		t.Fatal("the turn did not fail")
	}
	d, err := a.Sessions.LoadSession(res.Session.ID)
	if err != nil || len(d.Messages) != 2 {
		t.Fatalf("stored = %+v, %v", d, err)
	}
	reply := d.Messages[1]
	if reply.Status != "failed" || reply.ErrorCode != CodeOllamaUnreachable || reply.ErrorParams["host"] != host ||
		strings.Contains(reply.Error, "dial tcp") || !strings.Contains(reply.Error, "ollama serve") {
		t.Fatalf("failed reply = %+v", reply)
	}
}

// TestModelTooBigForMemory: Ollama's "requires more system memory" answer reaches
// the UI as model_too_big with the model and both sizes, through the real client.
func TestModelTooBigForMemory(t *testing.T) {
	a, _, _, _ := newTestApp(t, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Status: 500, Error: "model requires more system memory (5.6 GiB) than is available (3.1 GiB)"}
	})
	_, err := a.Chat.SendMessage("r1", "", "hello")
	b := errorBody(err)
	if b.Code != CodeModelTooBig || b.Params["model"] != "llama3.2" || b.Params["need"] != "5.6 GiB" || b.Params["free"] != "3.1 GiB" ||
		!strings.Contains(b.Error, "needs more memory than is free now (needs 5.6 GiB, 3.1 GiB free)") {
		t.Fatalf("body = %+v", b)
	}
}

// TestModelTooBigWithoutSizes: when Ollama's answer gives no sizes, the message
// leaves them out rather than saying "needs ?, ? free".
func TestModelTooBigWithoutSizes(t *testing.T) {
	a, _, _, _ := newTestApp(t, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Status: 500, Error: "model requires more system memory than is available"}
	})
	_, err := a.Chat.SendMessage("r1", "", "hello")
	b := errorBody(err)
	_, need := b.Params["need"]
	if _, free := b.Params["free"]; b.Code != CodeModelTooBig || need || free || strings.Contains(b.Error, "?") ||
		!strings.Contains(b.Error, "Model llama3.2 needs more memory than is free now. Close other programs") {
		t.Fatalf("body = %+v", b)
	}
}

// TestFailedReplyNamesTheChatsOwnModel: a chat with its own model that was removed
// since fails naming that model, not the global chat model.
func TestFailedReplyNamesTheChatsOwnModel(t *testing.T) {
	a, _, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	fake.Models = append(fake.Models, llmtest.Model{Name: "qwen2.5", ContextLength: 8192, Capabilities: []string{"completion", "tools"}})
	res, err := a.Chat.SendMessage("r1", "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SetSessionSettings(res.Session.ID, `{"model":"qwen2.5"}`); err != nil {
		t.Fatal(err)
	}
	fake.Models = fake.Models[:len(fake.Models)-1] // removed since
	_, err = a.Chat.SendMessage("r2", res.Session.ID, "and now?")
	if b := errorBody(err); b.Code != CodeModelMissing || b.Params["model"] != "qwen2.5" || !strings.Contains(b.Error, "qwen2.5") {
		t.Fatalf("body = %+v", b)
	}
}

// TestReplyCutOffMidStream: a stream that ends without Ollama's last line (the
// server died) fails as ollama_cut_off naming the model, and keeps what came.
func TestReplyCutOffMidStream(t *testing.T) {
	a, _, _, _ := newTestApp(t, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: []string{"The answer ", "is"}, CutOff: true}
	})
	res, err := a.Chat.SendMessage("r1", "", "hello")
	if b := errorBody(err); b.Code != CodeOllamaCutOff || b.Params["model"] != "llama3.2" || !strings.Contains(b.Error, "before it was complete") {
		t.Fatalf("body = %+v", b)
	}
	d, err := a.Sessions.LoadSession(res.Session.ID)
	if err != nil || len(d.Messages) != 2 || d.Messages[1].ErrorCode != CodeOllamaCutOff || !strings.Contains(d.Messages[1].Content, "The answer is") {
		t.Fatalf("stored = %+v, %v", d.Messages, err)
	}
}
