package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SetIntent replaces the intent of a user's message (by id or ref), as the user
// corrected it, and returns the message. The next run of its turn is planned
// from it.
func (st *Store) SetIntent(ctx context.Context, messageID, label string, confidence float32) (Message, error) {
	op := "correct the intent of message " + messageID
	var role string
	err := st.db.QueryRowContext(ctx, `SELECT role FROM messages WHERE id = ? OR ref = ? LIMIT 1`, messageID, messageID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, fmt.Errorf("%s: message %q: %w", op, messageID, ErrNotFound)
	}
	if err != nil {
		return Message{}, fmt.Errorf("%s: %w", op, err)
	}
	if role != "user" {
		return Message{}, fmt.Errorf("%s: %w: only a message you wrote has an intent", op, ErrInvalid)
	}
	if _, err := st.db.ExecContext(ctx, `UPDATE messages SET intent = ?, intent_confidence = ? WHERE (id = ? OR ref = ?) AND role = 'user'`,
		label, confidence, messageID, messageID); err != nil {
		return Message{}, fmt.Errorf("%s: %w", op, err)
	}
	msgs, err := st.queryMessages(ctx, op, `SELECT `+messageCols+` FROM messages WHERE id = ? OR ref = ? LIMIT 1`, messageID, messageID)
	if err != nil {
		return Message{}, err
	}
	if len(msgs) == 0 {
		return Message{}, fmt.Errorf("%s: message %q: %w", op, messageID, ErrNotFound)
	}
	return msgs[0], nil
}
