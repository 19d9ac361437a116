package embed

import "hermes/backend/text"

// IsStopword reports whether w is a function word of English or a function
// character or word of Chinese (text.IsStopword).
func IsStopword(w string) bool { return text.IsStopword(w) }
