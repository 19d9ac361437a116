//go:build !linux

package mcp

import "log/slog"

// markerVar is the environment variable that marks a server's descendants
// (used on Linux only).
const markerVar = "HERMES_MCP_RUN"

// BecomeSubreaper makes this process a child subreaper on Linux; elsewhere it
// does nothing.
func BecomeSubreaper() error { return nil }

func newRun() string                     { return "" }
func forgetRun(string)                   {}
func trackStart(*process)                {}
func trackEnd(*process)                  {}
func attachRecords(string, *slog.Logger) {}
func detachRecords(string)               {}
