//go:build !linux

package cage

// limit is a no-op where Hermes does not set kernel limits; the wall-clock
// limit of the parent still holds.
func limit(memory, cpu int64) error { return nil }
