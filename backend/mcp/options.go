package mcp

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hermes/backend/egress"
)

// Options configure a Manager; zero values take the defaults.
type Options struct {
	// DataDir holds mcp.json and mcp-approved.json.
	DataDir string
	// ConfigPath overrides DataDir/mcp.json.
	ConfigPath string
	// Approvals keeps the user's approvals; default FileApprovals at
	// DataDir/mcp-approved.json.
	Approvals ApprovalStore
	// Environ is Hermes's environment, where PATH, HOME, LANG, TMPDIR and ${VAR}
	// references come from; default os.Environ.
	Environ func() []string
	// OnStatus hears every change of a server's status (the UI's mcp:status
	// event). It is called from the supervisors' goroutines; it must not block
	// and must not call the Manager's methods that change things.
	OnStatus func(Status)
	// Only limits which approved servers start by themselves (the CLI starts
	// just the one it talks to); the others stay stopped until Restart. Empty:
	// all.
	Only []string
	// NoAutoStart keeps every server stopped until Restart (commands that only
	// read or edit mcp.json).
	NoAutoStart bool
	// OnProgress hears progress notices of long tool calls; must not block.
	OnProgress func(Progress)
	// Logger receives what happens in the background; default slog.Default().
	Logger *slog.Logger
	// Net dials the remote servers (offline_only, the record of connections);
	// nil dials with the entry's own rule and records nothing.
	Net *egress.Net

	InitTimeout     time.Duration // start + initialize; default 30 s
	RequestTimeout  time.Duration // one request unless the entry sets "timeout"; default 60 s
	PingInterval    time.Duration // health pings of a ready server; default 30 s
	StopTimeout     time.Duration // stdin close -> SIGTERM -> SIGKILL; default 6 s
	BackoffMin      time.Duration // first restart delay; default 1 s
	BackoffMax      time.Duration // longest restart delay; default 60 s
	StableAfter     time.Duration // a run this long resets the breaker and the backoff; default 60 s
	MaxFastCrashes  int           // failures in a row before "crashed"; default 5
	MaxMessageBytes int           // one stdout message; default 4 MiB
	MaxResultBytes  int           // what the model reads of one result; default 64 KiB
	StderrBytes     int           // stderr kept per server; default 64 KiB
	// PollInterval is how often mcp.json is checked for edits; default 1 s,
	// negative: never (call Reload).
	PollInterval time.Duration
}

func (o Options) withDefaults() Options {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if o.ConfigPath == "" && o.DataDir != "" {
		o.ConfigPath = filepath.Join(o.DataDir, "mcp.json")
	}
	if o.Approvals == nil && o.DataDir != "" {
		o.Approvals = FileApprovals{Path: filepath.Join(o.DataDir, "mcp-approved.json")}
	}
	if o.Environ == nil {
		o.Environ = os.Environ
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	def(&o.InitTimeout, 30*time.Second)
	def(&o.RequestTimeout, 60*time.Second)
	def(&o.PingInterval, 30*time.Second)
	def(&o.StopTimeout, 6*time.Second)
	def(&o.BackoffMin, time.Second)
	def(&o.BackoffMax, 60*time.Second)
	def(&o.StableAfter, 60*time.Second)
	defInt(&o.MaxFastCrashes, 5)
	defInt(&o.MaxMessageBytes, 4<<20)
	defInt(&o.MaxResultBytes, 64<<10)
	defInt(&o.StderrBytes, 64<<10)
	if o.PollInterval == 0 {
		o.PollInterval = time.Second
	}
	return o
}

func (o Options) pingTimeout() time.Duration { return min(o.RequestTimeout, 10*time.Second) }

// expandHome turns a leading "~/" into HOME of env.
func expandHome(dir string, env []string) string {
	if !strings.HasPrefix(dir, "~/") {
		return dir
	}
	for _, kv := range env {
		if home, ok := strings.CutPrefix(kv, "HOME="); ok {
			return filepath.Join(home, dir[2:])
		}
	}
	return dir
}
