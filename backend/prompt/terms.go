package prompt

import (
	"hermes/backend/lazyre"

	"hermes/backend/text"
)

// Terms are the topic words of a text, by the rule every search shares
// (text.Terms: stemmed words without stop words, CJK bigrams).
func Terms(s string) []string {
	ts := text.Terms(s)
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Text
	}
	return out
}

// anchorPatterns find turns that later messages tend to point back to: time
// expressions, numbers and amounts, demonstratives and negations, in English and Chinese.
var anchorPatterns = []*lazyre.Regexp{
	lazyre.New(`(?i)\b(yesterday|today|tonight|tomorrow|last (week|month|year|night|time)|next (week|month|year)|ago|earlier|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|in (january|february|march|april|may|june|july|august|september|october|november|december))\b`),
	lazyre.New(`\d`),
	lazyre.New(`(?i)\b(that one|this one|the one|those ones|these ones|the same one)\b`),
	lazyre.New(`(?i)\b(not|never|don't|doesn't|didn't|won't|can't|no longer|instead)\b`),
	lazyre.New(`昨天|今天|明天|前天|后天|上周|下周|上个月|下个月|去年|今年|明年|刚才|之前|以后|[一二三四五六七八九十百千万两]+(个|块|元|天|次|年|月|号|点)`),
	lazyre.New(`这个|那个|这些|那些|这款|那款|它`),
	lazyre.New(`不要|不是|没有|别|不想|不喜欢|不能|从不`),
}

// IsAnchor reports whether a text holds a time expression, a number, a demonstrative
// or a negation.
func IsAnchor(s string) bool {
	for _, re := range anchorPatterns {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
