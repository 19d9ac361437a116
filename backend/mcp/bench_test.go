package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"hermes/backend/egress"
	"hermes/backend/llm"
	"hermes/backend/store"
	"hermes/backend/tools"
)

// reportPercentiles reports the median and the 99th percentile of samples.
func reportPercentiles(b *testing.B, samples []time.Duration, unit string, scale float64) {
	b.Helper()
	if len(samples) == 0 {
		return
	}
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Nanoseconds())/scale, "p50-"+unit)
	b.ReportMetric(float64(samples[len(samples)*99/100].Nanoseconds())/scale, "p99-"+unit)
}

// BenchmarkEchoEngine is one echo round trip to server-everything through the
// whole tools engine: a turn, argument validation, the breaker, the timeout,
// the MCP call and the SQLite audit row.
func BenchmarkEchoEngine(b *testing.B) {
	h := newHarness(b, map[string]ServerConfig{"everything": everything(b)}, func(o *Options) { o.InitTimeout = 20 * time.Second })
	h.waitState("everything", StateReady, 20*time.Second)
	benchEchoEngine(b, h, "everything__echo")
}

// BenchmarkEchoEngineHTTP is the same round trip to server-everything over
// Streamable HTTP on loopback.
func BenchmarkEchoEngineHTTP(b *testing.B) {
	port := freePort(b)
	startEverythingHTTP(b, "streamableHttp", port)
	h := newHarness(b, map[string]ServerConfig{"web": {URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}}, remoteOptions)
	h.waitState("web", StateReady, 20*time.Second)
	benchEchoEngine(b, h, "web__echo")
}

func benchEchoEngine(b *testing.B, h *harness, tool string) {
	db, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "hermes.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	exec := tools.NewExecutor(h.reg, tools.Config{})
	exec.Audit = tools.NewAuditLog(db)
	ctx := context.Background()
	c := llm.ToolCall{ID: "call", Name: tool, Arguments: json.RawMessage(`{"message":"ping"}`)}
	for range 50 { // warm up node's JIT and the database
		exec.NewTurn(tools.TurnInfo{SessionID: "bench"}).Run(ctx, c)
	}
	samples := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		o, _ := exec.NewTurn(tools.TurnInfo{SessionID: "bench"}).Run(ctx, c)
		samples = append(samples, time.Since(start))
		if !o.OK() {
			b.Fatalf("outcome = %+v", o)
		}
	}
	b.StopTimer()
	reportPercentiles(b, samples, "µs", 1e3)
}

// BenchmarkEchoSupervised is the same call through the registered tool alone
// (supervisor, framer, result cleaning), without the engine.
func BenchmarkEchoSupervised(b *testing.B) {
	h := newHarness(b, map[string]ServerConfig{"everything": everything(b)}, func(o *Options) { o.InitTimeout = 20 * time.Second })
	h.waitState("everything", StateReady, 20*time.Second)
	tool, _ := h.reg.Get("everything__echo")
	ctx := context.Background()
	args := json.RawMessage(`{"message":"ping"}`)
	for range 50 {
		tool.Execute(ctx, args)
	}
	samples := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if _, err := tool.Execute(ctx, args); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, samples, "µs", 1e3)
}

// BenchmarkEchoBareClient is the echo round trip with mcp-go's own stdio
// client and nothing of Hermes, for comparison.
func BenchmarkEchoBareClient(b *testing.B) {
	benchBareClient(b, transport.NewStdio("node", nil, npmServer(b, "server-everything"), "stdio"))
}

// BenchmarkStartInitialize is starting server-everything (node) and
// initializing it, until tools/list has answered; stopping is not timed.
func BenchmarkStartInitialize(b *testing.B) {
	script := npmServer(b, "server-everything")
	env, _ := childEnv(testOptions("").withDefaults().Environ(), nil)
	cfg := sessionConfig{
		launch: launch{command: "node", args: []string{script, "stdio"}, env: env}, stderr: newRing(0),
		maxMessage: 4 << 20, initTimeout: 20 * time.Second, requestTimeout: 20 * time.Second, stopTimeout: 6 * time.Second,
	}
	benchConnect(b, cfg)
}

// BenchmarkConnectHTTP is connecting to server-everything over Streamable HTTP
// on loopback (the server already runs) and initializing, until tools/list
// has answered; closing the session is not timed.
func BenchmarkConnectHTTP(b *testing.B) {
	port := freePort(b)
	startEverythingHTTP(b, "streamableHttp", port)
	cfg := ServerConfig{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}
	r, err := newRemote(cfg, nil, (*egress.Net)(nil).Dialer(remoteRule("bench", cfg)))
	if err != nil {
		b.Fatal(err)
	}
	benchConnect(b, sessionConfig{remote: r, stderr: newRing(0), initTimeout: 20 * time.Second, requestTimeout: 20 * time.Second})
}

func benchConnect(b *testing.B, cfg sessionConfig) {
	ctx := context.Background()
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		s, err := openSession(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.listTools(ctx); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(start))
		b.StopTimer()
		s.close()
		b.StartTimer()
	}
	b.StopTimer()
	reportPercentiles(b, samples, "ms", 1e6)
}

// BenchmarkEchoBareClientHTTP is the echo round trip with mcp-go's own
// Streamable HTTP client and nothing of Hermes, for comparison.
func BenchmarkEchoBareClientHTTP(b *testing.B) {
	port := freePort(b)
	startEverythingHTTP(b, "streamableHttp", port)
	tr, err := transport.NewStreamableHTTP(fmt.Sprintf("http://127.0.0.1:%d/mcp", port))
	if err != nil {
		b.Fatal(err)
	}
	benchBareClient(b, tr)
}

func benchBareClient(b *testing.B, tr transport.Interface) {
	c := client.NewClient(tr)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		b.Fatal(err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "echo"
	call.Params.Arguments = map[string]any{"message": "ping"}
	for range 50 {
		c.CallTool(ctx, call)
	}
	samples := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if _, err := c.CallTool(ctx, call); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, samples, "µs", 1e3)
}

// BenchmarkEchoEngineHTTPGoServer is the engine round trip over Streamable
// HTTP to an in-process mcp-go server, which answers in microseconds: what is
// left is Hermes's own cost plus the HTTP transport's.
func BenchmarkEchoEngineHTTPGoServer(b *testing.B) {
	s := mcpserver.NewMCPServer("echo", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("message"), mcp.WithReadOnlyHintAnnotation(true), mcp.WithOpenWorldHintAnnotation(false)),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("Echo: " + r.GetString("message", "")), nil
		})
	srv := httptest.NewServer(mcpserver.NewStreamableHTTPServer(s))
	defer srv.Close()
	h := newHarness(b, map[string]ServerConfig{"go": {URL: srv.URL + "/mcp", AutoApprove: []string{"echo"}}}, remoteOptions)
	h.waitState("go", StateReady, 20*time.Second)
	benchEchoEngine(b, h, "go__echo")
}
