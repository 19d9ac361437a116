package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"hermes/backend/intent"
	"hermes/backend/intent/correct"
)

// intentLoader opens the classifier on first use; chat works without it (intent "unknown").
type intentLoader struct {
	model   fs.FS  // the model files built into the binary, read where they are; nil: dir's
	dir     string // where the model files are read from without model; the user's model is under it
	libPath string // explicit library path, "" to look it up
	// corrections are the user's corrections; a corrected text keeps its label.
	corrections *correct.Store

	once sync.Once
	done atomic.Bool // the load has finished: cls and err are final
	user bool        // the model trained on this computer (dir/user) is the one loaded
	rt   *intent.Runtime
	cls  *intent.Classifier
	err  error
}

// get returns the classifier or the reason it is unavailable, with what to do.
func (l *intentLoader) get() (*intent.Classifier, error) {
	l.once.Do(func() {
		defer l.done.Store(true)
		lib := l.libPath
		if lib == "" {
			if lib, l.err = intent.LocateLibrary(); l.err != nil {
				return
			}
		}
		l.rt = intent.NewRuntime(lib)
		if ud := l.userDir(); ud != "" {
			// The model trained here (`intent train`) comes first; the built-in one
			// is the fallback when it is missing or does not load.
			if _, err := os.Stat(filepath.Join(ud, intent.ModelFile)); err == nil {
				if cls, err := intent.Open(intent.Config{Runtime: l.rt, ModelDir: ud}); err == nil {
					l.cls, l.user = cls, true
					return
				}
			}
		}
		if l.model != nil {
			l.cls, l.err = intent.Open(intent.Config{Runtime: l.rt, Model: l.model, ModelDir: "(built in)"})
			return
		}
		l.cls, l.err = intent.Open(intent.Config{Runtime: l.rt, ModelDir: l.dir})
	})
	return l.cls, l.err
}

// WarmIntent starts loading the intent classifier (ONNX Runtime, its
// environment and session: about 80 ms on a 2-core laptop) in the background,
// for a command about to take a turn: the turn's first steps (settings,
// the stored message) then run while it loads instead of before.
func (c *Core) WarmIntent() { go c.intent.get() }

// settled is get's error when the load has finished (done true); otherwise
// it starts the load in the background and returns at once (done false).
func (l *intentLoader) settled() (done bool, err error) {
	if !l.done.Load() {
		go l.get()
		return false, nil
	}
	_, err = l.get()
	return true, err
}

// userDir is where a model trained on this computer lives; "" when the model
// files come from HERMES_INTENT_MODEL_DIR (used as they are).
func (l *intentLoader) userDir() string {
	if l.model == nil {
		return ""
	}
	return filepath.Join(l.dir, correct.UserModelDir)
}

func (l *intentLoader) close() {
	// A load WarmIntent started is waited for; one never started never will be.
	l.once.Do(func() { l.err = errors.New("intent classifier: closed") })
	if l.cls != nil {
		l.cls.Close()
	}
	if l.rt != nil {
		l.rt.Close()
	}
}

// intentClassifier adapts the classifier to the agent.
type intentClassifier struct{ l *intentLoader }

func (c intentClassifier) Classify(ctx context.Context, text string) (string, float32, error) {
	if label, ok := c.l.corrections.Lookup(text); ok { // the user said so
		return label, 1, nil
	}
	cls, err := c.l.get()
	if err != nil {
		return intent.Unknown, 0, err
	}
	r, err := cls.Classify(ctx, text)
	return r.Label, r.Confidence, err
}

// IntentProblem describes why the intent classifier is unavailable, with the fix; "" when it works.
// It waits for the classifier to load.
func (c *Core) IntentProblem() (problem, fix string) {
	_, err := c.intent.get()
	problem, fix, _, _ = c.intentNotice(err)
	return problem, fix
}

// intentNotice is IntentProblem of the load's error, with its notice code and params, for the UI.
func (c *Core) intentNotice(err error) (problem, fix, code string, params map[string]string) {
	detail := ""
	if err != nil {
		detail = err.Error()
		if i := strings.Index(detail, "; "); i > 0 { // the fix is given separately
			detail = detail[:i]
		}
	}
	switch {
	case err == nil:
		return "", "", "", nil
	case errors.Is(err, intent.ErrNoLibrary):
		return "The ONNX Runtime library is missing, so messages are not classified (intent: unknown): " + detail + ".",
			"I" + intent.InstallHint[1:] + "; or point HERMES_ORT_LIB at libonnxruntime.so.1.",
			NoticeIntentNoLibrary, map[string]string{"detail": detail}
	case errors.Is(err, intent.ErrNoModel), errors.Is(err, intent.ErrBadModel):
		return "The intent model cannot be loaded, so messages are not classified (intent: unknown): " + detail + ".",
			"Rebuild it with `go tool task model:intent`, or remove " + c.intent.dir + " to restore the built-in model.",
			NoticeIntentBadModel, map[string]string{"detail": detail, "dir": c.intent.dir}
	}
	return "The intent classifier failed to start: " + err.Error(), "Run `hermes doctor` for details.",
		NoticeIntentFailed, map[string]string{"detail": err.Error()}
}

// IntentResult is the classification of one message: label, confidence, scores.
type IntentResult = intent.Result

// IntentModel describes the loaded intent classifier.
type IntentModel struct {
	Labels    int     // how many labels the model knows
	Threshold float32 // below this confidence a message is "unknown"
}

// IntentModel loads the classifier if needed and describes it, or says why it
// is unavailable (IntentProblem has the fix).
func (c *Core) IntentModel() (IntentModel, error) {
	cls, err := c.intent.get()
	if err != nil {
		return IntentModel{}, err
	}
	return IntentModel{Labels: len(cls.Labels()), Threshold: cls.Threshold()}, nil
}

// ClassifyIntent classifies one message.
func (c *Core) ClassifyIntent(ctx context.Context, text string) (IntentResult, error) {
	cls, err := c.intent.get()
	if err != nil {
		return IntentResult{}, err
	}
	return cls.Classify(ctx, text)
}

// ClassifyIntents classifies many messages in one batch, in order.
func (c *Core) ClassifyIntents(ctx context.Context, texts []string) ([]IntentResult, error) {
	cls, err := c.intent.get()
	if err != nil {
		return nil, err
	}
	return cls.ClassifyBatch(ctx, texts)
}
