package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// ChatSettings are one conversation's own settings; a zero field means the
// global setting (Temperature nil: the model's default).
type ChatSettings struct {
	System      string   // system prompt; "" uses the default
	Model       string   // chat model; "" uses chat_model
	Temperature *float64 // 0..2; nil leaves it to the model
	NumCtx      int      // context size asked for; 0 uses context_window
	Think       Think    // "" (the model decides), on, off, low, medium, high
	// Knowledge limits the knowledge base the chat may cite: "" every
	// collection, "[]" none, "[1,3]" those collections (their ids, JSON).
	Knowledge string
}

// Limits of ChatSettings.
const (
	MaxSystemBytes = 16 << 10
	MinNumCtx      = 512
	MaxNumCtx      = 1 << 20 // the context_window setting's bounds
	MaxTemperature = 2.0
	MaxPresetName  = 60
)

// Think is a chat's choice of thinking: the model decides, on, off, or a level
// some models take (llm.ParseThink turns it into what a request carries).
type Think string

// The Think choices, in the order a picker shows them.
const (
	ThinkDefault Think = ""
	ThinkOn      Think = "on"
	ThinkOff     Think = "off"
	ThinkLow     Think = "low"
	ThinkMedium  Think = "medium"
	ThinkHigh    Think = "high"
)

var thinkChoices = []Think{ThinkDefault, ThinkOn, ThinkOff, ThinkLow, ThinkMedium, ThinkHigh}

// Validate checks the settings' own bounds (whether the model is installed is the
// caller's to check). The error says which field is wrong and what to write.
func (c ChatSettings) Validate() error {
	switch {
	case len(c.System) > MaxSystemBytes:
		return fmt.Errorf("%w: system: the system prompt is %d bytes; keep it under %d", ErrInvalid, len(c.System), MaxSystemBytes)
	case !utf8.ValidString(c.System):
		return fmt.Errorf("%w: system: the system prompt is not valid UTF-8 text", ErrInvalid)
	case strings.ContainsAny(c.Model, " \t\r\n"):
		return fmt.Errorf("%w: model: %q is not a model name (no spaces), e.g. llama3.2 or qwen2.5:7b", ErrInvalid, c.Model)
	case c.Temperature != nil && (math.IsNaN(*c.Temperature) || *c.Temperature < 0 || *c.Temperature > MaxTemperature):
		return fmt.Errorf("%w: temperature: %v is out of range; use a number between 0 and 2 (e.g. 0.7)", ErrInvalid, *c.Temperature)
	case c.Knowledge != "" && !validIDList(c.Knowledge):
		return fmt.Errorf("%w: knowledge: %q is not a list of collection ids", ErrInvalid, c.Knowledge)
	case !slices.Contains(thinkChoices, c.Think):
		return fmt.Errorf("%w: think: %q is not a choice; use default, on, off, low, medium or high", ErrInvalid, c.Think)
	case c.NumCtx != 0 && (c.NumCtx < MinNumCtx || c.NumCtx > MaxNumCtx):
		return fmt.Errorf("%w: context: %d is out of range; use between %d and %d tokens (or 0 for the global setting)", ErrInvalid, c.NumCtx, MinNumCtx, MaxNumCtx)
	}
	return nil
}

// ChatSettings returns a session's own settings (zero when it has none).
func (st *Store) ChatSettings(ctx context.Context, sessionID string) (ChatSettings, error) {
	var c ChatSettings
	var temp sql.NullFloat64
	err := st.db.QueryRowContext(ctx, `SELECT system, model, temperature, num_ctx, think, knowledge FROM session_settings WHERE session_id = ?`, sessionID).
		Scan(&c.System, &c.Model, &temp, &c.NumCtx, &c.Think, &c.Knowledge)
	if errors.Is(err, sql.ErrNoRows) {
		return ChatSettings{}, nil
	}
	if err != nil {
		return c, fmt.Errorf("chat settings: %w", err)
	}
	if temp.Valid {
		c.Temperature = &temp.Float64
	}
	return c, nil
}

// SetChatSettings replaces a session's own settings (all zero removes them).
func (st *Store) SetChatSettings(ctx context.Context, sessionID string, c ChatSettings) error {
	c.System, c.Model = strings.TrimSpace(c.System), strings.TrimSpace(c.Model)
	if c.Think = Think(strings.ToLower(strings.TrimSpace(string(c.Think)))); c.Think == "default" {
		c.Think = ""
	}
	if err := c.Validate(); err != nil {
		return err
	}
	s, err := st.Get(ctx, sessionID)
	if err != nil {
		return fmt.Errorf("set chat settings: %w", err)
	}
	return st.db.Tx(ctx, func(tx *sql.Tx) error {
		if c == (ChatSettings{}) {
			_, err := tx.ExecContext(ctx, `DELETE FROM session_settings WHERE session_id = ?`, s.ID)
			return err
		}
		var temp any
		if c.Temperature != nil {
			temp = *c.Temperature
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO session_settings(session_id, system, model, temperature, num_ctx, think, knowledge, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(session_id) DO UPDATE SET system = excluded.system, model = excluded.model,
				temperature = excluded.temperature, num_ctx = excluded.num_ctx, think = excluded.think,
				knowledge = excluded.knowledge, updated_at = excluded.updated_at`,
			s.ID, c.System, c.Model, temp, c.NumCtx, c.Think, c.Knowledge, ts(st.Now()))
		return err
	})
}

// Preset is a saved system prompt.
type Preset struct {
	Name    string
	Text    string
	Builtin bool
}

// Presets lists the saved system prompts, built-in ones first, then by name.
func (st *Store) Presets(ctx context.Context) ([]Preset, error) {
	rows, err := st.db.QueryContext(ctx, `SELECT name, text, builtin FROM system_presets ORDER BY builtin DESC, name COLLATE NOCASE`)
	if err != nil {
		return nil, fmt.Errorf("system presets: %w", err)
	}
	defer rows.Close()
	out := []Preset{}
	for rows.Next() {
		var p Preset
		if err := rows.Scan(&p.Name, &p.Text, &p.Builtin); err != nil {
			return nil, fmt.Errorf("system presets: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Preset returns one saved system prompt by name (case-insensitive).
func (st *Store) Preset(ctx context.Context, name string) (Preset, error) {
	var p Preset
	err := st.db.QueryRowContext(ctx, `SELECT name, text, builtin FROM system_presets WHERE name = ? COLLATE NOCASE`, strings.TrimSpace(name)).
		Scan(&p.Name, &p.Text, &p.Builtin)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("%w: preset %q: no such preset", ErrInvalid, name)
	}
	if err != nil {
		return p, fmt.Errorf("system preset: %w", err)
	}
	return p, nil
}

// SavePreset stores (or replaces) a system prompt under a name.
func (st *Store) SavePreset(ctx context.Context, name, text string) (Preset, error) {
	name, text = strings.TrimSpace(name), strings.TrimSpace(text)
	switch {
	case name == "":
		return Preset{}, fmt.Errorf("%w: name: a preset needs a name", ErrInvalid)
	case utf8.RuneCountInString(name) > MaxPresetName:
		return Preset{}, fmt.Errorf("%w: name: keep a preset's name under %d characters", ErrInvalid, MaxPresetName)
	case text == "":
		return Preset{}, fmt.Errorf("%w: text: the system prompt is empty; write one first", ErrInvalid)
	}
	if err := (ChatSettings{System: text}).Validate(); err != nil {
		return Preset{}, err
	}
	err := st.db.Tx(ctx, func(tx *sql.Tx) error {
		// A name differing only in case replaces the preset it names.
		if _, err := tx.ExecContext(ctx, `DELETE FROM system_presets WHERE name = ? COLLATE NOCASE`, name); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO system_presets(name, text, builtin, updated_at) VALUES (?, ?, 0, ?)`, name, text, ts(st.Now()))
		return err
	})
	if err != nil {
		return Preset{}, fmt.Errorf("save preset: %w", err)
	}
	return Preset{Name: name, Text: text}, nil
}

// DeletePreset removes a saved system prompt.
func (st *Store) DeletePreset(ctx context.Context, name string) error {
	var n int64
	err := st.db.Tx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `DELETE FROM system_presets WHERE name = ? COLLATE NOCASE`, strings.TrimSpace(name))
		if err != nil {
			return err
		}
		n, err = r.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("delete preset: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("%w: preset %q: no such preset", ErrInvalid, name)
	}
	return nil
}

// validIDList is whether s is a JSON list of positive integers ("[]" too).
func validIDList(s string) bool {
	var ids []int64
	if json.Unmarshal([]byte(s), &ids) != nil || ids == nil {
		return false
	}
	for _, id := range ids {
		if id <= 0 {
			return false
		}
	}
	return true
}
