//go:build linux

package mcp

import "hermes/backend/proc"

// The orphan tests (proc_test.go) were written when /proc was read here; the
// reading moved to backend/proc, and these are the names they use.

// procStat is what the tests read of /proc/PID/stat.
type procStat struct {
	state byte
	ppid  int
	pgrp  int
	start uint64
}

func readStat(pid int) (procStat, error) {
	st, err := proc.ReadStat(pid)
	return procStat{state: st.State, ppid: st.PPID, pgrp: st.PGRP, start: st.Start}, err
}

// recordFile is what one Hermes process writes (proc.Records, in the tests'
// terms).
type recordFile struct {
	Owner   procOwner    `json:"owner"`
	Servers []procRecord `json:"servers"`
}

func ownerAlive(o procOwner) bool { return proc.Owner(o).Alive() }

func startedCmdline(pid int) []string { return proc.StartedCmdline(pid) }

func readMarker(pid int) (string, bool) { return proc.Getenv(pid, markerVar) }

func parseRun(run string) (procOwner, bool) {
	o, ok := proc.ParseMarker(run)
	return procOwner(o), ok
}
