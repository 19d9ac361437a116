package tools

// Tool groups: which tools a turn may see. The agent's plan names one group per
// turn (agent.ToolGroup has the same values).
const (
	GroupNone     = "none"      // no tool
	GroupReadOnly = "read-only" // tools that only read
	GroupTask     = "task"      // tools that act; the task group also shows the read-only tools
	GroupMemory   = "memory"    // the memory tools
	// GroupMemoryKeep is the memory tools that read, add or change, not those
	// that erase (Destructive): a turn that did not ask to delete anything.
	GroupMemoryKeep = "memory-keep"
)

// defaultGroups tags a tool registered without explicit groups by its annotations.
func defaultGroups(a Annotations) []string {
	if a.ReadOnly && !a.NeedsApproval() {
		return []string{GroupReadOnly}
	}
	return []string{GroupTask}
}

// inGroup reports whether a tool tagged with tags (and annotated a) is shown to
// a turn of group g. This is the one place the group rules live: the task group
// includes the read-only tools; memory-keep is the memory group less what
// erases; "none" and "" show nothing.
func inGroup(tags []string, a Annotations, g string) bool {
	if g == "" || g == GroupNone {
		return false
	}
	if g == GroupMemoryKeep {
		return !a.Destructive && inGroup(tags, a, GroupMemory)
	}
	for _, t := range tags {
		if t == g || (g == GroupTask && t == GroupReadOnly) {
			return true
		}
	}
	return false
}
