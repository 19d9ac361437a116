package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// MainChannel is a conversation's own channel; a sub-agent's messages are in a
// channel named after it.
const MainChannel = "main"

// InChannel reports whether m is in channel ("" counts as main).
func InChannel(m Message, channel string) bool {
	if m.Channel == "" {
		return channel == MainChannel || channel == ""
	}
	return m.Channel == channel
}

// ChannelOnly keeps the messages of one channel, in order.
func ChannelOnly(msgs []Message, channel string) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if InChannel(m, channel) {
			out = append(out, m)
		}
	}
	return out
}

// Channels lists the channels that have messages, main first.
func Channels(msgs []Message) []string {
	out := []string{MainChannel}
	seen := map[string]bool{MainChannel: true}
	for _, m := range msgs {
		if c := m.Channel; c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// ChannelSummary is the rolling summary of a channel and the last message seq it
// covers (the main channel's is the session's own).
func (st *Store) ChannelSummary(ctx context.Context, sessionID, channel string) (string, int, error) {
	if channel == "" || channel == MainChannel {
		s, err := st.Get(ctx, sessionID)
		return s.Summary, s.SummaryUpto, err
	}
	var summary string
	var upto int
	err := st.db.QueryRowContext(ctx, `SELECT summary, upto FROM channel_summaries WHERE session_id = ? AND channel = ?`,
		sessionID, channel).Scan(&summary, &upto)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("read summary of channel %s: %w", channel, err)
	}
	return summary, upto, nil
}

// SetChannelSummary stores a channel's rolling summary.
func (st *Store) SetChannelSummary(ctx context.Context, sessionID, channel, summary, kind string, upto int) error {
	if channel == "" || channel == MainChannel {
		return st.SetSummary(ctx, sessionID, summary, kind, upto)
	}
	_, err := st.db.ExecContext(ctx, `INSERT INTO channel_summaries(session_id, channel, summary, kind, upto) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT(session_id, channel) DO UPDATE SET summary = excluded.summary, kind = excluded.kind, upto = excluded.upto`,
		sessionID, channel, summary, kind, upto)
	if err != nil {
		return fmt.Errorf("store summary of channel %s: %w", channel, err)
	}
	return nil
}

// channelSummaryTexts are the summaries of a session's sub-agent channels (what a
// deletion must leave no trace of).
func channelSummaryTexts(ctx context.Context, tx *sql.Tx, sessionID string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT summary FROM channel_summaries WHERE session_id = ?`, sessionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Links are the keys of a message's details that tie it to others: a tool
// message's call id, and the delegation (the main model's call of a sub-agent)
// a sub-agent's message belongs to. Whoever writes details embeds Links, so the
// keys are named here once.
type Links struct {
	CallID     string `json:"callId,omitempty"`
	Delegation string `json:"delegation,omitempty"`
}

// LinksOf reads a message's links from its details (empty for none).
func LinksOf(m Message) Links {
	var l Links
	if m.Details != "" && json.Unmarshal([]byte(m.Details), &l) != nil {
		return Links{}
	}
	return l
}

// DelegationOf is the delegation a sub-agent's message belongs to ("" for none).
func DelegationOf(m Message) string { return LinksOf(m).Delegation }

// callID is a tool message's call id ("" for none).
func callID(m Message) string {
	if m.Role != "tool" {
		return ""
	}
	return LinksOf(m).CallID
}
