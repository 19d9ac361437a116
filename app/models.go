package app

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"

	"hermes/backend/config"
	"hermes/backend/llm"
	"hermes/backend/ollamad"
)

// Progress is how far a pull or an import has come (model:progress events).
type Progress = llm.Progress

// ModelDetail is an installed model for the Models panel.
type ModelDetail struct {
	llm.ModelDetail
	ModifiedAt string `json:"modified_at"`
	IsChat     bool   `json:"is_chat"`  // the chat model now
	IsEmbed    bool   `json:"is_embed"` // the embedding model now
}

// Recommendation is a model suggested for this computer.
type Recommendation struct {
	Name   string  `json:"name"`
	Title  string  `json:"title"`
	SizeGB float64 `json:"size_gb"`
	Params string  `json:"params"`
	Why    string  `json:"why"`
}

// SetupState is what the first-run screen shows: what is missing and the next step.
type SetupState struct {
	Ollama      string            `json:"ollama"` // running | stopped | missing | unreachable
	Managed     bool              `json:"managed"`
	Host        string            `json:"host"`
	Version     string            `json:"version"`
	Binary      string            `json:"binary"`
	InstallHint string            `json:"install_hint"` // the command alone, to copy
	InstallNote string            `json:"install_note"` // other ways (offline too)
	OS          string            `json:"os"`           // runtime.GOOS: the UI words the install note for it
	ChatModel   string            `json:"chat_model"`
	ChatReady   bool              `json:"chat_ready"`
	EmbedModel  string            `json:"embed_model"`
	EmbedReady  bool              `json:"embed_ready"`
	Models      []ModelDetail     `json:"models"`
	Recommended []Recommendation  `json:"recommended"`
	MemoryGB    float64           `json:"memory_gb"`
	Problem     string            `json:"problem"` // in English; Code and Params for the UI (app/notice.go)
	Code        string            `json:"code"`
	Params      map[string]string `json:"params"`
	Step        string            `json:"step"` // install | start | reconnect | connect | pull | choose | "" (ready)
	// Connection is the one state of the connection (Conn*, app/connection.go);
	// Remote: ollama_host is not this computer; CanStart: Start Ollama (or Start
	// again) would start one; Exited, Exit and LogTail: the Ollama Hermes started
	// has exited, how, and the end of its log.
	Connection string   `json:"connection"`
	Remote     bool     `json:"remote"`
	CanStart   bool     `json:"can_start"`
	Exited     bool     `json:"exited"`
	Exit       string   `json:"exit"`
	LogTail    []string `json:"log_tail"`
}

// Setup says what stands between the user and a working chat.
func (c *Core) Setup(ctx context.Context) (SetupState, error) {
	s, err := c.settings.Load(ctx)
	if err != nil {
		return SetupState{}, err
	}
	d := c.daemon(s)
	st := d.State(ctx)
	out := SetupState{Ollama: st.Status, Managed: st.Managed, Host: s.OllamaHost, Binary: st.Binary, InstallHint: ollamad.InstallCommand(), InstallNote: ollamad.InstallNote(), OS: runtime.GOOS,
		ChatModel: s.ChatModel, EmbedModel: s.EmbedModel, Models: []ModelDetail{}, MemoryGB: memoryGB()}
	out.Recommended = recommend(out.MemoryGB)
	if c.setupConnection(&out, d, st, s) {
		return out, nil
	}
	client, _, err := c.llmClient(ctx)
	if err != nil {
		return out, err
	}
	out.Version, _ = client.Version(ctx)
	models, err := client.ModelDetails(ctx)
	if err != nil {
		out.Problem, out.Step = fmt.Sprintf("Ollama answers but its models could not be listed: %v", err), "start"
		out.Code, out.Params = NoticeModelsUnlisted, map[string]string{"detail": err.Error()}
		return out, nil
	}
	out.Models = details(models, s)
	for _, m := range out.Models {
		out.ChatReady = out.ChatReady || (m.IsChat && m.Can(llm.CapChat))
		out.EmbedReady = out.EmbedReady || (m.IsEmbed && m.Can(llm.CapEmbedding))
	}
	switch {
	case out.ChatReady:
	case !hasChatModel(models):
		out.Problem, out.Step = "No chat model is installed. Pull one (a download) or import a GGUF file you have.", "pull"
		out.Code = NoticeNoChatModel
	default:
		out.Problem, out.Step = fmt.Sprintf("The chat model %s is not installed; choose one of the installed models, or pull it.", s.ChatModel), "choose"
		out.Code, out.Params = NoticeModelNotInstalled, map[string]string{"model": s.ChatModel, "installed": installedNames(models)}
	}
	return out, nil
}

func hasChatModel(models []llm.ModelDetail) bool {
	for _, m := range models {
		if m.Can(llm.CapChat) {
			return true
		}
	}
	return false
}

// details marks the models' roles under the current settings.
func details(models []llm.ModelDetail, s config.Settings) []ModelDetail {
	out := make([]ModelDetail, 0, len(models))
	for _, m := range models {
		out = append(out, ModelDetail{ModelDetail: m, ModifiedAt: stamp(m.ModifiedAt),
			IsChat: llm.SameModel(m.Name, s.ChatModel), IsEmbed: llm.SameModel(m.Name, s.EmbedModel)})
	}
	return out
}

// recommendations are the chat models the setup may suggest, smallest first (the
// UI words each one's Why by its name: frontend/src/lib/models.svelte.ts).
var recommendations = []Recommendation{
	{"llama3.2:1b", "Llama 3.2 1B", 1.3, "1.2B", "small and quick; for 4–8 GB of memory"},
	{"qwen2.5:1.5b", "Qwen 2.5 1.5B", 1.0, "1.5B", "small, good at Chinese; for 4–8 GB"},
	{"llama3.2", "Llama 3.2 3B", 2.0, "3.2B", "a good default; tools; for 8 GB or more"},
	{"qwen2.5:3b", "Qwen 2.5 3B", 1.9, "3.1B", "English and Chinese; tools; for 8 GB or more"},
	{"llama3.1:8b", "Llama 3.1 8B", 4.9, "8.0B", "better answers; tools; for 16 GB or more"},
	{"qwen2.5:7b", "Qwen 2.5 7B", 4.7, "7.6B", "better answers, strong Chinese; tools; for 16 GB or more"},
}

// recommend suggests chat models that fit in memory, the best fit first.
func recommend(memGB float64) []Recommendation {
	var fit, small []Recommendation
	for _, r := range recommendations {
		switch need := r.SizeGB * 2.5; {
		case memGB == 0 || need <= memGB/2:
			fit = append(fit, r)
		case r.SizeGB < 1.5:
			small = append(small, r)
		}
	}
	// The largest that fits comfortably first.
	for i, j := 0, len(fit)-1; i < j; i, j = i+1, j-1 {
		fit[i], fit[j] = fit[j], fit[i]
	}
	out := append(fit, small...)
	if len(out) > 4 {
		out = out[:4]
	}
	return out
}

// memoryGB is this computer's memory (0 where unknown).
func memoryGB() float64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb float64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return float64(int(kb/1024/1024*10)) / 10
		}
	}
	return 0
}

// UseModel sets the chat model (embed false) or the embedding model; a model
// that cannot do the job is refused.
func (c *Core) UseModel(ctx context.Context, name string, embed bool) error {
	client, _, err := c.llmClient(ctx)
	if err != nil {
		return err
	}
	models, err := client.ModelDetails(ctx)
	if err != nil {
		return err
	}
	key := "chat_model"
	if embed {
		key = "embed_model"
	}
	found, err := fitModel(models, name, embed, key)
	if err != nil {
		return err
	}
	return c.settings.Set(ctx, key, found)
}

// fitModel is name as installed (among models), or why it cannot do the job:
// not installed, or not a chat (embed false) or embedding model.
func fitModel(models []llm.ModelDetail, name string, embed bool, key string) (string, error) {
	var found *llm.ModelDetail
	var names []string
	for i, m := range models {
		names = append(names, m.Name)
		if llm.SameModel(m.Name, name) {
			found = &models[i]
		}
	}
	switch {
	case found == nil:
		installed := strings.Join(names, ", ")
		return "", config.Refuse(key, config.BadNotInstalled, map[string]string{"value": name, "installed": installed},
			"%s is not installed (installed: %s); pull it with `hermes model pull %s`", name, installed, name)
	case embed && !found.Can(llm.CapEmbedding):
		return "", config.Refuse(key, config.BadNotEmbedder, map[string]string{"value": found.Name},
			"%s cannot make embeddings; choose an embedding model such as nomic-embed-text", found.Name)
	case !embed && !found.Can(llm.CapChat):
		return "", config.Refuse(key, config.BadNotChat, map[string]string{"value": found.Name},
			"%s is an embedding model and cannot chat; choose a chat model", found.Name)
	}
	return found.Name, nil
}

// installedNames lists the installed models, comma-separated.
func installedNames(models []llm.ModelDetail) string {
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
