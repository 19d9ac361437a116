package agent

import (
	"strings"
	"testing"
)

func TestPlanFor(t *testing.T) {
	for _, tc := range []struct {
		label     string
		want      Plan
		wantLabel string
	}{
		{"chitchat", Plan{Recall: false, RecallK: 0, MayWriteMemory: false, ToolGroup: ToolsNone}, "chitchat"},
		{"question", Plan{Recall: false, RecallK: 0, MayWriteMemory: false, ToolGroup: ToolsReadOnly}, "question"},
		{"task", Plan{Recall: true, RecallK: 3, MayWriteMemory: false, ToolGroup: ToolsTask}, "task"},
		{"remember", Plan{Recall: true, RecallK: 5, MayWriteMemory: true, ToolGroup: ToolsMemory}, "remember"},
		{"recall", Plan{Recall: true, RecallK: 10, MayWriteMemory: false, ToolGroup: ToolsReadOnly}, "recall"},
		{"forget", Plan{Recall: true, RecallK: 10, MayWriteMemory: false, ToolGroup: ToolsMemory}, "forget"},
		{"hypothetical", Plan{Recall: false, RecallK: 0, MayWriteMemory: false, ToolGroup: ToolsReadOnly}, "hypothetical"},
		{"unknown", Plan{Recall: true, RecallK: 5, MayWriteMemory: false, ToolGroup: ToolsReadOnly}, "unknown"},
		{"", Plan{Recall: true, RecallK: 5, MayWriteMemory: false, ToolGroup: ToolsReadOnly}, "unknown"},
		{"greeting", Plan{Recall: true, RecallK: 5, MayWriteMemory: false, ToolGroup: ToolsReadOnly}, "unknown"},
		{"Remember", Plan{Recall: true, RecallK: 5, MayWriteMemory: false, ToolGroup: ToolsReadOnly}, "unknown"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			got := PlanFor(tc.label, 0.75)
			want := tc.want
			want.Intent, want.Confidence = tc.wantLabel, 0.75
			if got != want {
				t.Fatalf("PlanFor(%q) = %+v, want %+v", tc.label, got, want)
			}
		})
	}
}

// Invariants that must survive any edit of the table.
func TestPolicyInvariants(t *testing.T) {
	for _, label := range planOrder {
		p := policy[label]
		t.Run(label, func(t *testing.T) {
			if p.MayWriteMemory != (label == "remember") {
				t.Errorf("only remember may write memory")
			}
			if p.Recall != (p.RecallK > 0) {
				t.Errorf("recall %v with K %d", p.Recall, p.RecallK)
			}
			switch p.ToolGroup {
			case ToolsNone, ToolsReadOnly, ToolsTask, ToolsMemory:
			default:
				t.Errorf("unknown tool group %q", p.ToolGroup)
			}
		})
	}
	if len(planOrder) != len(policy) {
		t.Fatalf("planOrder has %d rows, policy %d", len(planOrder), len(policy))
	}
}

func TestPlanTableMarkdown(t *testing.T) {
	md := PlanTableMarkdown()
	lines := strings.Split(strings.TrimSpace(md), "\n")
	if len(lines) != 2+len(planOrder) {
		t.Fatalf("%d lines:\n%s", len(lines), md)
	}
	for _, want := range []string{
		"| chitchat | no | - | no | none |",
		"| remember | yes | 5 | yes | memory |",
		"| forget | yes | 10 | no | memory |",
		"| unknown | yes | 5 | no | read-only |",
	} {
		if !strings.Contains(md, want+"\n") {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
}

func TestEraseAsked(t *testing.T) {
	for text, want := range map[string]bool{
		"Forget that I'm allergic to peanuts":        true,
		"please delete my address":                   true,
		"Stop remembering where I work":              true,
		"忘掉我对花生过敏这件事":                                true,
		"删掉你记得的我的地址":                                 true,
		"Don't forget that I'm allergic to peanuts":  false,
		"do not forget my dentist appointment":       false,
		"Please research what I said about peanuts":  false,
		"What does the document say about the pump?": false,
		"别忘了我对花生过敏":                                  false,
		"请研究一下我说过的关于花生的事":                            false,
		"I removed the cover of the pump":            false, // a past action, not a request
	} {
		if got := EraseAsked(text); got != want {
			t.Errorf("EraseAsked(%q) = %v; want %v", text, got, want)
		}
	}
	p := guardErase(PlanFor("forget", 0.9), "Please research what I said about peanuts")
	if p.ToolGroup != ToolsMemoryKeep {
		t.Errorf("a forget plan for a message that asks no deletion offers %s", p.ToolGroup)
	}
	if p := guardErase(PlanFor("forget", 0.9), "forget my address"); p.ToolGroup != ToolsMemory {
		t.Errorf("an explicit forget offers %s", p.ToolGroup)
	}
}
