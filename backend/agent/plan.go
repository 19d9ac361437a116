package agent

// Placeholder written by the lead so the package builds; the intent work replaces
// this file with the full routing table.

// ToolGroup names the set of tools a turn may see.
type ToolGroup string

// Plan is what a turn may do, decided from its intent.
type Plan struct {
	Intent         string
	Confidence     float32
	Recall         bool
	RecallK        int
	MayWriteMemory bool
	ToolGroup      ToolGroup
}

// PlanFor returns the plan for an intent label.
func PlanFor(label string, confidence float32) Plan {
	return Plan{Intent: label, Confidence: confidence, Recall: true, RecallK: 5, ToolGroup: "read-only"}
}
