package app

import (
	"hermes/backend/config"
	"hermes/backend/llm"
	"hermes/backend/ollamad"
)

// Notice codes: the one vocabulary of what the status bar, the setup guide and the banners
// say about the setup. Beside each English sentence the backend sends (Status.Problem and
// Fix, Status.IntentProblem and IntentFix, SetupState.Problem, a warning's Text) goes its
// code and params, and the UI words it by the code in the user's language
// (frontend/src/lib/notices.ts, keys "notice.<code>" and "notice.<code>.fix", with the params
// named here), falling back to the English for a code it does not know. The command line
// prints the English.
const (
	NoticeOllamaMissing     = "ollama_missing"        // no ollama program found; params: host, command
	NoticeOllamaPathBad     = "ollama_path_bad"       // ollama_path is not a program; params: host, path
	NoticeOllamaStopped     = "ollama_stopped"        // found, not running, Hermes may start it; params: host, binary
	NoticeOllamaManual      = "ollama_stopped_manual" // found, not running, manage_ollama is never; params: host, binary
	NoticeOllamaRemoteDown  = "ollama_remote_down"    // nothing answers at a host that is not this computer; params: host
	NoticeOllamaUnreachable = "ollama_unreachable"    // nothing answers, no more known; params: host
	NoticeOllamaLost        = "ollama_lost"           // it answered before at this computer's host, not now; params: host, binary ("" when Hermes cannot start it)
	NoticeOllamaRefused     = "ollama_refused"        // Hermes's rules refuse the host; params: host, reason (egress.ReasonInternet or ReasonNever)
	NoticeOllamaError       = "ollama_error"          // it answered with an error; params: host, detail
	NoticeOfflineRefused    = "offline_refused"       // the host is not this computer and offline_only is on; params: host
	NoticeModelsUnlisted    = "models_unlisted"       // the models could not be listed; params: detail
	NoticeNoModels          = "no_models"             // no model at all; params: model (the chat model setting)
	NoticeNoChatModel       = "no_chat_model"         // models, none of which can chat
	NoticeModelNotInstalled = "model_not_installed"   // params: model, installed (comma-separated)
	NoticeIntentNoLibrary   = "intent_no_library"     // params: detail
	NoticeIntentBadModel    = "intent_bad_model"      // params: detail, dir
	NoticeIntentFailed      = "intent_failed"         // params: detail
	NoticeHostNotLoopback   = llm.WarnNotLoopback     // params: host
	NoticeOllamaOld         = llm.WarnOldVersion      // params: version, min
)

// Notice is a warning by code, with its params and its English text.
type Notice struct {
	Code   string            `json:"code"`
	Params map[string]string `json:"params,omitempty"`
	Text   string            `json:"text"`
}

// ollamaNotice is the code and params for an Ollama that does not answer, from what the
// supervisor found: one rule for the status bar and the setup guide.
func ollamaNotice(st ollamad.State, s config.Settings) (string, map[string]string) {
	host := s.OllamaHost
	switch {
	case st.Status == ollamad.Missing && s.OllamaPath != "":
		return NoticeOllamaPathBad, map[string]string{"host": host, "path": s.OllamaPath}
	case st.Status == ollamad.Missing:
		return NoticeOllamaMissing, map[string]string{"host": host, "command": ollamad.InstallCommand()}
	case st.Status == ollamad.Stopped && s.ManageOllama == "never":
		return NoticeOllamaManual, map[string]string{"host": host, "binary": st.Binary}
	case st.Status == ollamad.Stopped:
		return NoticeOllamaStopped, map[string]string{"host": host, "binary": st.Binary}
	case st.Status == ollamad.Unreachable:
		return NoticeOllamaRemoteDown, map[string]string{"host": host}
	case st.Status == ollamad.Lost:
		bin := st.Binary
		if s.ManageOllama == "never" {
			bin = ""
		}
		return NoticeOllamaLost, map[string]string{"host": host, "binary": bin}
	}
	return NoticeOllamaUnreachable, map[string]string{"host": host}
}
