package llm

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/ollama/ollama/api"
)

// ErrNoThinking is a request that asked a model to think that cannot (Ollama's
// 400 "… does not support thinking").
var ErrNoThinking = errors.New("the model cannot think")

// ErrBadThink is a Think value ParseThink does not read (a chat keeps one of
// session's Think choices).
var ErrBadThink = errors.New(`think must be one of default, on, off, low, medium, high`)

// ParseThink turns a Think setting into what the request carries: nil for the
// model's own choice ("" or "default"), true or false for on and off, a level
// for low, medium and high.
func ParseThink(v string) (*api.ThinkValue, error) {
	switch s := strings.ToLower(strings.TrimSpace(v)); s {
	case "", "default":
		return nil, nil
	case "on", "true", "yes":
		return &api.ThinkValue{Value: true}, nil
	case "off", "false", "no":
		return &api.ThinkValue{Value: false}, nil
	case "low", "medium", "high":
		return &api.ThinkValue{Value: s}, nil
	}
	return nil, fmt.Errorf("%w (not %q)", ErrBadThink, v)
}

// noThinkSupport: Ollama refused the request because the model cannot think.
func noThinkSupport(err error) bool {
	var se api.StatusError
	return errors.As(err, &se) && se.StatusCode == http.StatusBadRequest && strings.Contains(se.ErrorMessage, "does not support thinking")
}
