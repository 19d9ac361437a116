package app

import (
	"context"

	"hermes/backend/agent"
	"hermes/backend/session"
)

// Branch methods of the UI: regenerate a reply, edit a message, choose a
// version, delete a turn. Each keeps the versions it replaces.

// RegenerateReply answers again the user message a reply answers; the new reply
// is a new version of it (streamed like SendMessage's).
func (a *ChatService) RegenerateReply(requestID, sessionID, replyID string) (TurnResult, error) {
	return a.regenerate(context.Background(), requestID, sessionID, replyID)
}

func (a *ChatService) regenerate(ctx context.Context, requestID, sessionID, replyID string) (TurnResult, error) {
	if _, err := a.core.sessions.ForkReply(ctx, sessionID, replyID); err != nil {
		return TurnResult{}, a.core.userErr(ctx, err)
	}
	tr, err := a.run(ctx, requestID, agent.Input{SessionID: sessionID, Continue: true, Regenerate: true})
	return a.withVersions(ctx, tr), err
}

// EditMessage sends a user message's edited text as a new version of it; the
// old message and the turns after it stay as the other version.
func (a *ChatService) EditMessage(requestID, sessionID, messageID, text string) (TurnResult, error) {
	return a.edit(context.Background(), requestID, sessionID, messageID, text)
}

func (a *ChatService) edit(ctx context.Context, requestID, sessionID, messageID, text string) (TurnResult, error) {
	if err := session.ValidateText(text); err != nil {
		return TurnResult{}, a.core.userErr(ctx, err)
	}
	if err := a.core.sessions.ForkMessage(ctx, sessionID, messageID); err != nil {
		return TurnResult{}, a.core.userErr(ctx, err)
	}
	tr, err := a.send(ctx, requestID, sessionID, text)
	return a.withVersions(ctx, tr), err
}

// SelectVersion shows one version of a message (one of its versions' ids) and
// returns the conversation as now shown.
func (a *ChatService) SelectVersion(sessionID, messageID string) (SessionDetail, error) {
	ctx := context.Background()
	if err := a.core.sessions.SelectVersion(ctx, sessionID, messageID); err != nil {
		return SessionDetail{}, a.core.userErr(ctx, err)
	}
	a.contexts.forget(sessionID) // the shown branch changed
	return a.sessions.LoadSession(sessionID)
}

// DeleteTurn deletes a user message with every version of its reply and returns
// the conversation as now shown.
func (a *ChatService) DeleteTurn(sessionID, messageID string) (SessionDetail, error) {
	ctx := context.Background()
	if _, err := a.core.EraseTurn(ctx, sessionID, messageID); err != nil { // its images and documents too, from every file
		return SessionDetail{}, a.core.userErr(ctx, err)
	}
	a.contexts.forget(sessionID) // the shown branch changed
	return a.sessions.LoadSession(sessionID)
}

// withVersions adds the versions of a turn's messages to its result.
func (a *ChatService) withVersions(ctx context.Context, tr TurnResult) TurnResult {
	if tr.Session.ID == "" {
		return tr
	}
	all, err := a.core.sessions.Messages(ctx, tr.Session.ID)
	if err != nil {
		return tr
	}
	b := session.NewBranches(all)
	tr.User.Versions, tr.Assistant.Versions = versionsOf(b, tr.User.ID), versionsOf(b, tr.Assistant.ID)
	return tr
}
