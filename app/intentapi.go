package app

import "context"

// CorrectIntent gives a message the intent the user chose on its chip (one of
// the seven labels): the message's plan for a re-run follows it, and the
// correction is kept for `hermes intent train --with-corrections`.
func (a *ChatService) CorrectIntent(messageId, label string) (IntentCorrected, error) {
	ctx := context.Background()
	r, err := a.core.CorrectIntent(ctx, messageId, label)
	if err != nil {
		return IntentCorrected{}, a.core.userErr(ctx, err)
	}
	return r, nil
}
