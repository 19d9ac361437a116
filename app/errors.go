package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strconv"
	"strings"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/document"
	"hermes/backend/egress"
	"hermes/backend/kb"
	"hermes/backend/llm"
	"hermes/backend/memory"
	"hermes/backend/ollamad"
	"hermes/backend/session"
	"hermes/backend/store"
)

// Error codes: the one vocabulary of failures the UI is told about. Every error a
// bound method returns reaches the window and the web page with one of them
// (ErrorBody), and the UI words its message by the code in the user's language
// (frontend/src/lib/i18n/en.ts and zh.ts, keys "err.<code>", with the Params named
// there), falling back to the English Message for a code it does not know.
const (
	CodeOllamaUnreachable = "ollama_unreachable" // params: host
	CodeOfflineRefused    = "offline_refused"    // a connection offline_only refused (egress.RefusedError); params: host, part
	CodeModelMissing      = "model_missing"      // params: model
	CodePullOffline       = "pull_offline"       // Ollama cannot reach its model library; params: model
	CodePullUnknown       = "pull_unknown"       // the library has no such model; params: model, models (installed and close, or "")
	CodeOllamaTimeout     = "ollama_timeout"     // params: setting, limit
	CodeOllamaBusy        = "ollama_busy"
	CodeDBBusy            = "db_busy" // params: wait
	CodeDBDamaged         = "db_damaged"
	CodeDBNewer           = "db_newer"
	CodeEmptyMessage      = "empty_message"
	CodeNotFound          = "not_found"
	CodeKBNotFound        = "kb_not_found" // params: detail
	CodeKBExists          = "kb_exists"    // params: detail
	CodeKBNoFolder        = "kb_no_folder" // params: detail
	CodeKBNoPassage       = "kb_no_passage"
	CodeNeedsDesktop      = "needs_desktop"
	CodeInvalidInput      = "invalid_input" // params: detail (the backend's own words)
	CodeConflict          = "conflict"
	CodeUnavailable       = "unavailable"
	CodeCancelled         = "cancelled"
	CodeUnauthorized      = "unauthorized"
	CodeFailed            = "failed"       // params: detail (an operation's own English words)
	CodeInternal          = "internal"     // params: detail
	CodeNotGGUF           = "not_gguf"     // params: file (its name)
	CodeGGUFVersion       = "gguf_version" // params: file, version (a GGUF version Hermes does not read)
	// A GGUF file whose structure is refused (llm.GGUFError); params file, reason
	// (llm.GGUF*), size (bytes), detail (the English), and tensor (tensor_past_end)
	// or limit (too_large).
	CodeGGUFDamaged = "gguf_damaged"
	// A setting's value refused (config.ValueError); params: key, reason (config.Bad*),
	// detail (the English), and the reason's own (value, min, max, choices).
	CodeBadSetting   = "bad_setting"
	CodeModelTooBig  = "model_too_big"      // params: model, and need and free (sizes as Ollama gave them) when it gave both
	CodeOllamaCutOff = "ollama_cut_off"     // params: model
	CodeCannotThink  = "model_cannot_think" // params: model (asked to think; llm.ErrNoThinking)
	CodeCannotSee    = "model_cannot_see"   // params: model, models (those installed that can see; "" for none)
	CodeDiskFull     = "disk_full"          // Ollama's disk (a pull or an import): no params
	// A web-mode request over what its method takes; params: limit (MiB).
	CodeRequestTooBig = "request_too_big"
	// The data dir refused a write (store.DataError): params dir (its folder);
	// data_dir_gone: path (the database file that is gone).
	CodeDataDiskFull = "data_disk_full"
	CodeDataReadOnly = "data_read_only"
	CodeDataDirGone  = "data_dir_gone"
	// An Ollama Hermes started that did not come up (ollamad.StartError): params
	// binary, log, and wait (timeout only).
	CodeOllamaStartTimeout = "ollama_start_timeout"
	CodeOllamaExited       = "ollama_exited"
	CodeOllamaTooOld       = "ollama_too_old" // params: version, need (an import on an Ollama before llm.MinImportVersion)
	// Modelfile text an import cannot use (llm.ModelfileError); params line, word,
	// reason (llm.Modelfile*).
	CodeBadModelfile = "bad_modelfile"
	// A document refused (docError): "doc_" and document.Refused*; params: name, and
	// size and limit (too_big), chars and limit (too_long), detail (not_pdf).
	CodeDocTooBig      = "doc_" + document.RefusedTooBig
	CodeDocTooLong     = "doc_" + document.RefusedTooLong
	CodeDocNotPDF      = "doc_" + document.RefusedNotPDF
	CodeDocNotText     = "doc_" + document.RefusedNotText
	CodeDocNoTextLayer = "doc_" + document.RefusedNoTextLayer
	CodeDocEmpty       = "doc_" + document.RefusedEmpty
	// A file's reader stopped by the parser cage (package cage): limit (memory,
	// time) or detail (reader_failed).
	CodeDocTooMuchMemory = "doc_" + document.RefusedTooMuchMemory
	CodeDocTooSlow       = "doc_" + document.RefusedTooSlow
	CodeDocReaderFailed  = "doc_" + document.RefusedReaderFailed
	// An image refused: not readable as one (params: name, detail), or larger
	// than a reader decodes (params: name, pixels, limit).
	CodeDocNotImage      = "doc_" + document.RefusedNotImage
	CodeDocTooManyPixels = "doc_" + document.RefusedTooManyPixels
)

// UserError is an error whose message is fit to show a user: what went wrong and
// what to do. Error() is the English message (the command line prints it); Code
// and Params let the UI say the same in the user's language.
type UserError struct {
	Message string
	Code    string            // one of the Code* constants; "" is worked out from Err
	Params  map[string]string // the message's variable parts, by the names the UI's strings use
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
	code, params, msg := describe(err, host, model)
	return &UserError{Message: msg, Code: code, Params: params, Err: err}
}

func describe(err error, host, model string) (code string, params map[string]string, msg string) {
	if me := (*llm.ModelError)(nil); errors.As(err, &me) && me.Model != "" {
		model = me.Model // the model that failed: a chat's own, or the last of a fallback chain
	}
	for _, d := range []func(error, string, string) (string, map[string]string, string, bool){
		describeInput, describeOllama, describeModelFile, describeStorage,
	} {
		if code, params, msg, ok := d(err, host, model); ok {
			return code, params, msg
		}
	}
	return CodeInternal, map[string]string{"detail": err.Error()}, "Something went wrong: " + err.Error()
}

// describeInput words what the user gave that cannot be used: an empty
// message, a collection or chat that is gone, an invalid value.
func describeInput(err error, host, model string) (string, map[string]string, string, bool) {
	switch {
	case errors.Is(err, agent.ErrEmptyMessage):
		return CodeEmptyMessage, nil, "Type a message first.", true
	case errors.Is(err, kb.ErrNotFound):
		return CodeKBNotFound, map[string]string{"detail": err.Error()}, "That collection is not in the knowledge base any more.", true
	case errors.Is(err, kb.ErrNoPassage):
		return CodeKBNoPassage, nil, "That passage is no longer in the knowledge base (its file was changed or removed). Ask again to get fresh sources.", true
	case errors.Is(err, ErrNoDesktop):
		return CodeNeedsDesktop, nil, "Only the desktop window can do this. In the browser, type the folder's path instead.", true
	case errors.Is(err, kb.ErrExists):
		return CodeKBExists, map[string]string{"detail": err.Error()}, upperFirst(err.Error()) + ". Choose another name, or remove the other collection first.", true
	case errors.Is(err, kb.ErrNoFolder):
		return CodeKBNoFolder, map[string]string{"detail": err.Error()}, upperFirst(err.Error()) + ". Choose a folder (or a file) that exists on this computer.", true
	case errors.Is(err, session.ErrNotFound):
		return CodeNotFound, nil, "That conversation no longer exists. Start a new chat.", true
	case errors.Is(err, session.ErrInvalid):
		msg := err.Error()
		if i := strings.Index(msg, session.ErrInvalid.Error()+": "); i >= 0 {
			msg = msg[i+len(session.ErrInvalid.Error())+2:]
		}
		msg = strings.ToUpper(msg[:1]) + msg[1:] + "."
		return CodeInvalidInput, map[string]string{"detail": msg}, msg, true
	case errors.Is(err, config.ErrInvalid):
		msg := strings.TrimPrefix(err.Error(), config.ErrInvalid.Error()+": ")
		var ve *config.ValueError
		if errors.As(err, &ve) && ve.Key != "" {
			params := map[string]string{"key": ve.Key, "reason": ve.Reason, "detail": msg}
			maps.Copy(params, ve.Params)
			return CodeBadSetting, params, msg, true
		}
		return CodeInvalidInput, map[string]string{"detail": msg}, msg, true
	}
	return "", nil, "", false
}

// describeOllama words what Ollama (or the way to it) refused or could not do.
func describeOllama(err error, host, model string) (string, map[string]string, string, bool) {
	var se *ollamad.StartError // an Ollama Hermes started that did not come up
	var old *llm.TooOldError
	var ref *egress.RefusedError
	var cs *CannotSeeError
	switch {
	case errors.As(err, &ref) && ref.Offline():
		return CodeOfflineRefused, map[string]string{"host": ref.Host, "part": ref.Part}, ref.Error(), true
	case errors.Is(err, llm.ErrUnreachable):
		return CodeOllamaUnreachable, map[string]string{"host": host},
			fmt.Sprintf("Ollama is not reachable at %s. Start it with `ollama serve` (install Ollama first if needed), or change the host in Settings.", host), true
	case errors.Is(err, llm.ErrModelNotFound):
		return CodeModelMissing, map[string]string{"model": model},
			fmt.Sprintf("Model %s is not installed. Run `hermes model pull %s` (or pull it in the Models panel), or pick another model.", model, model), true
	case errors.Is(err, llm.ErrTimeout):
		setting, limit := "first_token_timeout", ""
		var te *llm.TimeoutError
		if errors.As(err, &te) {
			setting, limit = te.Setting, config.ShortDuration(te.Limit)
		}
		p := map[string]string{"setting": setting, "limit": limit}
		if setting == "token_gap_timeout" {
			return CodeOllamaTimeout, p, fmt.Sprintf("Ollama stopped in the middle of the reply (no new text for %s). Try again; if it keeps happening, raise token_gap_timeout in Settings.", limit), true
		}
		if limit == "" {
			return CodeOllamaTimeout, p, "Ollama stopped responding. Try again; a large model may need a longer first_token_timeout in Settings.", true
		}
		return CodeOllamaTimeout, p, fmt.Sprintf("Ollama sent nothing within %s (a large model can take longer to load). Try again; if it keeps happening, raise %s in Settings.", limit, setting), true
	case errors.Is(err, llm.ErrNoThinking):
		return CodeCannotThink, map[string]string{"model": model},
			fmt.Sprintf("Model %s cannot think. Set Think to Default or Off in this chat's settings (or `--think default` on the command line), or pick a thinking model such as qwen3 or deepseek-r1.", model), true
	case errors.As(err, &cs):
		return CodeCannotSee, map[string]string{"model": cs.Model, "models": strings.Join(cs.Seeing, ", ")}, cs.Error(), true
	case errors.Is(err, llm.ErrBadThink):
		return CodeInvalidInput, map[string]string{"detail": err.Error()}, err.Error(), true
	case errors.Is(err, llm.ErrOverloaded):
		return CodeOllamaBusy, nil, "Ollama is busy with other requests. Try again in a moment.", true
	case errors.Is(err, llm.ErrCutOff):
		return CodeOllamaCutOff, map[string]string{"model": model},
			fmt.Sprintf("Ollama stopped sending the reply from %s before it was complete (it may have crashed or been restarted). Try again.", model), true
	case errors.Is(err, llm.ErrNoMemory):
		const fix = "Close other programs, or choose a smaller model in the Models panel."
		if me := (*llm.MemoryError)(nil); errors.As(err, &me) && me.Need != "" && me.Free != "" {
			return CodeModelTooBig, map[string]string{"model": model, "need": me.Need, "free": me.Free},
				fmt.Sprintf("Model %s needs more memory than is free now (needs %s, %s free). %s", model, me.Need, me.Free, fix), true
		}
		return CodeModelTooBig, map[string]string{"model": model},
			fmt.Sprintf("Model %s needs more memory than is free now. %s", model, fix), true
	case errors.Is(err, llm.ErrDiskFull):
		return CodeDiskFull, nil, "Ollama's disk is full. Free some space (`hermes model rm` removes models you no longer need) and try again.", true
	case errors.As(err, &se):
		params := map[string]string{"binary": se.Binary, "log": se.Log}
		if !se.Exited {
			params["wait"] = config.ShortDuration(se.Wait)
			return CodeOllamaStartTimeout, params, err.Error(), true
		}
		return CodeOllamaExited, params, err.Error(), true
	case errors.As(err, &old):
		return CodeOllamaTooOld, map[string]string{"version": old.Version, "need": old.Need}, err.Error(), true
	}
	return "", nil, "", false
}

// describeModelFile words a model file or Modelfile that cannot be imported.
func describeModelFile(err error, host, model string) (string, map[string]string, string, bool) {
	var mf *llm.ModelfileError
	var ng *llm.NotGGUFError
	var gv *llm.GGUFVersionError
	var gd *llm.GGUFError
	switch {
	case errors.As(err, &ng):
		return CodeNotGGUF, map[string]string{"file": ng.File}, err.Error(), true
	case errors.As(err, &gv):
		return CodeGGUFVersion, map[string]string{"file": gv.File, "version": strconv.FormatUint(uint64(gv.Version), 10)}, err.Error(), true
	case errors.As(err, &gd):
		return CodeGGUFDamaged, ggufParams(gd), err.Error(), true
	case errors.As(err, &mf):
		return CodeBadModelfile, map[string]string{"line": strconv.Itoa(mf.Line), "word": mf.Word, "reason": mf.Reason, "detail": mf.Detail}, mf.Error(), true
	}
	return "", nil, "", false
}

// describeStorage words what the data dir, the database or a stored item did.
func describeStorage(err error, host, model string) (string, map[string]string, string, bool) {
	var de *store.DataError
	switch {
	case errors.As(err, &de):
		code, params, msg := describeDataDir(de)
		return code, params, msg, true
	case errors.Is(err, store.ErrNotDatabase):
		return CodeDBDamaged, map[string]string{"detail": err.Error()}, err.Error(), true
	case errors.Is(err, store.ErrNewerSchema):
		return CodeDBNewer, map[string]string{"detail": err.Error()}, err.Error(), true
	case store.IsBusy(err):
		return CodeDBBusy, map[string]string{"wait": store.BusyTimeout.String()},
			fmt.Sprintf("Another Hermes process kept the database busy for more than %s (a long import or forget?). Nothing was changed; try again when it has finished.", store.BusyTimeout), true
	case errors.Is(err, memory.ErrNotFound):
		return CodeNotFound, nil, "That memory no longer exists.", true
	case errors.Is(err, ErrJobCancelled):
		return CodeCancelled, nil, "Cancelled.", true
	}
	return "", nil, "", false
}

// ggufParams are the parts of a refused GGUF file's message.
func ggufParams(e *llm.GGUFError) map[string]string {
	p := map[string]string{"file": e.File, "reason": e.Reason, "size": strconv.FormatInt(e.Size, 10), "detail": e.Detail}
	if e.Tensor != "" {
		p["tensor"] = e.Tensor
	}
	if e.Limit != "" {
		p["limit"] = e.Limit
	}
	return p
}

// opError is an operation's failure in its own (English) words, with the code
// and parts describe gives its cause (host and model fill them in), or as
// CodeFailed when the cause has none.
func opError(err error, host, model string) error {
	if code, params, _ := describe(err, host, model); code != CodeInternal {
		return &UserError{Message: err.Error(), Code: code, Params: params, Err: err}
	}
	return &UserError{Message: err.Error(), Err: err}
}

// ErrorCode is err's code from the vocabulary above: a UserError's own, else the
// one its cause maps to (CodeInternal when nothing more is known).
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var ue *UserError
	if errors.As(err, &ue) && ue.Code != "" {
		return ue.Code
	}
	cause := err
	if ue != nil {
		if ue.Err == nil {
			// A hand-written message without a cause: the request was refused as asked.
			return CodeInvalidInput
		}
		cause = ue.Err
	}
	if IsBadInput(cause) || IsMemoryBadInput(cause) || errors.Is(cause, ErrInvalid) {
		return CodeInvalidInput
	}
	code, _, _ := describe(cause, "", "")
	if code == CodeInternal && ue != nil {
		return CodeFailed // worded for the user already, by the operation that failed
	}
	return code
}

// ErrorBody is what the UI receives for a failed call, in the desktop window (the
// Wails binding's ErrorFormatter) and in web mode (the JSON body) alike.
type ErrorBody struct {
	Error  string            `json:"error"` // the English message, as the command line prints it
	Code   string            `json:"code"`
	Params map[string]string `json:"params,omitempty"`
}

// userErr is err as the user reads it, with the Ollama address and chat
// model of the settings (nil stays nil).
func (c *Core) userErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	s, _ := c.settings.Load(ctx)
	return userError(err, s.OllamaHost, s.ChatModel)
}

// FormatError turns an error a bound method returned into the ErrorBody the UI
// gets; it is the Wails ErrorFormatter of the window.
func FormatError(err error) any { return errorBody(err) }

func errorBody(err error) ErrorBody {
	b := ErrorBody{Error: err.Error(), Code: ErrorCode(err)}
	var ue *UserError
	if errors.As(err, &ue) && len(ue.Params) > 0 {
		b.Params = ue.Params
	} else if b.Code == CodeInvalidInput || b.Code == CodeFailed || b.Code == CodeInternal {
		b.Params = map[string]string{"detail": err.Error()}
	}
	return b
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
	return errors.Is(err, config.ErrInvalid) || errors.Is(err, session.ErrInvalid) || errors.Is(err, agent.ErrEmptyMessage) ||
		errors.Is(err, document.ErrUnsupported) || errors.Is(err, document.ErrTooLarge) || errors.Is(err, document.ErrNoText) ||
		errors.Is(err, llm.ErrNotGGUF) || errors.Is(err, llm.ErrModelfile) || errors.Is(err, ErrCannotSee)
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

// IsKBMissing reports whether err names a collection that does not exist.
func IsKBMissing(err error) bool { return errors.Is(err, kb.ErrNotFound) }

// IsKBBadInput reports whether err is a knowledge-base request refused: a
// folder that is not there, a name or folder already added, an empty query.
func IsKBBadInput(err error) bool {
	return errors.Is(err, kb.ErrExists) || errors.Is(err, kb.ErrNoFolder) || errors.Is(err, kb.ErrEmptyQuery) ||
		errors.Is(err, kb.ErrBadExport)
}

// IsMemoryBadInput reports whether err is a memory request being refused (text
// that breaks a rule, an unknown profile, a bad import line): exit 2.
func IsMemoryBadInput(err error) bool {
	var le *memory.LineError
	return errors.Is(err, memory.ErrInvalid) || errors.As(err, &le)
}

// explainError words a failed reply's error as the chat keeps and shows it: the
// English message, its code and parameters (the same mapping as every other error).
func (c *Core) explainError(ctx context.Context, err error) (string, string, map[string]string) {
	s, _ := c.settings.Load(ctx)
	code, params, msg := describe(err, s.OllamaHost, s.ChatModel)
	return msg, code, params
}

// describeDataDir words a write the data dir refused.
func describeDataDir(de *store.DataError) (string, map[string]string, string) {
	dir := filepath.Dir(de.Path)
	switch de.Kind {
	case store.ErrDiskFull:
		return CodeDataDiskFull, map[string]string{"dir": dir},
			fmt.Sprintf("The disk holding Hermes's data (%s) is full: free some space there. A reply already shown is kept while Hermes runs and saved once there is room; copy it if you close Hermes first.", dir)
	case store.ErrReadOnly:
		return CodeDataReadOnly, map[string]string{"dir": dir},
			fmt.Sprintf("Hermes cannot write to its data folder (%s) any more: it became read-only. Make it writable, or restart Hermes with another --data-dir. A reply already shown is kept while Hermes runs; copy it if you close Hermes first.", dir)
	}
	return CodeDataDirGone, map[string]string{"path": de.Path},
		fmt.Sprintf("Hermes's data folder was deleted or moved while it ran (%s is not there any more). Restart Hermes to start a new one there, or put the folder back from a backup.", de.Path)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}
