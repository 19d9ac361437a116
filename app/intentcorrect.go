package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hermes/backend/agent"
	"hermes/backend/intent/correct"
	"hermes/backend/intent/dataset"
)

// IntentCorrectionsFile, in the data dir, keeps the user's corrections of the
// intent chip: one {"text","label"} a line, nothing else.
const IntentCorrectionsFile = correct.File

// IntentCorrection is one corrected message: its text and the label the user chose.
type IntentCorrection = correct.Correction

// IntentLabels are the labels a message can be given (docs/architecture.md, "Intent labels").
func IntentLabels() []string { return append([]string(nil), dataset.Labels...) }

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
	m, err := c.sessions.SetIntent(ctx, messageID, label, 1)
	if err != nil {
		return IntentCorrected{}, err
	}
	if err := c.intent.corrections.Add(IntentCorrection{Text: m.Content, Label: label}); err != nil {
		return IntentCorrected{}, correctionsErr(err)
	}
	p := agent.PlanFor(m.Intent, m.IntentConfidence)
	return IntentCorrected{MessageID: m.ID, Intent: m.Intent, IntentConfidence: m.IntentConfidence,
		Plan: PlanInfo{Intent: p.Intent, Confidence: p.Confidence, Recall: p.Recall, RecallK: p.RecallK,
			MayWriteMemory: p.MayWriteMemory, ToolGroup: string(p.ToolGroup)}}, nil
}

// IntentCorrections lists the user's corrections, oldest first.
func (c *Core) IntentCorrections(ctx context.Context) ([]IntentCorrection, error) {
	list, err := c.intent.corrections.List()
	return list, correctionsErr(err)
}

// ClearIntentCorrections removes every correction and says how many there were.
// A model trained with them stays until it is trained again.
func (c *Core) ClearIntentCorrections(ctx context.Context) (int, error) {
	return c.intent.corrections.Clear()
}

// forgetCorrections removes the intent corrections of a conversation's user
// messages before the conversation is deleted, so none of its text stays in
// the corrections file: those of a text no other conversation holds (a text
// another conversation has too stays, with that conversation). It says how
// many went. A model trained with them stays until it is trained again.
func (c *Core) forgetCorrections(ctx context.Context, sessionID string) (int, error) {
	list, err := c.intent.corrections.List()
	if err != nil || len(list) == 0 {
		return 0, correctionsErr(err)
	}
	corrected := make(map[string]bool, len(list))
	for _, k := range list {
		corrected[correct.Key(k.Text)] = true
	}
	texts, err := c.sessions.UserTexts(ctx, sessionID)
	if err != nil {
		return 0, err
	}
	var gone []string
	for _, t := range texts {
		if !corrected[correct.Key(t)] {
			continue
		}
		elsewhere, err := c.sessions.SaidElsewhere(ctx, sessionID, t)
		if err != nil {
			return 0, err
		}
		if !elsewhere {
			gone = append(gone, t)
		}
	}
	n, err := c.intent.corrections.Forget(gone)
	return n, correctionsErr(err)
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
		if corr, err = c.intent.corrections.List(); err != nil {
			return IntentTraining{}, correctionsErr(err)
		}
	}
	res, dir, err := correct.Retrain(src, filepath.Join(c.dataDir, "models", "intent"), corr)
	if errors.Is(err, correct.ErrNoData) {
		msg := "This Hermes does not carry the intent training data, so the model cannot be retrained here."
		return IntentTraining{}, &UserError{Code: CodeInvalidInput, Message: msg, Params: map[string]string{"detail": msg}, Err: err}
	}
	if err != nil {
		return IntentTraining{}, err
	}
	return IntentTraining{Dir: dir, Examples: res.Report.Training.Examples, Corrections: len(corr),
		HeldOut: float64(res.Report.HeldOut.Accuracy), MacroF1: float64(res.Report.HeldOut.MacroF1),
		Seconds: time.Since(start).Seconds()}, nil
}

// correctionsErr makes a corrections file that cannot be read the user's bad input.
func correctionsErr(err error) error {
	if errors.Is(err, correct.ErrInvalid) {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return err
}
