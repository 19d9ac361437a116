package app

import (
	"errors"
	"fmt"
	"strings"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/llm"
	"hermes/backend/memory"
	"hermes/backend/session"
	"hermes/backend/store"
)

// UserError is an error whose message is fit to show a user: what went wrong and what to do.
type UserError struct {
	Message string
	Err     error
}

func (e *UserError) Error() string { return e.Message }
func (e *UserError) Unwrap() error { return e.Err }

// userError maps backend errors to user messages, in one place.
func userError(err error, host, model string) error {
	if err == nil {
		return nil
	}
	var ue *UserError
	if errors.As(err, &ue) {
		return err
	}
	msg := describe(err, host, model)
	return &UserError{Message: msg, Err: err}
}

func describe(err error, host, model string) string {
	switch {
	case errors.Is(err, agent.ErrEmptyMessage):
		return "Type a message first."
	case errors.Is(err, session.ErrNotFound):
		return "That conversation no longer exists. Start a new chat."
	case errors.Is(err, session.ErrInvalid):
		msg := err.Error()
		if i := strings.Index(msg, session.ErrInvalid.Error()+": "); i >= 0 {
			msg = msg[i+len(session.ErrInvalid.Error())+2:]
		}
		return strings.ToUpper(msg[:1]) + msg[1:] + "."
	case errors.Is(err, config.ErrInvalid):
		return strings.TrimPrefix(err.Error(), config.ErrInvalid.Error()+": ")
	case errors.Is(err, llm.ErrUnreachable):
		return fmt.Sprintf("Ollama is not reachable at %s. Start it with `ollama serve` (install Ollama first if needed), or change the host in Settings.", host)
	case errors.Is(err, llm.ErrModelNotFound):
		return fmt.Sprintf("Model %s is not installed. Run `hermes model pull %s` (or pull it in the Models panel), or pick another model.", model, model)
	case errors.Is(err, llm.ErrTimeout):
		return fmt.Sprintf("Ollama stopped responding (%v). Try again; a large model may need a longer first_token_timeout in Settings.", cause(err))
	case errors.Is(err, llm.ErrOverloaded):
		return "Ollama is busy with other requests. Try again in a moment."
	case errors.Is(err, store.ErrNotDatabase), errors.Is(err, store.ErrNewerSchema):
		return err.Error()
	case store.IsBusy(err):
		return fmt.Sprintf("Another Hermes process kept the database busy for more than %s (a long import or forget?). Nothing was changed; try again when it has finished.", store.BusyTimeout)
	}
	return "Something went wrong: " + err.Error()
}

func cause(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

// IsBadInput reports whether err is the user's input being refused (exit 2 on
// the command line), as opposed to a failure to do what was asked (exit 1).
func IsBadInput(err error) bool {
	return errors.Is(err, config.ErrInvalid) || errors.Is(err, session.ErrInvalid) || errors.Is(err, agent.ErrEmptyMessage)
}

// DescribeError turns a backend error into one a user can act on.
func DescribeError(err error, host, model string) error { return userError(err, host, model) }

// ErrInvalid marks input the service refused (a file that is not what the
// command reads); errors.Is(err, ErrInvalid) tells it, and the message is the
// backend's own, which names the line and field.
var ErrInvalid = errors.New("invalid input")

// invalidError marks err as ErrInvalid and keeps its message.
type invalidError struct{ err error }

func (e invalidError) Error() string        { return e.err.Error() }
func (e invalidError) Unwrap() error        { return e.err }
func (e invalidError) Is(target error) bool { return target == ErrInvalid }

func invalid(err error) error { return invalidError{err} }

// IsNotFound reports whether err is a conversation, message or memory that does
// not exist (the command line then says what to list).
func IsNotFound(err error) bool {
	return errors.Is(err, session.ErrNotFound) || errors.Is(err, memory.ErrNotFound)
}

// IsMemoryBadInput reports whether err is a memory request being refused (text
// that breaks a rule, an unknown profile, a bad import line): exit 2.
func IsMemoryBadInput(err error) bool {
	var le *memory.LineError
	return errors.Is(err, memory.ErrInvalid) || errors.As(err, &le)
}
