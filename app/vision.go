package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"hermes/backend/agent"
	"hermes/backend/llm"
)

// ErrCannotSee is a message with images for a model that cannot see them
// (it lacks Ollama's "vision" capability): refused before anything is stored.
var ErrCannotSee = errors.New("the model cannot see images")

// CannotSeeError names the model and the installed models that can see.
type CannotSeeError struct {
	Model  string
	Seeing []string
}

func (e *CannotSeeError) Error() string {
	if len(e.Seeing) == 0 {
		return fmt.Sprintf("%s cannot see images, and no installed model can; pull one that can (e.g. gemma3, qwen2.5vl or llava) or send the message without the image", e.Model)
	}
	return fmt.Sprintf("%s cannot see images; choose a model that can (%s) in this chat's settings or with --model, or send the message without the image", e.Model, strings.Join(e.Seeing, ", "))
}

func (e *CannotSeeError) Is(target error) bool { return target == ErrCannotSee }

// checkVision refuses a turn whose message carries images when the model it
// will ask (its chat's settings applied) cannot see (Ollama's capabilities from /api/show), naming the
// installed models that can. A model Ollama cannot describe now passes: the
// turn itself then says what is wrong. A turn without images of its own to a
// model that cannot see leaves the images of earlier messages out.
func (c *Core) checkVision(ctx context.Context, in agent.Input) (agent.Input, error) {
	own, err := c.ImagesOf(ctx, in.Text) // stored images only: a forged tag counts for nothing
	if err != nil {
		return in, err
	}
	model := c.firstModel(ctx, in) // in has its chat's settings applied (Core.turn)
	client, _, err := c.llmClient(ctx)
	if model == "" || err != nil {
		return in, nil
	}
	caps, err := client.Capabilities(ctx, model)
	if err != nil || slices.Contains(caps, llm.CapVision) {
		return in, nil
	}
	if own == 0 {
		in.NoImages = true
		return in, nil
	}
	var seeing []string
	if list, err := client.ModelDetails(ctx); err == nil {
		for _, m := range list {
			if m.Can(llm.CapVision) && m.Can(llm.CapChat) {
				seeing = append(seeing, m.Name)
			}
		}
	}
	return in, &CannotSeeError{Model: model, Seeing: seeing}
}
