package memory

import (
	"database/sql"
	"encoding/json"
	"strings"
	"time"

	"hermes/backend/memory/decay"
)

// Layer is how long a memory lives and how it is offered.
type Layer string

const (
	// LayerWorking holds facts for one session; they are erased when it is archived.
	LayerWorking Layer = "working"
	// LayerFact holds key facts; they decay unless restated or confirmed.
	LayerFact Layer = "fact"
	// LayerProfile holds the small, user-confirmed long-term profile: no decay,
	// always offered with a recall.
	LayerProfile Layer = "profile"
)

// Status is where a memory is in its life.
type Status string

const (
	StatusPending    Status = "pending"    // waits in the inbox for the user
	StatusActive     Status = "active"     // may be offered to the model
	StatusArchived   Status = "archived"   // decayed: browsable, restorable, not offered
	StatusSuperseded Status = "superseded" // replaced by a newer fact (SupersededBy)
)

// Asserter says who asserted a memory.
type Asserter string

const (
	AssertedByUser  Asserter = "user"  // the user said it
	AssertedByModel Asserter = "model" // the model inferred it
	AssertedByTool  Asserter = "tool"  // the model saved it with the memory tool
)

// Origin says how a memory came in.
type Origin string

const (
	OriginChat   Origin = "chat"   // extracted from a conversation turn
	OriginManual Origin = "manual" // added or edited by the user (UI, CLI)
	OriginImport Origin = "import" // imported from a file
	OriginTool   Origin = "tool"   // saved by the model through the memory tool
)

// Categories are the categories a fact may have; each may decay at its own rate
// (Config.Lambda).
func Categories() []string { return decay.Categories() }

func validCategory(c string) bool { return decay.ValidCategory(c) }

// Memory is one remembered thing.
type Memory struct {
	ID         string   `json:"id"`
	Ref        string   `json:"ref,omitempty"`
	Profile    string   `json:"profile"`
	Layer      Layer    `json:"layer"`
	Status     Status   `json:"status"`
	Key        string   `json:"key,omitempty"`
	Value      string   `json:"value,omitempty"`
	Text       string   `json:"text"`
	Category   string   `json:"category"`
	Confidence float64  `json:"confidence"` // as of LastConfirmedAt
	Strength   float64  `json:"strength"`   // Confidence decayed to now: what recall uses
	AssertedBy Asserter `json:"asserted_by"`
	Origin     Origin   `json:"origin"`
	Sensitive  bool     `json:"sensitive,omitempty"`
	SessionID  string   `json:"session_id,omitempty"`
	// SourceMessageIDs are the messages the memory was stated in.
	SourceMessageIDs []string `json:"source_message_ids"`
	SupersededBy     string   `json:"superseded_by,omitempty"`
	// Replaces are the ids a pending memory supersedes once approved.
	Replaces []string `json:"replaces,omitempty"`
	Note     string   `json:"note,omitempty"`
	// Reason says why a pending memory waits in the inbox (a PendingReason, from
	// Note); ReasonDetail is the verifier's own words, if any.
	Reason          PendingReason `json:"reason,omitempty"`
	ReasonDetail    string        `json:"reason_detail,omitempty"`
	CreatedAt       time.Time     `json:"created_at"`
	UpdatedAt       time.Time     `json:"updated_at"`
	LastConfirmedAt time.Time     `json:"last_confirmed_at"`
	ValidUntil      time.Time     `json:"valid_until,omitzero"`

	rid int64
}

// Offerable reports whether the memory may be offered to the model at now.
func (m Memory) Offerable(now time.Time) bool {
	return m.Status == StatusActive && (m.ValidUntil.IsZero() || m.ValidUntil.After(now))
}

const memoryCols = `m.rid, m.id, COALESCE(m.ref, ''), m.profile, m.layer, m.status, m.key, m.value, m.text, m.category,
	m.confidence, m.asserted_by, m.origin, m.sensitive, COALESCE(m.session_id, ''), m.source_messages,
	COALESCE(m.superseded_by, ''), m.replaces, m.note, m.created_at, m.updated_at, m.last_confirmed_at, COALESCE(m.valid_until, '')`

func scanMemory(row interface{ Scan(...any) error }) (Memory, error) {
	var m Memory
	var sources, replaces, created, updated, confirmed, valid string
	err := row.Scan(&m.rid, &m.ID, &m.Ref, &m.Profile, &m.Layer, &m.Status, &m.Key, &m.Value, &m.Text, &m.Category,
		&m.Confidence, &m.AssertedBy, &m.Origin, &m.Sensitive, &m.SessionID, &sources,
		&m.SupersededBy, &replaces, &m.Note, &created, &updated, &confirmed, &valid)
	if err != nil {
		return m, err
	}
	_ = json.Unmarshal([]byte(sources), &m.SourceMessageIDs)
	_ = json.Unmarshal([]byte(replaces), &m.Replaces)
	if m.SourceMessageIDs == nil {
		m.SourceMessageIDs = []string{}
	}
	m.CreatedAt, m.UpdatedAt, m.LastConfirmedAt = parseTS(created), parseTS(updated), parseTS(confirmed)
	if valid != "" {
		m.ValidUntil = parseTS(valid)
	}
	if m.Status == StatusPending {
		m.Reason, m.ReasonDetail = pendingReason(m.Note)
	}
	return m, nil
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTS(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func nullTS(t time.Time) sql.NullString {
	if t.IsZero() {
		return sql.NullString{}
	}
	return sql.NullString{String: ts(t), Valid: true}
}

func nullStr(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func jsonList(ids []string) string {
	if len(ids) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

// PendingReason is why a memory waits in the inbox; the UI words it.
type PendingReason string

const (
	ReasonSensitive    PendingReason = "sensitive"    // holds personal data
	ReasonInferred     PendingReason = "inferred"     // the model inferred it
	ReasonUnverifiable PendingReason = "unverifiable" // the verifier failed
	ReasonRejected     PendingReason = "rejected"     // the verifier did not confirm it
	ReasonOther        PendingReason = "other"        // a note of another kind (an import)
)

// The notes the write gate keeps with a pending memory (English, for the CLI and
// exports); pendingReason reads the reason back from them.
const (
	noteSensitive    = "holds personal data (phone, email, ID, card or address)"
	noteInferred     = "inferred by the model"
	noteUnverifiable = "could not be verified: "
	noteRejected     = "not verified: "
)

func pendingReason(note string) (PendingReason, string) {
	switch {
	case note == "":
		return "", ""
	case note == noteSensitive:
		return ReasonSensitive, ""
	case note == noteInferred:
		return ReasonInferred, ""
	case strings.HasPrefix(note, noteUnverifiable):
		return ReasonUnverifiable, strings.TrimPrefix(note, noteUnverifiable)
	case strings.HasPrefix(note, noteRejected):
		return ReasonRejected, strings.TrimPrefix(note, noteRejected)
	}
	return ReasonOther, note
}

// short keeps a verifier's words to one line of at most 160 characters.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}
