//go:build !linux

package toolfile

import "os/exec"

// runTied runs cmd (only Linux can tie it to Hermes's life).
func runTied(cmd *exec.Cmd) error { return cmd.Run() }
