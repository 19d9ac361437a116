package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"hermes/backend/agent"
	"hermes/backend/intent/dataset"
	"hermes/backend/intent/train"
)

// IntentCorrectionsFile, in the data dir, keeps the user's corrections of the
// intent chip: one {"text","label"} a line, nothing else.
const IntentCorrectionsFile = "intent-corrections.jsonl"

// userModelDir is where `intent train` writes the model it makes on this
// computer, inside the installed model's folder; the installed model stays
// the fallback.
const userModelDir = "user"

// correctionRepeats is how many times each correction is added to the training
// data, so that one correction outweighs the generated examples near it.
const correctionRepeats = 3

// IntentCorrection is one corrected message: its text and the label the user chose.
type IntentCorrection struct {
	Text  string `json:"text"`
	Label string `json:"label"`
}

// IntentLabels are the labels a message can be given (DESIGN.md 7b).
func IntentLabels() []string { return append([]string(nil), dataset.Labels...) }

// corrections reads and writes the corrections file; one lock per process.
type corrections struct {
	path string

	mu    sync.Mutex
	stamp time.Time // modification time of what byText holds
	size  int64
	byKey map[string]string // normalized text -> label
}

var correctionsMu sync.Mutex // serializes writers of corrections files in this process

func correctionKey(text string) string {
	return strings.Join(strings.Fields(strings.ToLower(text)), " ")
}

// list reads every correction, in the order they were made.
func (c *corrections) list() ([]IntentCorrection, error) {
	b, err := os.ReadFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return []IntentCorrection{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read intent corrections: %w", err)
	}
	out := []IntentCorrection{}
	for n, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var ic IntentCorrection
		if err := json.Unmarshal(line, &ic); err != nil || strings.TrimSpace(ic.Text) == "" || !slices.Contains(dataset.Labels, ic.Label) {
			return nil, fmt.Errorf("read intent corrections: %s line %d: want {\"text\": \"...\", \"label\": one of %s}: %w",
				c.path, n+1, strings.Join(dataset.Labels, ", "), ErrInvalid)
		}
		out = append(out, ic)
	}
	return out, nil
}

// write replaces the file with list (atomically); an empty list removes it.
func (c *corrections) write(list []IntentCorrection) error {
	if len(list) == 0 {
		if err := os.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("clear intent corrections: %w", err)
		}
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, ic := range list {
		enc.Encode(ic)
	}
	tmp := c.path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("save intent correction: %w", err)
	}
	if err := os.Rename(tmp, c.path); err != nil {
		return fmt.Errorf("save intent correction: %w", err)
	}
	return nil
}

// add stores a correction; a later correction of the same text replaces the earlier one.
func (c *corrections) add(ic IntentCorrection) error {
	correctionsMu.Lock()
	defer correctionsMu.Unlock()
	list, err := c.list()
	if err != nil {
		return err
	}
	k := correctionKey(ic.Text)
	list = slices.DeleteFunc(list, func(o IntentCorrection) bool { return correctionKey(o.Text) == k })
	return c.write(append(list, ic))
}

// clear removes every correction and says how many there were.
func (c *corrections) clear() (int, error) {
	correctionsMu.Lock()
	defer correctionsMu.Unlock()
	list, err := c.list()
	if err != nil && !errors.Is(err, ErrInvalid) {
		return 0, err
	}
	return len(list), c.write(nil)
}

// lookup returns the label the user gave this text, if any; the file is read
// again only when it changed.
func (c *corrections) lookup(text string) (string, bool) {
	if c == nil || c.path == "" {
		return "", false
	}
	st, err := os.Stat(c.path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.byKey, c.stamp, c.size = nil, time.Time{}, 0
		return "", false
	}
	if c.byKey == nil || !st.ModTime().Equal(c.stamp) || st.Size() != c.size {
		list, err := c.list()
		if err != nil {
			return "", false
		}
		c.byKey = make(map[string]string, len(list))
		for _, ic := range list {
			c.byKey[correctionKey(ic.Text)] = ic.Label
		}
		c.stamp, c.size = st.ModTime(), st.Size()
	}
	label, ok := c.byKey[correctionKey(text)]
	return label, ok
}

// IntentCorrected is a message whose intent the user corrected, with the plan
// its turn gets when it is run again.
type IntentCorrected struct {
	MessageID        string   `json:"messageId"`
	Intent           string   `json:"intent"`
	IntentConfidence float32  `json:"intentConfidence"`
	Plan             PlanInfo `json:"plan"`
}

// CorrectIntent gives a user's message the label the user chose: the message's
// stored intent (from which a re-run of its turn is planned) is replaced, and
// the text and its label are kept in the corrections file for `intent train
// --with-corrections`; the same text is given that label from now on.
func (c *Core) CorrectIntent(ctx context.Context, messageID, label string) (IntentCorrected, error) {
	label = strings.TrimSpace(label)
	if !slices.Contains(dataset.Labels, label) {
		msg := fmt.Sprintf("%q is not an intent; choose one of %s.", label, strings.Join(dataset.Labels, ", "))
		return IntentCorrected{}, &UserError{Code: CodeInvalidInput, Message: msg, Params: map[string]string{"detail": msg}}
	}
	m, err := c.Sessions.SetIntent(ctx, messageID, label, 1)
	if err != nil {
		return IntentCorrected{}, err
	}
	if err := c.intentCorrections().add(IntentCorrection{Text: m.Content, Label: label}); err != nil {
		return IntentCorrected{}, err
	}
	p := agent.PlanFor(m.Intent, m.IntentConfidence)
	return IntentCorrected{MessageID: m.ID, Intent: m.Intent, IntentConfidence: m.IntentConfidence,
		Plan: PlanInfo{Intent: p.Intent, Confidence: p.Confidence, Recall: p.Recall, RecallK: p.RecallK,
			MayWriteMemory: p.MayWriteMemory, ToolGroup: string(p.ToolGroup)}}, nil
}

// IntentCorrections lists the user's corrections, oldest first.
func (c *Core) IntentCorrections(ctx context.Context) ([]IntentCorrection, error) {
	return c.intentCorrections().list()
}

// ClearIntentCorrections removes every correction and says how many there were.
// A model trained with them stays until it is trained again.
func (c *Core) ClearIntentCorrections(ctx context.Context) (int, error) {
	return c.intentCorrections().clear()
}

func (c *Core) intentCorrections() *corrections {
	if c.intent.corrections != nil {
		return c.intent.corrections
	}
	return &corrections{path: filepath.Join(c.DataDir, IntentCorrectionsFile)}
}

// IntentTraining is what `intent train` made.
type IntentTraining struct {
	Dir         string  `json:"dir"`         // where the model was written
	Examples    int     `json:"examples"`    // training examples, corrections included
	Corrections int     `json:"corrections"` // corrections used
	HeldOut     float64 `json:"heldOutAccuracy"`
	MacroF1     float64 `json:"heldOutMacroF1"`
	Seconds     float64 `json:"seconds"`
}

// TrainIntent retrains the intent model on this computer from the data shipped
// with Hermes (plus, withCorrections, the user's corrections, which win over a
// shipped example of the same text), deterministically, and writes it into
// <data dir>/models/intent/user, which is loaded in preference to the installed
// model from the next start (the installed one stays the fallback).
func (c *Core) TrainIntent(ctx context.Context, withCorrections bool) (IntentTraining, error) {
	start := time.Now()
	src := c.intent.model
	if src == nil {
		src = os.DirFS(c.intent.dir)
	}
	var corr []IntentCorrection
	if withCorrections {
		var err error
		if corr, err = c.intentCorrections().list(); err != nil {
			return IntentTraining{}, err
		}
	}
	base := filepath.Join(c.DataDir, "models", "intent")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return IntentTraining{}, fmt.Errorf("train intent model: %w", err)
	}
	data, err := os.MkdirTemp(base, ".data-")
	if err != nil {
		return IntentTraining{}, fmt.Errorf("train intent model: %w", err)
	}
	defer os.RemoveAll(data)
	for _, name := range []string{train.FeaturizerFile, train.DevFile, train.TestFile, train.TrainFile} {
		b, err := fs.ReadFile(src, name)
		if err != nil {
			msg := fmt.Sprintf("This Hermes does not carry the intent training data (%s), so the model cannot be retrained here.", name)
			return IntentTraining{}, &UserError{Code: CodeInvalidInput, Message: msg, Params: map[string]string{"detail": msg}, Err: err}
		}
		if name == train.TrainFile && len(corr) > 0 {
			if b, err = withCorrectionExamples(b, corr); err != nil {
				return IntentTraining{}, err
			}
		}
		if err := os.WriteFile(filepath.Join(data, name), b, 0o600); err != nil {
			return IntentTraining{}, fmt.Errorf("train intent model: %w", err)
		}
	}
	out := filepath.Join(data, "model")
	res, err := train.Run(data, out, train.DefaultConfig())
	if err != nil {
		return IntentTraining{}, err
	}
	dst := filepath.Join(base, userModelDir)
	if err := os.RemoveAll(dst); err != nil {
		return IntentTraining{}, fmt.Errorf("install trained intent model: %w", err)
	}
	if err := os.Rename(out, dst); err != nil {
		return IntentTraining{}, fmt.Errorf("install trained intent model: %w", err)
	}
	return IntentTraining{Dir: dst, Examples: res.Report.Training.Examples, Corrections: len(corr),
		HeldOut: float64(res.Report.HeldOut.Accuracy), MacroF1: float64(res.Report.HeldOut.MacroF1),
		Seconds: time.Since(start).Seconds()}, nil
}

// withCorrectionExamples drops the shipped examples whose text the user
// corrected and appends each correction correctionRepeats times.
func withCorrectionExamples(trainJSONL []byte, corr []IntentCorrection) ([]byte, error) {
	exs, err := dataset.Read(bytes.NewReader(trainJSONL), train.TrainFile)
	if err != nil {
		return nil, fmt.Errorf("train intent model: %w", err)
	}
	keys := map[string]bool{}
	for _, ic := range corr {
		keys[correctionKey(ic.Text)] = true
	}
	exs = slices.DeleteFunc(exs, func(ex dataset.Example) bool { return keys[correctionKey(ex.Text)] })
	for _, ic := range corr {
		lang := "en"
		if strings.IndexFunc(ic.Text, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			lang = "zh"
		}
		for range correctionRepeats {
			exs = append(exs, dataset.Example{Text: ic.Text, Label: ic.Label, Lang: lang})
		}
	}
	return dataset.Marshal(exs), nil
}
