// Package prompt decides what the model sees: it fits the system prompt, pinned
// messages, recent, relevant and anchor turns, the rolling summary, memories and tool
// schemas into the model's context window, and records why each item is there.
package prompt

import (
	"unicode/utf8"

	"hermes/backend/text"
)

// MessageOverhead is the tokens a chat template adds around each message.
const MessageOverhead = 4

// Estimate approximates the token count of text for English and Chinese: about one
// token per CJK character and one per four other characters.
func Estimate(s string) int {
	if s == "" {
		return 0
	}
	cjk, other := 0, 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r < utf8.RuneSelf:
			other++
		case text.IsCJK(r):
			cjk++
		default:
			other += 2
		}
	}
	return cjk + (other+3)/4
}
