package tools

import (
	"hermes/backend/lazyre"
	"strings"
)

// claimMatcher finds claims of done actions; it is only read after construction.
type claimMatcher struct {
	english []*lazyre.Regexp
	chinese *lazyre.Regexp
	hedges  *lazyre.Regexp
	// chineseHedges in the few characters before a Chinese claim undo it
	chineseHedges *lazyre.Regexp
}

// claim is compiled once; it is never changed.
var claim = newClaimMatcher()

const actionVerbs = `saved|created|sent|deleted|removed|erased|added|updated|scheduled|stored|written|wrote|booked|` +
	`set up|remembered|forgotten|forgot|noted|recorded|emailed|posted|uploaded|moved|renamed|cancel(?:l)?ed`

func newClaimMatcher() *claimMatcher {
	return &claimMatcher{
		english: []*lazyre.Regexp{
			// "I've saved", "I have just created", "We sent", "I successfully deleted"
			lazyre.New(`(?i)\b(?:i|we)(?:\s*['’]ve|\s+have)?\s+(?:(?:just|now|already|successfully|also)\s+)*(?:` + actionVerbs + `)\b`),
			// "has been saved", "was created", "were sent successfully" (not "is stored": that describes, it does not claim)
			lazyre.New(`(?i)\b(?:has|have|was|were)\s+(?:(?:now|just|already|successfully)\s+)*(?:been\s+)?(?:(?:now|just|already|successfully)\s+)*(?:` + actionVerbs + `)\b`),
			// "Saved!", "Done — created the file", "Created: notes.txt" at the start of a sentence
			lazyre.New(`(?i)^\s*(?:(?:done|ok|okay|all set)[,.!:—–-]*\s*)?(?:` + actionVerbs + `)\b`),
		},
		chinese: lazyre.New(`(?:已经?|已为您|已帮您|我已经?|成功)(?:保存|创建|发送|删除|添加|更新|记住|记下|安排|预订|移除|写入|上传|取消)|` +
			`(?:保存|创建|发送|删除|添加|更新|上传)(?:成功|完成|好了)`),
		// a claim in a conditional or a negation is not a claim
		hedges:        lazyre.New(`(?i)\b(?:if|once|when|after|before|until|unless|would|could|should|can|will|not|never)\b|n['’]t\b`),
		chineseHedges: lazyre.New(`如果|若|没|未|不|是否|等`),
	}
}

// ClaimsUnexecutedAction reports whether reply claims that an action was done
// ("I've saved…", "created", "sent", "deleted", "已保存", "已创建", "已发送", "已删除")
// although no tool call succeeded in the turn (succeeded lists the tools that
// did). The UI flags such a reply.
func ClaimsUnexecutedAction(reply string, succeeded []string) bool {
	if len(succeeded) > 0 {
		return false
	}
	return claim.claims(reply)
}

func (m *claimMatcher) claims(reply string) bool {
	for _, sentence := range splitSentences(reply) {
		trimmed := strings.TrimSpace(sentence)
		if strings.HasSuffix(trimmed, "?") || strings.HasSuffix(trimmed, "？") || strings.HasSuffix(trimmed, "吗") {
			continue
		}
		for _, loc := range m.chinese.FindAllStringIndex(sentence, -1) {
			before := []rune(sentence[:loc[0]])
			if !m.chineseHedges.MatchString(string(before[max(0, len(before)-4):])) {
				return true
			}
		}
		for _, re := range m.english {
			loc := re.FindStringIndex(sentence)
			if loc == nil {
				continue
			}
			// a hedge in the same sentence before the claim ("Once I've saved it…", "I have not saved")
			if m.hedges.MatchString(sentence[:loc[1]]) {
				continue
			}
			return true
		}
	}
	return false
}

// splitSentences cuts text after . ! ? and newlines, keeping the punctuation.
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if r == '.' || r == '!' || r == '?' || r == '\n' || r == '。' || r == '！' || r == '？' {
			end := i + len(string(r))
			out = append(out, s[start:end])
			start = end
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
