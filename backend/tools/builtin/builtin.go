// Package builtin holds the tools Hermes always has: the current date and time,
// a calculator, unit conversion and a search over past sessions.
package builtin

import (
	"encoding/json"
	"fmt"
	"time"

	"hermes/backend/tools"
)

// Deps are what the built-in tools need from the rest of the program.
type Deps struct {
	// Now is the clock of current_time; nil means time.Now.
	Now func() time.Time
	// Location is the user's time zone when a call names none; nil means time.Local.
	Location *time.Location
	// Search backs session_search; nil leaves the tool out.
	Search SearchFunc
}

// Register adds the built-in tools to reg.
func Register(reg *tools.Registry, d Deps) error {
	ts := []tools.Tool{NewClock(d.Now, d.Location), Calculator{}, Converter{}}
	if d.Search != nil {
		ts = append(ts, NewSessionSearch(d.Search))
	}
	for _, t := range ts {
		if err := reg.Register(t); err != nil {
			return fmt.Errorf("register built-in tools: %w", err)
		}
	}
	return nil
}

// decode unmarshals validated arguments into v.
func decode(op string, args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return fmt.Errorf("%s: read arguments: %w", op, err)
	}
	return nil
}

// encode marshals a result.
func encode(op string, v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s: encode result: %w", op, err)
	}
	return b, nil
}
