// Package memory is Hermes' layered memory: a write gate and LLM extraction run as a
// persisted job queue, deduplication and conflict supersession, decay with archive,
// hybrid recall (FTS5 BM25 and chromem-go vectors through backend/vector, fused by reciprocal rank),
// erasure with receipts, and export/import.
//
// SQLite is the single source of truth; the vector index is rebuilt from it at Open
// and kept in step on every write. Profiles are separate memory spaces: nothing
// reads across them. An incognito turn neither reads nor writes.
package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"hermes/backend/embed"
	"hermes/backend/llm"
	"hermes/backend/memory/decay"
	"hermes/backend/retrieval"
	"hermes/backend/store"
)

// Errors callers can test for.
var (
	ErrNotFound = errors.New("memory not found")
	ErrInvalid  = errors.New("invalid memory input")
	ErrConflict = errors.New("memory is not in a state that allows this")
)

// DefaultProfile is the memory space used when none is named.
const DefaultProfile = "personal"

// Embedder turns texts into unit vectors; embed.Hashed and embed.Ollama satisfy it.
type Embedder interface {
	Name() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Chatter is the model that extracts facts; *llm.Client satisfies it.
type Chatter interface {
	Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error)
}

// Verifier double-checks a fact before it becomes active (the second sign-off),
// e.g. by calling a tool. ok=false keeps the fact in the inbox with note.
type Verifier interface {
	Verify(ctx context.Context, m Memory) (ok bool, note string, err error)
}

// VerifierFunc is a Verifier made of a function.
type VerifierFunc func(ctx context.Context, m Memory) (bool, string, error)

// Verify calls f.
func (f VerifierFunc) Verify(ctx context.Context, m Memory) (bool, string, error) { return f(ctx, m) }

// VerifierSet finds the verifier of a key (nil: the key has none).
type VerifierSet interface {
	For(key string) Verifier
}

// VerifierMap is a fixed VerifierSet by key prefix: the longest prefix that
// matches wins.
type VerifierMap map[string]Verifier

// For is the verifier of the longest prefix of key in m.
func (m VerifierMap) For(key string) Verifier {
	prefix := LongestPrefix(key, m)
	if prefix == "" && m[""] == nil {
		return nil
	}
	return m[prefix]
}

// LongestPrefix is the longest key of m that key starts with ("" when none
// does); an empty key matches nothing.
func LongestPrefix[V any](key string, m map[string]V) string {
	best, found := "", false
	for prefix := range m {
		if key != "" && strings.HasPrefix(key, prefix) && (!found || len(prefix) > len(best)) {
			best, found = prefix, true
		}
	}
	return best
}

// Policy is what the user decided in settings; it can change while running.
type Policy struct {
	// AutoAccept activates model-inferred and sensitive facts without the inbox.
	AutoAccept bool
	// AllowSensitive stores phone numbers, emails, ID and card numbers and street
	// addresses as they are instead of masking them.
	AllowSensitive bool
}

// Config wires a Store. Only DB is required by Open; zero fields get defaults.
type Config struct {
	// Embedder embeds memories and queries; nil uses the offline embed.Hashed.
	Embedder Embedder
	// LLM extracts facts from turns; nil turns extraction off (Observe writes nothing).
	LLM Chatter
	// Models is the extraction model chain, read at each job.
	Models func() []string
	Policy Policy
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Location formats dates for the prompt ("you told me on 2026-11-02"); nil is time.Local.
	Location *time.Location
	// Lambda is the decay rate per hour by category; missing categories use DefaultLambda.
	Lambda map[string]float64
	// HalfLives, when set, is read at each decay computation: a category it names
	// decays with that half-life (the user's memory_half_lives setting), overriding Lambda.
	HalfLives func() map[string]time.Duration
	// ArchiveBelow archives a fact whose decayed confidence falls below it (default 0.3).
	ArchiveBelow float64
	// KeyFactSignals is how many key-fact signals a statement needs when the user did
	// not ask to remember (default 2).
	KeyFactSignals int
	// MinSimilarity is the cosine a memory found only by vector needs to be offered
	// to the model (default DefaultMinSimilarity).
	MinSimilarity float64
	// MaxProfileItems caps the profile memories offered with every recall (default 8).
	MaxProfileItems int
	// Verifiers give the verifier of a fact's key (the second sign-off before it
	// becomes active); nil: none. It may follow a setting that changes while running.
	Verifiers VerifierSet
	// OnChange is told after every committed change (the app emits memory:changed).
	OnChange func(Change)
	// OnProgress reports background reindex progress.
	OnProgress func(Progress)
	// Logf receives what is dropped or retried; nil discards.
	Logf func(format string, args ...any)
	// NewID makes memory ids; nil makes UUIDv7s.
	NewID func() string
}

// Defaults.
const (
	DefaultLambda        = decay.DefaultLambda // per hour: a half-life of about 35 hours
	DefaultArchiveBelow  = 0.3
	DefaultMinSimilarity = 0.45
)

// Change says what changed, for the UI's "memory updated" notice.
type Change struct {
	Kind      string   `json:"kind"` // added, pending, reinforced, superseded, updated, approved, restored, archived, forgotten, imported, reindexed
	IDs       []string `json:"ids"`
	Profile   string   `json:"profile,omitempty"`
	SessionID string   `json:"session_id,omitempty"`
	MessageID string   `json:"message_id,omitempty"`
}

// AltersText reports whether the change can remove or change the text of memories
// (anything quoting them may now quote something gone); adding, confirming and
// reindexing cannot.
func (c Change) AltersText() bool {
	switch c.Kind {
	case "added", "pending", "reinforced", "imported", "reindexed":
		return false
	}
	return true
}

// Progress reports long background work.
type Progress struct {
	Job   string `json:"job"` // reindex, import
	Done  int    `json:"done"`
	Total int    `json:"total"`
}

// Store is the memory of one database.
type Store struct {
	db  *store.DB
	cfg Config

	// wmu serializes writes so the index follows the database in commit order.
	wmu sync.Mutex
	// imu guards the current embedder and its index.
	imu sync.RWMutex
	emb Embedder
	idx *index
	// pmu guards the policy.
	pmu    sync.RWMutex
	policy Policy

	wake chan struct{}

	// stages are the retrieval stages recall runs (productionStages).
	stages stages

	// words is the full-text index (memories_fts) and its cached counts (for
	// IDF and the common-term rule).
	words *retrieval.Index

	// afterCandidate, when set (tests), runs after each candidate of a job is written;
	// an error stops the job there as a crash would.
	afterCandidate func(jobID int64, candidate int) error
	// afterBatch, when set (tests), runs after each committed batch of a bulk
	// erasure; an error stops the erasure there as a crash would.
	afterBatch func(erasureID string, batch int) error

	// resumed are the receipts of the erasures Open finished.
	resumed []Receipt
}

// Open loads the memory of db: it resumes jobs a crash interrupted, rebuilds the
// vector index from the stored vectors of cfg.Embedder, queues a reindex when
// some memories have no vector from that embedder, and finishes the bulk
// erasures a crash interrupted (Resumed has their receipts; one that fails
// again is logged and tried at the next open).
func Open(ctx context.Context, db *store.DB, cfg Config) (*Store, error) {
	if db == nil {
		return nil, fmt.Errorf("open memory: %w: no database", ErrInvalid)
	}
	if cfg.Embedder == nil {
		cfg.Embedder = embed.NewHashed(0)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	if cfg.ArchiveBelow <= 0 {
		cfg.ArchiveBelow = DefaultArchiveBelow
	}
	if cfg.KeyFactSignals <= 0 {
		cfg.KeyFactSignals = 2
	}
	if cfg.MinSimilarity <= 0 {
		cfg.MinSimilarity = DefaultMinSimilarity
	}
	if cfg.MaxProfileItems <= 0 {
		cfg.MaxProfileItems = 8
	}
	if cfg.NewID == nil {
		cfg.NewID = func() string { return uuid.Must(uuid.NewV7()).String() }
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Models == nil {
		cfg.Models = func() []string { return nil }
	}
	s := &Store{db: db, cfg: cfg, policy: cfg.Policy, wake: make(chan struct{}, 1), stages: productionStages(),
		words: retrieval.NewIndex(db, "memories_fts", `SELECT COUNT(*) FROM memories WHERE status = 'active'`)}
	if _, err := db.ExecContext(ctx, `UPDATE memory_jobs SET state = 'queued' WHERE state = 'running'`); err != nil {
		return nil, fmt.Errorf("open memory: resume jobs: %w", err)
	}
	if err := s.useEmbedder(ctx, cfg.Embedder); err != nil {
		return nil, fmt.Errorf("open memory: %w", err)
	}
	if err := s.finishErasures(ctx); err != nil {
		cfg.Logf("memory: %v", err)
	}
	return s, nil
}

// SetPolicy changes what the user decided in settings.
func (s *Store) SetPolicy(p Policy) {
	s.pmu.Lock()
	s.policy = p
	s.pmu.Unlock()
}

func (s *Store) currentPolicy() Policy {
	s.pmu.RLock()
	defer s.pmu.RUnlock()
	return s.policy
}

// Embedder is the embedder memories and queries use now.
func (s *Store) Embedder() Embedder {
	s.imu.RLock()
	defer s.imu.RUnlock()
	return s.emb
}

func (s *Store) current() (Embedder, *index) {
	s.imu.RLock()
	defer s.imu.RUnlock()
	return s.emb, s.idx
}

func (s *Store) now() time.Time { return s.cfg.Now().UTC() }

func (s *Store) emit(c Change) {
	s.words.Reset() // the index changed: counts and frequencies are looked up again
	if s.cfg.OnChange != nil && len(c.IDs) > 0 {
		s.cfg.OnChange(c)
	}
}

func (s *Store) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func profileOr(p string) string {
	if p == "" {
		return DefaultProfile
	}
	return p
}

// profileOr is p, or the active profile when p is "".
func (s *Store) profileOr(p string) string {
	if p == "" {
		p = ActiveProfile(context.Background(), s.db)
	}
	return profileOr(p)
}

// validProfile accepts short names of letters, digits, '-', '_' and '.'.
func validProfile(p string) error {
	if len(p) == 0 || len(p) > 64 {
		return fmt.Errorf("%w: profile name %q must be 1 to 64 characters", ErrInvalid, p)
	}
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("%w: profile name %q may hold only letters, digits, '-', '_' and '.'", ErrInvalid, p)
		}
	}
	return nil
}
