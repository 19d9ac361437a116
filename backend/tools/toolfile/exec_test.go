package toolfile

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/netguard"
	"hermes/backend/tools"
)

func TestHTTPExecutor(t *testing.T) {
	type seen struct {
		method, path, rawPath, query, auth, body, ctype string
	}
	got := make(chan seen, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.Path, r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Get("Authorization"), string(body), r.Header.Get("Content-Type")}
		switch {
		case strings.HasPrefix(r.URL.Path, "/json/"):
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"city":%q,"temp":21.5}`, strings.TrimPrefix(r.URL.Path, "/json/"))
		case r.URL.Path == "/text":
			fmt.Fprint(w, "sunny\n")
		case r.URL.Path == "/missing":
			http.Error(w, "no such station\nmore detail", http.StatusNotFound)
		case r.URL.Path == "/huge":
			w.Write([]byte(strings.Repeat("x", maxResponse+10)))
		case r.URL.Path == "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case r.URL.Path == "/away":
			http.Redirect(w, r, "http://93.184.216.34/", http.StatusFound)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	defer srv.Close()

	file := fmt.Sprintf(`tools:
  - name: weather
    description: Weather.
    parameters: {type: object, properties: {city: {type: string}, units: {type: string}, n: {type: integer}}, required: [city]}
    result_schema: {type: object, required: [temp]}
    http:
      url: "%[1]s/json/{{city}}?units={{units}}&n={{ n }}"
      headers: {Authorization: "Bearer ${TOKEN}"}
  - name: text
    description: Text.
    parameters: {type: object}
    http: {url: "%[1]s/text"}
  - name: missing
    description: 404.
    parameters: {type: object}
    http: {url: "%[1]s/missing"}
  - name: huge
    description: Too big.
    parameters: {type: object}
    http: {url: "%[1]s/huge"}
  - name: slow
    description: Slow.
    parameters: {type: object}
    timeout: 50ms
    http: {url: "%[1]s/slow"}
  - name: away
    description: Redirects to the internet.
    parameters: {type: object}
    http: {url: "%[1]s/away"}
  - name: post
    description: Posts.
    parameters: {type: object, properties: {note: {type: string}}}
    http: {method: POST, url: "%[1]s/notes"}
`, srv.URL)
	ts, errs := Parse("tools.yaml", []byte(file), Options{LookupEnv: func(k string) (string, bool) { return "tok-123", k == "TOKEN" }})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	tests := []struct {
		name, tool, args string
		ok               bool
		content          string
		check            func(t *testing.T, s seen)
	}{
		{"JSON result, path and query escaped, secret header", "weather", `{"city":"New York/Queens?x","units":"a&b=c d","n":3}`, true,
			`{"city":"New York/Queens?x","temp":21.5}`, func(t *testing.T, s seen) {
				if s.rawPath != "/json/New%20York%2FQueens%3Fx" || s.query != "units=a%26b%3Dc+d&n=3" || s.auth != "Bearer tok-123" || s.method != "GET" {
					t.Fatalf("request = %+v", s)
				}
			}},
		{"an absent optional argument is empty", "weather", `{"city":"Oslo"}`, true, `"temp":21.5`, func(t *testing.T, s seen) {
			if s.query != "units=&n=" {
				t.Fatalf("query = %q", s.query)
			}
		}},
		{"text result", "text", `{}`, true, "sunny\n", nil},
		{"error status", "missing", `{}`, false, "404 Not Found: no such station", nil},
		{"response too large", "huge", `{}`, false, "larger than", nil},
		{"timeout", "slow", `{}`, false, "did not finish within 50ms", nil},
		{"redirect off the network is refused", "away", `{}`, false, "not on this machine or the local network", nil},
		{"POST sends the arguments as JSON", "post", `{"note":"buy milk"}`, true, "", func(t *testing.T, s seen) {
			if s.method != "POST" || s.body != `{"note":"buy milk"}` || s.ctype != "application/json" {
				t.Fatalf("request = %+v", s)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for len(got) > 0 {
				<-got
			}
			o := runDeclared(t, ts, tt.tool, tt.args)
			if o.OK() != tt.ok || !strings.Contains(o.Content, tt.content) {
				t.Fatalf("outcome = %s %s; want %q", o.Status, o.Content, tt.content)
			}
			if tt.check != nil {
				tt.check(t, <-got)
			}
		})
	}
}

func TestDialControl(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:80", true},
		{"[::1]:80", true},
		{"10.1.2.3:80", true},
		{"172.16.0.1:80", true},
		{"192.168.1.10:8080", true},
		{"[fd00::1]:80", true},
		{"169.254.10.1:80", false},
		{"169.254.169.254:80", false},
		{"[fd00:ec2::254]:80", false},
		{"[::ffff:192.168.0.1]:80", true},
		{"8.8.8.8:53", false},
		{"93.184.216.34:80", false},
		{"[2606:4700::1]:443", false},
		{"0.0.0.0:80", false},
		{"100.64.0.1:80", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if err := netguard.Control(false, "allow_internet")("tcp", tt.addr, nil); (err == nil) != tt.ok {
				t.Fatalf("dialControl(%s) = %v; want ok=%v", tt.addr, err, tt.ok)
			}
		})
	}
}

func TestCheckHost(t *testing.T) {
	tests := []struct {
		host string
		ok   bool
	}{
		{"localhost", true}, {"127.0.0.1", true}, {"[::1]", true}, {"nas", true}, {"printer.local", true},
		{"router.lan", true}, {"box.home.arpa", true}, {"8.8.8.8", false}, {"example.com", false}, {"evil.local.example.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			if err := netguard.CheckHost(tt.host, false, "allow_internet"); (err == nil) != tt.ok {
				t.Fatalf("checkHost(%s) = %v", tt.host, err)
			}
		})
	}
}

func TestCommandExecutor(t *testing.T) {
	dir := t.TempDir()
	canary := filepath.Join(dir, "canary")
	if err := os.WriteFile(canary, []byte("still here"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HERMES_TEST_SECRET", "do-not-leak")
	file := fmt.Sprintf(`tools:
  - name: echo
    description: Echo.
    parameters: {type: object, properties: {text: {type: string}, n: {type: number}}}
    command:
      argv: [/bin/echo, "-n", "{{text}}", "n={{n}}"]
  - name: env
    description: Print the environment.
    parameters: {type: object}
    command:
      argv: [env]
      env: {GREETING: "hello ${USER_NAME}"}
      dir: %q
  - name: fail
    description: Fails.
    parameters: {type: object}
    command: {argv: [sh, -c, "echo broken >&2; exit 3"]}
  - name: hang
    description: Never ends.
    parameters: {type: object}
    timeout: 100ms
    command: {argv: [sleep, "30"]}
  - name: json
    description: Prints JSON.
    parameters: {type: object}
    command: {argv: [/bin/echo, '{"ok": true}']}
`, dir)
	ts, errs := Parse("tools.yaml", []byte(file), Options{LookupEnv: func(k string) (string, bool) {
		if k == "USER_NAME" {
			return "ann", true
		}
		return os.LookupEnv(k)
	}})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	injections := []string{
		"hello; rm -rf " + canary,
		"$(rm -rf " + canary + ")",
		"`rm -rf " + canary + "`",
		"a && rm -rf " + canary + " || true",
		"'; rm -rf " + canary + "; echo '",
		"line1\nline2",
		"--help",
	}
	for _, in := range injections {
		t.Run("argument passed literally: "+strings.SplitN(in, " ", 2)[0], func(t *testing.T) {
			args, _ := json.Marshal(map[string]any{"text": in, "n": 2.5})
			o := runDeclared(t, ts, "echo", string(args))
			if !o.OK() || o.Content != in+" n=2.5" {
				t.Fatalf("outcome = %s %q; want %q", o.Status, o.Content, in+" n=2.5")
			}
			if _, err := os.Stat(canary); err != nil {
				t.Fatal("the canary file was removed: an argument reached a shell")
			}
		})
	}
	t.Run("minimal environment, declared variables, working directory", func(t *testing.T) {
		o := runDeclared(t, ts, "env", `{}`)
		if !o.OK() {
			t.Fatalf("outcome = %s %s", o.Status, o.Content)
		}
		if strings.Contains(o.Content, "do-not-leak") || !strings.Contains(o.Content, "GREETING=hello ann") {
			t.Fatalf("environment = %s", o.Content)
		}
		for _, line := range strings.Split(strings.TrimSpace(o.Content), "\n") {
			name, _, _ := strings.Cut(line, "=")
			switch name {
			case "PATH", "HOME", "LANG", "TMPDIR", "GREETING", "PWD":
			default:
				t.Errorf("unexpected variable %s", name)
			}
		}
	})
	t.Run("non-zero exit is a tool error with stderr", func(t *testing.T) {
		o := runDeclared(t, ts, "fail", `{}`)
		if o.OK() || !strings.Contains(o.Content, "exited with status 3: broken") {
			t.Fatalf("outcome = %s %s", o.Status, o.Content)
		}
	})
	t.Run("timeout kills the program", func(t *testing.T) {
		start := time.Now()
		o := runDeclared(t, ts, "hang", `{}`)
		if o.Status != tools.StatusTimeout || time.Since(start) > 5*time.Second {
			t.Fatalf("outcome = %s %s after %s", o.Status, o.Content, time.Since(start))
		}
	})
	t.Run("JSON output is a JSON result", func(t *testing.T) {
		o := runDeclared(t, ts, "json", `{}`)
		if !o.OK() || string(o.Result) != `{"ok": true}` {
			t.Fatalf("outcome = %s %s", o.Status, o.Result)
		}
	})
	t.Run("a command always asks", func(t *testing.T) {
		reg := tools.NewRegistry()
		Register(reg, ts)
		exec := tools.NewExecutor(reg, tools.Config{})
		asked := 0
		exec.Approver = tools.ApproverFunc(func(_ context.Context, req tools.ApprovalRequest) (tools.Decision, error) {
			asked++
			if string(req.Args) != `{"text":"hi"}` {
				t.Errorf("approval shows %s", req.Args)
			}
			return tools.Decision{Allow: false}, nil
		})
		o, _ := exec.NewTurn(tools.TurnInfo{}).Run(context.Background(), llm.ToolCall{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
		if asked != 1 || o.Status != tools.StatusDenied {
			t.Fatalf("asked %d, outcome %s", asked, o.Status)
		}
	})
}
