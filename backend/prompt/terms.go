package prompt

import (
	"hermes/backend/lazyre"
	"strings"
	"unicode"

	"hermes/backend/text"
)

// stopwords carry no topic.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if of to in on at for with by from as is are was were be been being am do does did
		have has had i me my mine you your yours we our us he him his she her it its they them their this that these those
		what which who whom whose when where why how can could would should will shall may might must not no yes so too very
		just about again also than then there here all any some more most other such only own same into over under up down out
		please tell know think remember said say get got let like want need one ok okay hi hello thanks thank
		的 了 是 我 你 他 她 它 们 在 和 吗 呢 吧 啊 也 都 就 还 很 这 那 个 有 没 不 要 会 能 说 过 一 着`) {
		stopwords[w] = true
	}
}

// cjkStop are function characters: pronouns, particles, question words.
var cjkStop = map[rune]bool{}

func init() {
	for _, r := range "我你您的了是吗呢吧啊么什哪几个这那在和也都就还很有没" {
		cjkStop[r] = true
	}
}

// Terms are the topic words of a text: lower-cased Latin words (stopwords removed, a
// light plural fold) and the bigrams of CJK runs.
func Terms(s string) []string {
	var out []string
	var word []rune
	var run []rune
	flushWord := func() {
		if len(word) > 0 {
			w := string(word)
			if !stopwords[w] && (len(word) > 1 || unicode.IsDigit(word[0])) {
				if len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
					w = w[:len(w)-1]
				}
				out = append(out, w)
			}
			word = word[:0]
		}
	}
	flushRun := func() {
		switch {
		case len(run) == 1:
			if !stopwords[string(run)] {
				out = append(out, string(run))
			}
		case len(run) > 1:
			for i := 0; i+1 < len(run); i++ {
				if cjkStop[run[i]] || cjkStop[run[i+1]] {
					continue // a bigram with a function character carries no topic
				}
				out = append(out, string(run[i:i+2]))
			}
		}
		run = run[:0]
	}
	for _, r := range s {
		switch {
		case text.IsCJK(r):
			flushWord()
			run = append(run, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			flushRun()
			word = append(word, unicode.ToLower(r))
		default:
			flushWord()
			flushRun()
		}
	}
	flushWord()
	flushRun()
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
