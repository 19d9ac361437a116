package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Verified is what one pass of the verifiers over the inbox did.
type Verified struct {
	Approved []string `json:"approved"` // confirmed by their verifier, now active
	Refuted  []string `json:"refuted"`  // the verifier said no: they wait for the user, with its words
	Failed   []string `json:"failed"`   // the verifier failed: they wait, and are tried again next pass
}

// VerifyRetry is how long a fact whose verifier failed waits before it is asked
// again (an offline verifier is not called on every pass for every fact).
const VerifyRetry = 15 * time.Minute

// VerifyPending is the second sign-off for the inbox: every pending memory whose
// key has a configured verifier (Config.Verifiers) and that waits only for a
// sign-off — inferred by the model, or its verifier failed before — is checked.
// Confirmed, it is approved (superseding what it was to replace); refuted, it
// keeps waiting with the verifier's words (never asked again); a failing verifier
// leaves it waiting with the error, for the next pass. Sensitive items and those
// of other kinds wait for the user whatever a verifier says. The worker runs it
// after new memories are written and at every sweep.
func (s *Store) VerifyPending(ctx context.Context) (Verified, error) {
	var out Verified
	now := s.now()
	if s.cfg.Verifiers == nil {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+memoryCols+` FROM memories m WHERE m.status = 'pending' AND m.key <> '' ORDER BY m.rid`)
	if err != nil {
		return out, fmt.Errorf("verify pending memories: %w", err)
	}
	var todo []Memory
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			rows.Close()
			return out, fmt.Errorf("verify pending memories: %w", err)
		}
		retry := m.Reason == ReasonUnverifiable && now.Sub(m.UpdatedAt) >= VerifyRetry
		if (m.Reason == ReasonInferred || retry) && s.verifier(m.Key) != nil {
			todo = append(todo, m)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("verify pending memories: %w", err)
	}
	for _, m := range todo {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("verify pending memories: %w", err)
		}
		ok, why, verr := s.verifier(m.Key).Verify(ctx, m)
		switch {
		case verr != nil:
			if err := s.noteOn(ctx, m, noteUnverifiable+short(verr.Error())); err != nil {
				return out, err
			}
			out.Failed = append(out.Failed, m.ID)
		case !ok:
			if err := s.noteOn(ctx, m, noteRejected+short(why)); err != nil {
				return out, err
			}
			out.Refuted = append(out.Refuted, m.ID)
		default:
			err := s.Approve(ctx, m.ID)
			if errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound) {
				continue // the user decided meanwhile
			}
			if err != nil {
				return out, fmt.Errorf("verify pending memories: %w", err)
			}
			out.Approved = append(out.Approved, m.ID)
		}
	}
	return out, nil
}

// Verdict is what a verifier tool answers: whether the fact is confirmed, and
// in a few words why (shown in the Inbox when it is not).
type Verdict struct {
	Confirmed *bool  `json:"confirmed"`
	Reason    string `json:"reason,omitempty"`
}

// VerifyArgs are the arguments a verifier tool is called with.
type VerifyArgs struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Text  string `json:"text"`
}

// ParseVerdict reads a verifier tool's answer: a JSON object
// {"confirmed": true|false, "reason": "..."} (as its structured result or as
// its text). Anything else is an error, and the fact keeps waiting.
func ParseVerdict(result json.RawMessage, content string) (ok bool, reason string, err error) {
	var v Verdict
	for _, raw := range [][]byte{result, []byte(strings.TrimSpace(content))} {
		if len(raw) > 0 && json.Unmarshal(raw, &v) == nil && v.Confirmed != nil {
			return *v.Confirmed, v.Reason, nil
		}
	}
	return false, "", fmt.Errorf(`the verifier did not answer {"confirmed": true|false}; it said %q`, short(content))
}

// noteOn says why a pending memory still waits (if it still does).
func (s *Store) noteOn(ctx context.Context, m Memory, note string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE memories SET note = ?, updated_at = ? WHERE rid = ? AND status = 'pending'`, note, ts(s.now()), m.rid)
	if err != nil {
		return fmt.Errorf("verify pending memory %s: %w", m.ID, err)
	}
	if n, _ := res.RowsAffected(); n > 0 && note != m.Note {
		s.emit(Change{Kind: "updated", IDs: []string{m.ID}, Profile: m.Profile})
	}
	return nil
}
