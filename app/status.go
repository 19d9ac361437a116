package app

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"hermes/backend/egress"
	"hermes/backend/llm"
)

// Status checks Ollama and the chosen model, and says what to do about any problem.
func (a *SettingsService) Status() (Status, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return a.core.Status(ctx)
}

// Status is shared by the UI and `hermes doctor`.
func (c *Core) Status(ctx context.Context) (Status, error) {
	client, s, err := c.llmClient(ctx)
	if err != nil {
		return Status{}, userError(err, "", "")
	}
	h := client.Check(ctx)
	st := Status{Host: s.OllamaHost, Reachable: h.Reachable, Version: h.Version, Model: s.ChatModel,
		Warnings: []Notice{}, Models: []string{}, DataDir: c.dataDir}
	for _, w := range h.Warnings {
		st.Warnings = append(st.Warnings, Notice{Code: w.Code, Params: w.Params, Text: w.Text})
	}
	for _, m := range h.Models {
		st.Models = append(st.Models, m.Name)
		if sameModel(m.Name, s.ChatModel) {
			st.ModelAvailable = true
		}
	}
	sort.Strings(st.Models)
	// The classifier loading (ONNX Runtime, 80 ms and more) is not waited for: the
	// window's first Status ends its start (UIReady), and the next poll tells a problem.
	if done, err := c.intent.settled(); done {
		st.IntentProblem, st.IntentFix, st.IntentCode, st.IntentParams = c.intentNotice(err)
	}
	os, osErr := c.OllamaState(ctx)
	if osErr == nil {
		st.OllamaManaged = os.Managed
		st.Connection = c.connection(os, s.OllamaHost)
	}
	var ref *egress.RefusedError
	if !h.Reachable && !errors.As(h.Err, &ref) {
		ref = c.refusal(s.OllamaHost) // the llm client's words keep only offline_only's refusal
	}
	switch {
	case !h.Reachable && ref != nil && !ref.Offline():
		st.Problem = ref.Error() + "."
		st.Fix = "Use an Ollama on this computer or the local network, or allow an internet one: `hermes settings set ollama_allow_internet true` (Settings → Connection)."
		st.Code, st.Params = refusedNotice(ref, s.OllamaHost)
	case !h.Reachable && ref != nil && ref.Offline():
		st.Problem = fmt.Sprintf("Ollama at %s is not on this computer, and offline_only is on.", s.OllamaHost)
		st.Fix = "Use an Ollama on this computer (ollama_host http://127.0.0.1:11434), or turn offline_only off in Settings."
		st.Code, st.Params = NoticeOfflineRefused, map[string]string{"host": s.OllamaHost}
	case !h.Reachable && h.Err != nil && !errors.Is(h.Err, llm.ErrUnreachable):
		st.Problem = fmt.Sprintf("Ollama at %s answered with an error: %v.", s.OllamaHost, h.Err)
		st.Fix = "Check the Ollama server's log, or change the host in Settings."
		st.Code, st.Params = NoticeOllamaError, map[string]string{"host": s.OllamaHost, "detail": h.Err.Error()}
	case !h.Reachable:
		st.Problem = fmt.Sprintf("Ollama is not reachable at %s.", s.OllamaHost)
		st.Fix = "Start it with `ollama serve` (install Ollama first if needed), or change the host in Settings."
		st.Code, st.Params = NoticeOllamaUnreachable, map[string]string{"host": s.OllamaHost}
		if osErr == nil && os.Hint != "" {
			st.Fix = os.Hint
			st.Code, st.Params = ollamaNotice(os, s)
		}
	case h.Err != nil:
		st.Problem = fmt.Sprintf("Could not list Ollama's models: %v.", h.Err)
		st.Fix = "Check the Ollama server's log."
		st.Code, st.Params = NoticeModelsUnlisted, map[string]string{"detail": h.Err.Error()}
	case !st.ModelAvailable && len(st.Models) == 0:
		st.Problem = fmt.Sprintf("Model %s is not installed, and no model is.", s.ChatModel)
		st.Fix = fmt.Sprintf("Run `hermes model pull %s`, or `hermes model import FILE.gguf --name NAME` for a file you have.", s.ChatModel)
		st.Code, st.Params = NoticeNoModels, map[string]string{"model": s.ChatModel}
	case !st.ModelAvailable:
		installed := strings.Join(st.Models, ", ")
		st.Problem = fmt.Sprintf("Model %s is not installed (installed: %s).", s.ChatModel, installed)
		st.Fix = fmt.Sprintf("Run `hermes model pull %s`, or choose an installed chat model: `hermes model use NAME`.", s.ChatModel)
		st.Code, st.Params = NoticeModelNotInstalled, map[string]string{"model": s.ChatModel, "installed": installed}
	}
	return st, nil
}

// sameModel treats "llama3.2" and "llama3.2:latest" as one.
func sameModel(installed, wanted string) bool {
	return installed == wanted || strings.TrimSuffix(installed, ":latest") == strings.TrimSuffix(wanted, ":latest")
}
