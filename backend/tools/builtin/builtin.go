// Package builtin holds the tools Hermes always has: the current date and time,
// a calculator, unit conversion and a search over past sessions.
package builtin

import (
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
		if err := reg.Register(t, tools.WithOwnSchemas()); err != nil {
			return fmt.Errorf("register built-in tools: %w", err)
		}
	}
	return nil
}
