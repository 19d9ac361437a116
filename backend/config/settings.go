package config

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"hermes/backend/netguard"
)

// ErrInvalid marks a setting that was rejected; the message names the field and the reason.
var ErrInvalid = errors.New("invalid setting")

// Reasons a value is refused (ValueError.Reason), with the params each names.
const (
	BadDuration      = "not_duration"   // value
	BadDurationRange = "duration_range" // value, min, max
	BadWhole         = "not_whole"      // value
	BadWholeRange    = "whole_range"    // value, min, max
	BadChoice        = "not_choice"     // value, choices
	BadAbsPath       = "not_abs_path"   // value
	BadHost          = "not_host"       // value
	BadHostEmpty     = "host_empty"     // none
	BadScheme        = "bad_scheme"     // value
	BadPort          = "bad_port"       // value
	BadHostNever     = "host_never"     // value: a link-local or cloud-metadata address (netguard.Refused)
	BadModel         = "not_model"      // value
	BadModelEmpty    = "model_empty"    // none
	// The model is checked against the installed ones (app): value, installed.
	BadNotInstalled = "model_not_installed"
	BadNotEmbedder  = "not_embedder"   // value
	BadNotChat      = "not_chat_model" // value
	// memory_verifiers
	BadVerifierPair = "not_verifier_pair" // value
	BadToolName     = "not_tool_name"     // value
	BadPrefixTwice  = "prefix_twice"      // value
	BadTooMany      = "too_many"          // count, max
	// memory_half_lives: the memory package's reasons (a half-life list's refusal also names its category)
)

// ValueError is a value a setting refused: the setting (Key, set by Update), why
// (a Bad* reason) and the parts its English message names, so that a UI can say
// it in its own language.
type ValueError struct {
	Key    string
	Reason string
	Params map[string]string
	msg    string
}

func (e *ValueError) Error() string { return e.msg }

// Refuse is a value refused for key outside the setting's own parser (a model
// that is not installed): ErrInvalid with a ValueError, as Update returns.
func Refuse(key, reason string, params map[string]string, format string, args ...any) error {
	return fmt.Errorf("%w: %w", ErrInvalid, &ValueError{Key: key, Reason: reason, Params: params, msg: fmt.Sprintf(format, args...)})
}

// durationReason: a value that is no duration at all, or one out of range.
func durationReason(parseErr error) string {
	if parseErr != nil {
		return BadDuration
	}
	return BadDurationRange
}

// Bad is a refused value, a ValueError: why (a reason code the UI words), the
// parts its words name, and its English message (also what a Spec's Parse
// returns).
func Bad(reason string, params map[string]string, format string, args ...any) error {
	return &ValueError{Reason: reason, Params: params, msg: fmt.Sprintf(format, args...)}
}

// Settings are the user's choices, typed and validated.
type Settings struct {
	OllamaHost        string
	ChatModel         string
	FallbackModels    []string
	EmbedModel        string
	ConnectTimeout    time.Duration
	FirstTokenTimeout time.Duration
	TokenGapTimeout   time.Duration
	// KeepAlive is how long Ollama keeps the chat model loaded after a request
	// (sent with every one); negative: for ever, 0: unload at once.
	KeepAlive     time.Duration
	ContextWindow int
	ReplyReserve  int
	RecentTurns   int
	IdleTimeout   time.Duration
	ArchiveAfter  time.Duration // an idle conversation is archived this long after it went idle
	OllamaPath    string        // the ollama program Hermes may start; "" searches PATH and the usual places
	ManageOllama  string        // "auto": start ollama serve when nothing answers at a loopback host; "never"
	CageMemoryMB  int           // memory a file's reader may use (the parser cage), in MiB
	CageTime      time.Duration // time a file's reader may take, wall clock and CPU
	OfflineOnly   bool          // every connection beyond this computer is refused (backend/egress)
	// OllamaInternet lets ollama_host be an internet address (netguard.Internet);
	// loopback and the LAN need no permission, as for MCP over HTTP.
	OllamaInternet bool
	// MemoryHalfLives is the decay half-life per memory category the user set
	// (categories not named decay at the default rate). Shared: do not modify.
	MemoryHalfLives map[string]time.Duration
	// MemoryVerifiers names the tool that verifies pending facts, by key prefix
	// (the second sign-off). Shared: do not modify.
	MemoryVerifiers map[string]string
}

// Models is the chat model followed by its fallbacks, without repeats.
func (s Settings) Models() []string {
	out := []string{s.ChatModel}
	for _, m := range s.FallbackModels {
		if m != s.ChatModel && !contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Item is one setting as shown to the user.
type Item struct {
	Key         string `json:"key"`
	Value       string `json:"value"`
	Description string `json:"description"`
}

type spec struct {
	key, description string
	def              func(getenv func(string) string) string
	parse            func(string) (string, error) // returns the normalized value
	apply            func(*Settings, string)
	domain           bool // its rule is a Spec the composition root gives (NewStore)
}

// Spec is a setting whose rule a domain package owns (memory's half-lives,
// its verifiers' tool names): the composition root gives it to NewStore, so
// this package imports no domain package. It keeps the table's place and an
// empty default; Parse returns the normalised value or a refusal (Bad).
type Spec struct {
	Key, Description string
	Parse            func(string) (string, error)
	Apply            func(*Settings, string)
}

func constant(v string) func(func(string) string) string {
	return func(func(string) string) string { return v }
}

var specs = []spec{
	{
		key: "ollama_host", description: "Address of the Ollama server (default: $OLLAMA_HOST or http://127.0.0.1:11434)",
		def: func(getenv func(string) string) string {
			if h, err := NormalizeHost(getenv("OLLAMA_HOST")); err == nil && getenv("OLLAMA_HOST") != "" {
				return h
			}
			return "http://127.0.0.1:11434"
		},
		parse: NormalizeHost,
		apply: func(s *Settings, v string) { s.OllamaHost = v },
	},
	{
		key: "chat_model", description: "Ollama model used for chat, e.g. llama3.2 or qwen2.5:7b",
		def: constant("llama3.2"), parse: parseModel,
		apply: func(s *Settings, v string) { s.ChatModel = v },
	},
	{
		key: "fallback_models", description: "Comma-separated models tried in order when the chat model is missing or fails",
		def: constant(""), parse: parseModelList,
		apply: func(s *Settings, v string) { s.FallbackModels = splitList(v) },
	},
	{
		key: "embed_model", description: "Ollama model used for embeddings, e.g. nomic-embed-text",
		def: constant("nomic-embed-text"), parse: parseModel,
		apply: func(s *Settings, v string) { s.EmbedModel = v },
	},
	durationSpec("connect_timeout", "How long to wait to connect to Ollama", "5s", func(s *Settings, d time.Duration) { s.ConnectTimeout = d }),
	durationSpec("first_token_timeout", "How long to wait for the first token (includes loading the model)", "120s", func(s *Settings, d time.Duration) { s.FirstTokenTimeout = d }),
	durationSpec("token_gap_timeout", "Longest pause allowed between two tokens", "30s", func(s *Settings, d time.Duration) { s.TokenGapTimeout = d }),
	{
		key: "keep_alive", description: "How long Ollama keeps a model loaded after a reply, sent with every request (e.g. 5m, 1h; 0 unloads at once, -1 keeps it loaded)",
		def: constant("5m"), parse: parseKeepAlive,
		apply: func(s *Settings, v string) { s.KeepAlive, _ = time.ParseDuration(v) },
	},
	intSpec("context_window", "Largest context (tokens) Hermes asks Ollama for; the model's own limit applies when smaller", "8192", 512, 1<<20,
		func(s *Settings, n int) { s.ContextWindow = n }),
	intSpec("reply_reserve", "Tokens kept free in the context for the reply", "1024", 64, 1<<18, func(s *Settings, n int) { s.ReplyReserve = n }),
	intSpec("cage_memory", "Memory (MB) the reader of one attached file may use before the file is refused", "512", 64, 16384,
		func(s *Settings, n int) { s.CageMemoryMB = n }),
	durationSpec("cage_time", "Time the reader of one attached file may take before the file is refused", "20s", func(s *Settings, d time.Duration) { s.CageTime = d }),
	intSpec("recent_turns", "Newest turns always offered to the model (if they fit)", "4", 0, 100, func(s *Settings, n int) { s.RecentTurns = n }),
	{
		key: "idle_timeout", description: "A conversation without messages for this long is closed: summarized, titled, marked idle (e.g. 15m)",
		def: constant("15m"),
		parse: func(v string) (string, error) {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil || d < time.Minute || d > 30*24*time.Hour {
				return "", Bad(durationReason(err), map[string]string{"value": v, "min": "1m", "max": "720h"}, "%q is not a duration between 1m and 720h", v)
			}
			return ShortDuration(d), nil
		},
		apply: func(s *Settings, v string) { s.IdleTimeout, _ = time.ParseDuration(v) },
	},
	{
		key: "archive_after", description: "An idle conversation is archived (still searchable; its working memory is erased) this long after it went idle (e.g. 168h)",
		def: constant("168h"),
		parse: func(v string) (string, error) {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil || d < time.Hour || d > 365*24*time.Hour {
				return "", Bad(durationReason(err), map[string]string{"value": v, "min": "1h", "max": "8760h"}, "%q is not a duration between 1h and 8760h", v)
			}
			return ShortDuration(d), nil
		},
		apply: func(s *Settings, v string) { s.ArchiveAfter, _ = time.ParseDuration(v) },
	},
	{
		key: "manage_ollama", description: "auto: when nothing answers at a loopback ollama_host and ollama is installed, Hermes starts it (and stops it on exit); never: it does not",
		def: constant("auto"),
		parse: func(v string) (string, error) {
			switch v = strings.ToLower(strings.TrimSpace(v)); v {
			case "auto", "never":
				return v, nil
			}
			return "", Bad(BadChoice, map[string]string{"value": v, "choices": "auto, never"}, "%q is not auto or never", v)
		},
		apply: func(s *Settings, v string) { s.ManageOllama = v },
	},
	{key: "memory_half_lives", domain: true}, // memory's rule (a Spec given to NewStore)
	{key: "memory_verifiers", domain: true},  // memory's rule with the tools' name rule
	{
		key: "ollama_path", description: "The ollama program Hermes may start (empty: search PATH and the usual install places)",
		def: constant(""),
		parse: func(v string) (string, error) {
			v = strings.TrimSpace(v)
			if v != "" && !filepath.IsAbs(v) {
				return "", Bad(BadAbsPath, map[string]string{"value": v}, "%q is not an absolute path, e.g. /usr/local/bin/ollama", v)
			}
			return v, nil
		},
		apply: func(s *Settings, v string) { s.OllamaPath = v },
	},
	{
		key: "offline_only", description: "true: Hermes connects only to this computer; every other connection (Ollama, MCP servers, HTTP tools; the local network included) is refused and listed in Activity → Network. false: each part's own rules apply",
		def: constant("false"), parse: parseBool,
		apply: func(s *Settings, v string) { s.OfflineOnly = v == "true" },
	},
	{
		key: "ollama_allow_internet", description: "true: ollama_host may be an internet address (not this computer or the local network); Ollama's API has no password, so reach it over https or a tunnel. false: only this computer and the local network",
		def: constant("false"), parse: parseBool,
		apply: func(s *Settings, v string) { s.OllamaInternet = v == "true" },
	},
}

// parseBool reads true or false (also on/off, yes/no, 1/0).
func parseBool(v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "1":
		return "true", nil
	case "false", "off", "no", "0":
		return "false", nil
	}
	return "", Bad(BadChoice, map[string]string{"value": v, "choices": "true, false"}, "%q is not true or false", v)
}

func intSpec(key, desc, def string, lo, hi int, set func(*Settings, int)) spec {
	return spec{
		key: key, description: desc, def: constant(def),
		parse: func(v string) (string, error) {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return "", Bad(BadWhole, map[string]string{"value": v}, "%q is not a whole number", v)
			}
			if n < lo || n > hi {
				return "", Bad(BadWholeRange, map[string]string{"value": strconv.Itoa(n), "min": strconv.Itoa(lo), "max": strconv.Itoa(hi)},
					"%d is out of range; use between %d and %d", n, lo, hi)
			}
			return strconv.Itoa(n), nil
		},
		apply: func(s *Settings, v string) { n, _ := strconv.Atoi(v); set(s, n) },
	}
}

func durationSpec(key, desc, def string, set func(*Settings, time.Duration)) spec {
	return spec{
		key: key, description: desc + " (e.g. 30s, 2m)", def: constant(def),
		parse: func(v string) (string, error) {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil {
				return "", Bad(BadDuration, map[string]string{"value": v}, "%q is not a duration; write it like 30s or 2m", v)
			}
			if d < 100*time.Millisecond || d > time.Hour {
				return "", Bad(BadDurationRange, map[string]string{"value": ShortDuration(d), "min": "100ms", "max": "1h"}, "%s is out of range; use between 100ms and 1h", d)
			}
			return ShortDuration(d), nil
		},
		apply: func(s *Settings, v string) { d, _ := time.ParseDuration(v); set(s, d) },
	}
}

// parseKeepAlive reads keep_alive: a duration from 0 to 720h, or any negative
// one (-1: for ever, as Ollama reads it).
func parseKeepAlive(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "-1" || strings.EqualFold(v, "forever") {
		return "-1s", nil
	}
	if v == "0" {
		return "0s", nil
	}
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return "", Bad(BadDuration, map[string]string{"value": v}, "%q is not a duration; write it like 5m or 1h (0 unloads at once, -1 keeps the model loaded)", v)
	case d < 0:
		return "-1s", nil
	case d > 30*24*time.Hour:
		return "", Bad(BadDurationRange, map[string]string{"value": ShortDuration(d), "min": "0", "max": "720h"}, "%s is out of range; use between 0 and 720h, or -1 to keep the model loaded", d)
	}
	return ShortDuration(d), nil
}

// ShortDuration writes d as Go does, less the zero minutes and seconds a
// person would not write: 15m, 168h, 2m30s (not 15m0s, 168h0m0s). Go's
// time.ParseDuration reads it back to the same duration.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// NormalizeHost accepts the forms OLLAMA_HOST accepts (host, host:port, scheme://host:port)
// and returns scheme://host:port.
func NormalizeHost(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", Bad(BadHostEmpty, nil, "the host is empty; use e.g. http://127.0.0.1:11434")
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return "", Bad(BadHost, map[string]string{"value": v}, "%q is not a host address; use e.g. http://127.0.0.1:11434", v)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", Bad(BadScheme, map[string]string{"value": u.Scheme}, "scheme %q is not supported; use http or https", u.Scheme)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "11434"
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return "", Bad(BadPort, map[string]string{"value": port}, "port %q is not a number between 1 and 65535", port)
	}
	if host == "0.0.0.0" || host == "::" || host == "" {
		host = "127.0.0.1"
	}
	if a, err := netip.ParseAddr(host); err == nil && netguard.Classify(a) == netguard.Refused {
		return "", Bad(BadHostNever, map[string]string{"value": host}, "%s is a link-local or cloud-metadata address, which Hermes never connects to; use the Ollama machine's LAN address", host)
	}
	return u.Scheme + "://" + net.JoinHostPort(host, port) + strings.TrimSuffix(u.Path, "/"), nil
}

func parseModel(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", Bad(BadModelEmpty, nil, "the model name is empty")
	}
	if strings.ContainsAny(v, " \t\n,") {
		return "", Bad(BadModel, map[string]string{"value": v}, "%q is not a model name (no spaces or commas)", v)
	}
	return v, nil
}

func parseModelList(v string) (string, error) {
	list := splitList(v)
	for _, m := range list {
		if _, err := parseModel(m); err != nil {
			return "", err
		}
	}
	return strings.Join(list, ","), nil
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Store keeps settings in the database. Load is called on every turn, so its result
// is cached briefly (a change made here is seen at once; one made by another process
// within cacheFor).
type Store struct {
	db     *sql.DB
	getenv func(string) string
	table  []spec // the settings, the domain ones with the rules NewStore was given

	mu       sync.Mutex
	cached   Settings
	cachedAt time.Time
	// changes counts the changes made here: a Load that read the table before
	// one of them must not cache what it read (it would hide the change).
	changes uint64
}

const cacheFor = 2 * time.Second

// NewStore returns a settings store; getenv supplies defaults such as
// OLLAMA_HOST; domain gives the rules of the settings domain packages own (a
// domain setting without its Spec refuses every value and keeps its default).
func NewStore(db *sql.DB, getenv func(string) string, domain ...Spec) *Store {
	given := map[string]Spec{}
	for _, d := range domain {
		if !slices.Contains(DomainKeys(), d.Key) || d.Parse == nil || d.Apply == nil {
			panic(fmt.Sprintf("config: %q is no domain setting, or its Spec lacks Parse or Apply", d.Key)) // the composition root's mistake
		}
		given[d.Key] = d
	}
	st := &Store{db: db, getenv: getenv, table: make([]spec, len(specs))}
	for i, s := range specs {
		st.table[i] = resolve(s, given)
	}
	return st
}

// DomainKeys are the settings whose rules the composition root gives (Spec).
func DomainKeys() []string {
	var out []string
	for _, s := range specs {
		if s.domain {
			out = append(out, s.key)
		}
	}
	return out
}

// resolve is s with its rule: a domain setting's from given, else one that
// refuses every value and keeps the empty default.
func resolve(s spec, given map[string]Spec) spec {
	if !s.domain {
		return s
	}
	s.def = constant("")
	s.parse = func(string) (string, error) {
		return "", Bad(BadChoice, map[string]string{"value": s.key, "choices": ""}, "%s cannot be set here", s.key)
	}
	s.apply = func(*Settings, string) {}
	if d, ok := given[s.key]; ok {
		s.description, s.parse, s.apply = d.Description, d.Parse, d.Apply
	}
	return s
}

func (st *Store) lookup(key string) (spec, error) {
	for _, s := range st.table {
		if s.key == key {
			return s, nil
		}
	}
	keys := make([]string, len(specs))
	for i, s := range specs {
		keys[i] = s.key
	}
	sort.Strings(keys)
	return spec{}, fmt.Errorf("%w: unknown key %q; known keys: %s", ErrInvalid, key, strings.Join(keys, ", "))
}

func (st *Store) stored(ctx context.Context) (map[string]string, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT key, value FROM settings`)
	if err != nil {
		return nil, fmt.Errorf("load settings: %w", err)
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("load settings: %w", err)
		}
		m[k] = v
	}
	return m, rows.Err()
}

// List returns every setting with its effective value.
func (st *Store) List(ctx context.Context) ([]Item, error) {
	m, err := st.stored(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Item, 0, len(specs))
	for _, s := range st.table {
		out = append(out, Item{Key: s.key, Value: st.effective(s, m), Description: s.description})
	}
	return out, nil
}

// effective is the stored value when it is still valid, else the default.
func (st *Store) effective(s spec, stored map[string]string) string {
	if v, ok := stored[s.key]; ok {
		if norm, err := s.parse(v); err == nil {
			return norm
		}
	}
	return s.def(st.getenv)
}

// Load returns the typed settings.
func (st *Store) Load(ctx context.Context) (Settings, error) {
	st.mu.Lock()
	if !st.cachedAt.IsZero() && time.Since(st.cachedAt) < cacheFor {
		s := st.cached
		st.mu.Unlock()
		s.FallbackModels = append([]string(nil), s.FallbackModels...)
		return s, nil
	}
	seen := st.changes
	st.mu.Unlock()
	m, err := st.stored(ctx)
	if err != nil {
		return Settings{}, err
	}
	var out Settings
	for _, s := range st.table {
		s.apply(&out, st.effective(s, m))
	}
	st.mu.Lock()
	if st.changes == seen { // else a change came in while this read: it is not cached
		st.cached, st.cachedAt = out, time.Now()
	}
	st.mu.Unlock()
	return out, nil
}

// Get returns one setting's effective value.
func (st *Store) Get(ctx context.Context, key string) (string, error) {
	s, err := st.lookup(key)
	if err != nil {
		return "", err
	}
	m, err := st.stored(ctx)
	if err != nil {
		return "", err
	}
	return st.effective(s, m), nil
}

// Set validates and stores one setting. An invalid value is rejected with the field and
// the reason, and the stored value is kept.
func (st *Store) Set(ctx context.Context, key, value string) error {
	return st.Update(ctx, key, func(string) (string, error) { return value, nil })
}

// Update changes one setting from the value in effect now (stored, else the
// default), read and written in one write transaction: two processes (the
// window and the CLI) changing parts of one setting at the same moment each
// see the other's change, and none is lost to a cached read. An error from
// change is returned as it is, and nothing is written.
func (st *Store) Update(ctx context.Context, key string, change func(current string) (string, error)) error {
	s, err := st.lookup(key)
	if err != nil {
		return err
	}
	tx, err := st.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (store.Open's _txlock): the write lock first
	if err != nil {
		return fmt.Errorf("save setting %s: %w", key, err)
	}
	defer tx.Rollback()
	stored := map[string]string{}
	var v string
	switch err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v); {
	case err == nil:
		stored[key] = v
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("save setting %s: %w", key, err)
	}
	value, err := change(st.effective(s, stored))
	if err != nil {
		return err
	}
	norm, err := s.parse(value)
	if err != nil {
		var ve *ValueError
		if errors.As(err, &ve) {
			ve.Key = key
		}
		return fmt.Errorf("%w: %s: %w", ErrInvalid, key, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		key, norm, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("save setting %s: %w", key, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save setting %s: %w", key, err)
	}
	st.mu.Lock()
	st.cachedAt = time.Time{}
	st.changes++
	st.mu.Unlock()
	return nil
}
