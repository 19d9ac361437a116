package session

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"hermes/backend/store"
)

// A conversation's main channel is a tree: a regenerated reply or an edited
// message is a new version beside the old one (the same parent), and each
// message's selected flag says which of its versions is shown. The shown
// conversation is the path of selected messages from the first one; the model
// sees that path only. Before a conversation first branches, every message
// follows the one before it (parent_id NULL) and the tree is a line.

// tree is the main channel's messages with their parents resolved.
type tree struct {
	msgs   []Message           // main channel, by seq
	byID   map[string]int      // id -> index in msgs
	parent map[string]string   // id -> parent id ("" for a first message)
	kids   map[string][]string // id -> its children's ids, by seq
}

func newTree(all []Message) *tree {
	t := &tree{byID: map[string]int{}, parent: map[string]string{}, kids: map[string][]string{}}
	prev := ""
	for _, m := range all {
		if !InChannel(m, MainChannel) {
			continue
		}
		p := prev
		if m.Linked {
			p = m.Parent
		}
		t.byID[m.ID] = len(t.msgs)
		t.parent[m.ID] = p
		t.kids[p] = append(t.kids[p], m.ID)
		t.msgs = append(t.msgs, m)
		prev = m.ID
	}
	return t
}

// link stores the parent of every message that follows the one before it
// without saying so (written before the conversation branched), except those
// in skip, so that versions have a parent.
func (t *tree) link(ctx context.Context, tx *sql.Tx, skip map[string]bool) error {
	for _, m := range t.msgs {
		if m.Linked || skip[m.ID] {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET parent_id = ? WHERE id = ?`, t.parent[m.ID], m.ID); err != nil {
			return err
		}
	}
	return nil
}

// visible reports which messages are on the shown path.
func (t *tree) visible() map[string]bool {
	shown := map[string]bool{"": true}
	for _, m := range t.msgs { // a parent comes before its children
		if m.Selected && shown[t.parent[m.ID]] {
			shown[m.ID] = true
		}
	}
	delete(shown, "")
	return shown
}

// children are the messages whose parent is id, by seq.
func (t *tree) children(id string) []Message {
	out := make([]Message, 0, len(t.kids[id]))
	for _, k := range t.kids[id] {
		out = append(out, t.msgs[t.byID[k]])
	}
	return out
}

// subtree is id and everything below it.
func (t *tree) subtree(id string) map[string]bool {
	in := map[string]bool{id: true}
	for _, m := range t.msgs {
		if in[t.parent[m.ID]] {
			in[m.ID] = true
		}
	}
	return in
}

// Visible is the conversation as shown: the selected path of the main channel,
// and every message of the other channels, in order.
func Visible(all []Message) []Message {
	shown := newTree(all).visible()
	out := make([]Message, 0, len(all))
	for _, m := range all {
		if !InChannel(m, MainChannel) || shown[m.ID] {
			out = append(out, m)
		}
	}
	return out
}

// Branches answers which versions each message has.
type Branches struct{ t *tree }

// NewBranches reads the branches of a conversation's messages (all of them,
// as Messages gives them).
func NewBranches(all []Message) Branches { return Branches{newTree(all)} }

// Versions are the versions of a message, oldest first, as the ids to select
// them by, and which one is shown. A user message's versions are its edits (the
// user messages beside it); a reply's are its regenerations (what answers the
// same user message: each version's first message, a tool call or the reply).
// One version gives nil.
func (b Branches) Versions(id string) (ids []string, shown int) {
	t := b.t
	i, ok := t.byID[id]
	if !ok {
		return nil, 0
	}
	head := id
	if t.msgs[i].Role != "user" {
		for { // up to the message whose parent is a user message
			p := t.parent[head]
			if j, ok := t.byID[p]; !ok || t.msgs[j].Role == "user" {
				break
			}
			head = p
		}
	}
	user := t.msgs[t.byID[head]].Role == "user"
	for _, c := range t.kids[t.parent[head]] {
		if (t.msgs[t.byID[c]].Role == "user") == user {
			if c == head {
				shown = len(ids)
			}
			ids = append(ids, c)
		}
	}
	if len(ids) < 2 {
		return nil, 0
	}
	return ids, shown
}

// branch changes which messages are shown in one transaction: it links every
// message to its parent (so versions have one), lets change edit the selected
// flags, then moves the session's leaf to the end of the shown path. A summary
// that covered a message no longer shown is dropped (it is rebuilt).
func (st *Store) branch(ctx context.Context, op, sessionID string, change func(t *tree) (map[string]bool, int, error)) error {
	s, err := st.Get(ctx, sessionID)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	all, err := st.Messages(ctx, s.ID)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	t := newTree(all)
	err = st.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := t.link(ctx, tx, nil); err != nil {
			return err
		}
		selected, forkSeq, err := change(t)
		if err != nil {
			return err
		}
		for id, on := range selected {
			if _, err := tx.ExecContext(ctx, `UPDATE messages SET selected = ? WHERE id = ?`, on, id); err != nil {
				return err
			}
			t.msgs[t.byID[id]].Selected = on
		}
		leaf := ""
		shown := t.visible()
		for _, m := range t.msgs {
			if shown[m.ID] {
				leaf = m.ID
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET leaf_id = ? WHERE id = ?`, leaf, s.ID); err != nil {
			return err
		}
		if s.SummaryUpto >= forkSeq {
			_, err = tx.ExecContext(ctx, `UPDATE sessions SET summary = '', summary_kind = '', summary_upto = 0 WHERE id = ?`, s.ID)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// shownMessage finds a shown message of the main channel with one of roles.
func shownMessage(t *tree, id string, roles ...string) (Message, error) {
	i, ok := t.byID[id]
	if !ok || !t.visible()[id] || !slices.Contains(roles, t.msgs[i].Role) {
		return Message{}, fmt.Errorf("%w: %q is not a shown %s message of this conversation", ErrInvalid, id, roles[0])
	}
	return t.msgs[i], nil
}

// ForkReply hides a reply (with everything after it) so that the user message it
// answers can be answered again as a new version of it. It returns that user
// message.
func (st *Store) ForkReply(ctx context.Context, sessionID, replyID string) (Message, error) {
	var user Message
	err := st.branch(ctx, "regenerate", sessionID, func(t *tree) (map[string]bool, int, error) {
		r, err := shownMessage(t, replyID, "assistant")
		if err != nil {
			return nil, 0, err
		}
		head := r.ID
		for {
			p := t.parent[head]
			j, ok := t.byID[p]
			if !ok {
				return nil, 0, fmt.Errorf("%w: the reply %q answers no message", ErrInvalid, replyID)
			}
			if t.msgs[j].Role == "user" {
				user = t.msgs[j]
				break
			}
			head = p
		}
		return map[string]bool{head: false}, t.msgs[t.byID[head]].Seq, nil
	})
	return user, err
}

// ForkMessage hides a user message (with everything after it) so that its
// edited text can be sent as a new version of it.
func (st *Store) ForkMessage(ctx context.Context, sessionID, messageID string) error {
	return st.branch(ctx, "edit message", sessionID, func(t *tree) (map[string]bool, int, error) {
		m, err := shownMessage(t, messageID, "user")
		if err != nil {
			return nil, 0, err
		}
		return map[string]bool{m.ID: false}, m.Seq, nil
	})
}

// SelectVersion shows one version of a message (an id Versions gave) instead of
// the one shown.
func (st *Store) SelectVersion(ctx context.Context, sessionID, id string) error {
	return st.branch(ctx, "select version", sessionID, func(t *tree) (map[string]bool, int, error) {
		i, ok := t.byID[id]
		if !ok {
			return nil, 0, fmt.Errorf("%w: no message %q in this conversation", ErrNotFound, id)
		}
		user := t.msgs[i].Role == "user"
		change := map[string]bool{}
		fork := t.msgs[i].Seq
		for _, c := range t.children(t.parent[id]) {
			if (c.Role == "user") == user {
				change[c.ID] = c.ID == id
				fork = min(fork, c.Seq)
			}
		}
		return change, fork, nil
	})
}

// DeleteTurn deletes a shown user message with its reply (every version of it,
// and the sub-agents' messages of its delegations); the turns after it follow
// the message before it. When the message is one of several versions (it was
// edited), only this version goes, with its branch, and the nearest other
// version is shown instead: the turns after it belong to this version alone.
func (st *Store) DeleteTurn(ctx context.Context, sessionID, userID string) (int, error) {
	s, err := st.Get(ctx, sessionID)
	if err != nil {
		return 0, fmt.Errorf("delete turn: %w", err)
	}
	all, err := st.Messages(ctx, s.ID)
	if err != nil {
		return 0, fmt.Errorf("delete turn: %w", err)
	}
	t := newTree(all)
	u, err := shownMessage(t, userID, "user")
	if err != nil {
		return 0, fmt.Errorf("delete turn: %w", err)
	}
	gone := t.subtree(u.ID)
	pick := otherVersion(t, u.ID)
	next := ""
	if pick == "" {
		next = nextShownUser(t, gone, u.ID)
	}
	if next != "" {
		for id := range t.subtree(next) {
			delete(gone, id)
		}
	}
	texts := goneThreads(t, all, gone)
	err = st.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := t.link(ctx, tx, gone); err != nil {
			return err
		}
		if err := st.reshape(ctx, tx, t.parent[u.ID], next, pick); err != nil {
			return err
		}
		for id := range gone {
			if _, err := tx.ExecContext(ctx, `DELETE FROM messages_fts WHERE rowid = (SELECT rowid FROM messages WHERE id = ?)`, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE id = ?`, id); err != nil {
				return err
			}
		}
		a, shown := after(t, gone, next, t.parent[u.ID], pick)
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET leaf_id = ?, summary = CASE WHEN summary_upto >= ? THEN '' ELSE summary END,
			summary_upto = CASE WHEN summary_upto >= ? THEN 0 ELSE summary_upto END WHERE id = ?`, leafAfter(a, shown), u.Seq, u.Seq, s.ID); err != nil {
			return err
		}
		if title, changed := titleAfter(firstShownUser(t, t.visible()), firstShownUser(a, shown)); changed {
			if _, err := tx.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE id = ? AND title_auto = 1`, title, s.ID); err != nil {
				return err
			}
		}
		return store.PurgeTerms(ctx, tx, "messages_fts", texts)
	})
	st.hist.forget(s.ID)
	if err != nil {
		return 0, fmt.Errorf("delete turn: %w", err)
	}
	return len(gone), nil
}

// otherVersion is the version of a user message shown once it is deleted: the
// one before it, else the one after it ("" when it has no other version).
func otherVersion(t *tree, id string) string {
	pick := ""
	for _, c := range t.children(t.parent[id]) {
		switch {
		case c.ID == id:
			if pick != "" {
				return pick
			}
		case c.Role == "user":
			if pick == "" || t.byID[c.ID] < t.byID[id] {
				pick = c.ID
			}
		}
	}
	return pick
}

// nextShownUser is the first shown user message after id in gone (the turn that
// follows the deleted one), or "".
func nextShownUser(t *tree, gone map[string]bool, id string) string {
	shown := t.visible()
	for _, m := range t.msgs {
		if gone[m.ID] && shown[m.ID] && m.Role == "user" && m.ID != id {
			return m.ID
		}
	}
	return ""
}

// goneThreads adds to gone the sub-agents' messages of the delegations made in
// it, and returns the texts of everything in gone (for the search index).
func goneThreads(t *tree, all []Message, gone map[string]bool) []string {
	var texts []string
	calls := map[string]bool{}
	for _, m := range t.msgs {
		if gone[m.ID] {
			texts = append(texts, m.Content)
			if d := callID(m); d != "" {
				calls[d] = true
			}
		}
	}
	for _, m := range all {
		if !InChannel(m, MainChannel) && calls[DelegationOf(m)] {
			gone[m.ID] = true
			texts = append(texts, m.Content)
		}
	}
	return texts
}

// reshape makes next (when given) follow parent, and shows pick (when given).
func (st *Store) reshape(ctx context.Context, tx *sql.Tx, parent, next, pick string) error {
	if next != "" {
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET parent_id = ? WHERE id = ?`, parent, next); err != nil {
			return err
		}
	}
	if pick != "" {
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET selected = 1 WHERE id = ?`, pick); err != nil {
			return err
		}
	}
	return nil
}

// after is the main channel once gone is deleted, next (when given) follows
// parent and pick (when given) is shown; and which of it is shown.
func after(t *tree, gone map[string]bool, next, parent, pick string) (*tree, map[string]bool) {
	msgs := make([]Message, 0, len(t.msgs))
	for _, m := range t.msgs {
		if gone[m.ID] {
			continue
		}
		m.Linked, m.Parent = true, t.parent[m.ID]
		if m.ID == next {
			m.Parent = parent
		}
		if m.ID == pick {
			m.Selected = true
		}
		msgs = append(msgs, m)
	}
	a := newTree(msgs)
	return a, a.visible()
}

// leafAfter is the end of the shown path of a (after), "" when nothing is shown.
func leafAfter(a *tree, shown map[string]bool) string {
	leaf := ""
	for _, m := range a.msgs {
		if shown[m.ID] {
			leaf = m.ID
		}
	}
	return leaf
}

// firstShownUser is the first user message on the shown path, or nil.
func firstShownUser(t *tree, shown map[string]bool) *Message {
	for i, m := range t.msgs {
		if shown[m.ID] && m.Role == "user" {
			return &t.msgs[i]
		}
	}
	return nil
}

// titleAfter is the automatic title once the shown conversation starts with
// a different user message: made from the new first one ("" when none is
// left), and changed only where the title is automatic.
func titleAfter(before, now *Message) (title string, changed bool) {
	switch {
	case now == nil:
		return "", before != nil
	case before == nil || before.ID != now.ID:
		return TitleFrom(now.Content), true
	}
	return "", false
}
