package app

import (
	"context"
	"errors"
	"fmt"
	"hermes/backend/text"
	"strings"
	"time"

	"hermes/backend/llm"
)

// ModelsService is the models and the Ollama they run in as the window and web
// mode call them (the setup, the Models panel, the picker, the server's
// address): one bound service of its own beside App.
//
//bindgen:bound
type ModelsService struct {
	core *Core
	desk *desktopHooks
	reqs *inflight // a pull or an import runs as a request the page can stop
	emit func(name string, data any)
}

// Setup says what stands between the user and a working chat, and the next step.
func (a *ModelsService) Setup() (SetupState, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := a.core.Setup(ctx)
	if err != nil {
		return SetupState{}, a.core.userErr(ctx, err)
	}
	return st, nil
}

// StartOllama starts the local Ollama (when it may) and returns the new state.
func (a *ModelsService) StartOllama() (SetupState, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := a.core.EnsureOllama(ctx); err != nil {
		s, _ := a.core.settings.Load(ctx)
		return SetupState{}, opError(err, s.OllamaHost, "")
	}
	return a.setupChanged(ctx)
}

// setupChanged tells the UI the new setup state after a change.
func (a *ModelsService) setupChanged(ctx context.Context) (SetupState, error) {
	st, err := a.core.Setup(ctx)
	if err != nil {
		return SetupState{}, a.core.userErr(ctx, err)
	}
	send(a.emit, evSetupChanged, st)
	return st, nil
}

// ListModelDetails lists the installed models with what each can do.
func (a *ModelsService) ListModelDetails() ([]ModelDetail, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client, s, err := a.core.llmClient(ctx)
	if err != nil {
		return nil, a.core.userErr(ctx, err)
	}
	models, err := client.ModelDetails(ctx)
	if err != nil {
		return nil, a.core.userErr(ctx, err)
	}
	return details(models, s), nil
}

// PullModel downloads a model, with model:progress:<requestID> events;
// CancelModelJob stops it.
func (a *ModelsService) PullModel(requestID, name string) (ModelDetail, error) {
	name = strings.TrimSpace(name)
	err := a.modelJob(requestID, func(ctx context.Context, progress func(llm.Progress) error) error {
		client, _, err := a.core.llmClient(ctx)
		if err != nil {
			return err
		}
		return client.Pull(ctx, name, progress)
	})
	return a.finishModelJob(name, err)
}

// ImportModel makes a model from a GGUF file on this computer, offline, with
// model:progress:<requestID> events; CancelModelJob stops it.
func (a *ModelsService) ImportModel(requestID, path, name, modelfile string) (ModelDetail, error) {
	name = strings.TrimSpace(name)
	err := a.modelJob(requestID, func(ctx context.Context, progress func(llm.Progress) error) error {
		client, _, err := a.core.llmClient(ctx)
		if err != nil {
			return err
		}
		return client.ImportGGUF(ctx, strings.TrimSpace(path), name, modelfile, progress)
	})
	return a.finishModelJob(name, err)
}

// finishModelJob returns the new model and tells the UI the setup changed.
func (a *ModelsService) finishModelJob(name string, err error) (ModelDetail, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err != nil {
		var ue *UserError
		if errors.As(err, &ue) {
			return ModelDetail{}, err
		}
		return ModelDetail{}, a.modelErr(ctx, name, err)
	}
	st, _ := a.setupChanged(ctx)
	for _, m := range st.Models {
		if llm.SameModel(m.Name, name) {
			return m, nil
		}
	}
	return ModelDetail{ModelDetail: llm.ModelDetail{Name: name}}, nil
}

// modelErr is a failed model operation on name: the backend's message, which
// already says what to do (and may start with a file name, so it is not
// capitalised; the command line prints it), with the code and parts the UI
// words it by (opError: Ollama gone, busy or slow, its disk full, too old, a
// Modelfile refused, …), or the model unknown (not_found: a delete or copy of a
// model that is not there, not a pull).
func (a *ModelsService) modelErr(ctx context.Context, name string, err error) error {
	switch {
	case errors.Is(err, llm.ErrModelNotFound):
		return &UserError{Message: err.Error(), Code: CodeNotFound, Params: map[string]string{"model": name}, Err: err}
	case errors.Is(err, llm.ErrLibraryOffline):
		return &UserError{Code: CodePullOffline, Params: map[string]string{"model": name}, Err: err,
			Message: "Ollama cannot reach its model library from this computer: import a GGUF file instead (`hermes model import FILE --name NAME`, or Import in the Models panel), or pull again once it is online."}
	case errors.Is(err, llm.ErrNotInLibrary):
		near := strings.Join(a.installedNear(name), ", ")
		msg := fmt.Sprintf("Ollama's model library has no model named %s: check the name (such as llama3.2 or qwen2.5:7b).", name)
		if near != "" {
			msg += " Installed here, with a name close to it: " + near + "."
		}
		return &UserError{Code: CodePullUnknown, Params: map[string]string{"model": name, "models": near}, Err: err, Message: msg}
	}
	s, _ := a.core.settings.Load(ctx)
	return opError(err, s.OllamaHost, name)
}

// installedNear are the installed models whose name (without its tag) is at
// most two edits from name's, or starts with it: what the user may have meant.
func (a *ModelsService) installedNear(name string) []string {
	models, err := a.ListModelDetails()
	if err != nil {
		return nil
	}
	base := func(n string) string { b, _, _ := strings.Cut(strings.ToLower(n), ":"); return b }
	want := base(name)
	var out []string
	for _, m := range models {
		if b := base(m.Name); want != "" && (text.EditDistance(b, want) <= 2 || strings.HasPrefix(b, want)) {
			out = append(out, strings.TrimSuffix(m.Name, ":latest"))
		}
	}
	return out
}

// CancelModelJob stops a running PullModel or ImportModel.
func (a *ModelsService) CancelModelJob(requestID string) error {
	a.reqs.cancel(requestID)
	return nil
}

// PickModelFile asks for a GGUF file (desktop only; web mode types the path).
func (a *ModelsService) PickModelFile() (string, error) {
	if a.desk.openDialog == nil {
		return "", &UserError{Message: "Type the path of the .gguf file on this computer."}
	}
	return a.desk.openDialog("Import a GGUF model file", "*.gguf")
}

// DeleteModel removes an installed model (the UI confirms first).
func (a *ModelsService) DeleteModel(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, _, err := a.core.llmClient(ctx)
	if err == nil {
		err = client.Delete(ctx, name)
	}
	if err != nil {
		return a.modelErr(ctx, name, err)
	}
	_, _ = a.setupChanged(ctx)
	return nil
}

// CopyModel copies a model under a new name.
func (a *ModelsService) CopyModel(src, dst string) (ModelDetail, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, _, err := a.core.llmClient(ctx)
	if err == nil {
		err = client.Copy(ctx, src, strings.TrimSpace(dst))
	}
	if err != nil {
		return ModelDetail{}, a.modelErr(ctx, src, err) // an unknown model is the one copied
	}
	return a.finishModelJob(dst, nil)
}

// UseModel makes a model the chat model, or with embed the embedding model.
func (a *ModelsService) UseModel(name string, embed bool) (SetupState, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.core.UseModel(ctx, name, embed); err != nil {
		return SetupState{}, a.core.userErr(ctx, err)
	}
	return a.setupChanged(ctx)
}

// ListModels returns the installed models that can chat, for the picker.
func (a *ModelsService) ListModels() ([]ModelInfo, error) {
	models, err := a.ListModelDetails()
	if err != nil {
		return nil, err
	}
	out := make([]ModelInfo, 0, len(models))
	for _, m := range models {
		if m.Can(llm.CapChat) {
			out = append(out, ModelInfo{Name: m.Name, Size: m.Size, ModifiedAt: m.ModifiedAt, ParameterSize: m.ParameterSize})
		}
	}
	return out, nil
}

// ErrJobCancelled marks a pull or import stopped by the user.
var ErrJobCancelled = errors.New("cancelled")

// modelJob runs long model work under a cancellable request id, with progress
// as model:progress:<id> events (at most every 100 ms, and the last one).
func (a *ModelsService) modelJob(requestID string, work func(ctx context.Context, progress func(llm.Progress) error) error) error {
	ctx, done, err := a.reqs.track(context.Background(), requestID)
	if err != nil {
		return err
	}
	defer done()
	var last time.Time
	err = work(ctx, func(p llm.Progress) error {
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond || p.Percent >= 100 || p.Status == "success" {
			last = now
			send(a.emit, evModelProgress.of(requestID), p)
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return &UserError{Message: "Cancelled. What was downloaded is kept; starting again resumes it.", Err: errors.Join(ErrJobCancelled, err)}
	}
	return err
}
