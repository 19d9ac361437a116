package memory

import (
	"fmt"
	"hermes/backend/lazyre"
	"strings"
)

// Intents (docs/architecture.md, "Intent labels") that matter to the gate.
const (
	intentRemember     = "remember"
	intentForget       = "forget"
	intentHypothetical = "hypothetical"
	intentChitchat     = "chitchat"
	intentQuestion     = "question"
	intentRecall       = "recall"
	intentUnknown      = "unknown"
)

// Key-fact signals.
const (
	SignalTime     = "time"
	SignalQuantity = "quantity"
	SignalNegation = "negation"
	SignalEmotion  = "preference"
)

// Decision is the write gate's verdict on a turn.
type Decision struct {
	Allowed bool `json:"allowed"`
	// Explicit: the user asked to remember ("remember that…", "记住…"); the
	// key-fact rule is waived and stated facts become active.
	Explicit bool `json:"explicit"`
	// FirstPerson: the message is a declarative statement about the speaker.
	FirstPerson bool     `json:"first_person"`
	Signals     []string `json:"signals"`
	Reason      string   `json:"reason"`
}

// GateInput is what the gate looks at.
type GateInput struct {
	Intent         string
	MayWriteMemory bool
	Incognito      bool
	Text           string // the user's message
	// Explicit marks a direct user action (add in the memory browser or CLI).
	Explicit bool
	// MinSignals is the key-fact threshold (0 means 2).
	MinSignals int
}

// Gate decides whether a turn may write memory. It is the one place the rule
// is decided, for the background extraction and the memory tools alike, so
// nothing the extraction model returns can get past it:
//   - incognito never writes; a direct user action (Explicit) always does;
//   - hypothetical, chitchat, question, recall and forget turns never write;
//   - whatever the intent, a what-if, role-play, test or example never writes,
//     nor does a question (about oneself or anything else) unless it asks to
//     remember ("can you remember that…"), nor another person's fact ("my
//     friend is allergic to shellfish") unless the user asks to remember it;
//   - an explicit ask to remember passes;
//   - otherwise only a first-person statement passes: on a remember turn (the
//     plan may write memory) as it is, whether or not it says "remember"; on a
//     task turn when it is a key fact (at least two of time expression,
//     quantity, negation, strong preference or emotion, English and Chinese);
//     below the confidence threshold (unknown) never.
func Gate(in GateInput) Decision {
	d := Decision{Explicit: in.Explicit || AsksToRemember(in.Text), FirstPerson: FirstPersonStatement(in.Text)}
	d.Signals = KeyFactSignals(in.Text)
	min := in.MinSignals
	if min <= 0 {
		min = 2
	}
	switch {
	case in.Incognito:
		d.Reason = "incognito: nothing is remembered"
	case strings.TrimSpace(in.Text) == "":
		d.Reason = "empty message"
	case in.Explicit:
		d.Allowed, d.Reason = true, "added by the user"
	case in.Intent == intentHypothetical || in.Intent == intentChitchat || in.Intent == intentQuestion || in.Intent == intentForget || in.Intent == intentRecall:
		d.Reason = fmt.Sprintf("a %s message is never remembered", in.Intent)
	case reHypothetical.MatchString(in.Text):
		d.Reason = "a what-if, role-play, test or example is never remembered"
	case isQuestion(in.Text) && !requestsToRemember(in.Text):
		d.Reason = "a question is never remembered"
	case OtherPersonsFact(in.Text) && !d.Explicit:
		d.Reason = "another person's fact is remembered only when the user asks"
	case d.Explicit:
		d.Allowed, d.Reason = true, "the user asked to remember"
	case !d.FirstPerson:
		d.Reason = fmt.Sprintf("a %s message is remembered only when it is a first-person statement", intentOr(in.Intent))
	case in.MayWriteMemory:
		d.Allowed, d.Reason = true, "a first-person statement"
	case in.Intent == "" || in.Intent == intentUnknown:
		d.Reason = "not sure of the intent: remembered only when the user asks"
	case len(d.Signals) < min:
		d.Reason = fmt.Sprintf("not a key fact: %d of %d signals (time, quantity, negation, preference)", len(d.Signals), min)
	default:
		d.Allowed, d.Reason = true, "key fact: "+strings.Join(d.Signals, ", ")
	}
	return d
}

func intentOr(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// Patterns of the gate, English and Chinese. Compiled once; read-only.
var (
	reRememberStart = lazyre.New(`(?i)(?:^|[.!;\n]\s*)(?:(?:ok|okay|also|and|hey|so)[,\s]+)?(?:please\s+)?(?:remember|memori[sz]e|note|keep in mind|don'?t forget|do not forget|never forget|save this|write this down)\b`)
	reRememberAsk   = lazyre.New(`(?i)\b(?:please|pls|can you|could you|would you|will you|i want you to|i'd like you to|i would like you to|you should|make sure (?:to|you))\s+(?:please\s+)?(?:remember|memori[sz]e|note|keep in mind|save|store|not forget)\b|\bfor (?:future )?reference\b|\bmake a note\b|\btake (?:a )?note\b|\bkeep (?:this|that|it) in mind\b|\bremember (?:that|this|it)\s*[.!]*\s*$|\b(?:don'?t|do not) let me forget\b|\bsave (?:that|this|it)\s*[.!]*\s*$`)
	reRememberZH    = lazyre.New(`记住|记一下|记下来|记下|帮我记|请记得|你要记得|你记得我|别忘了|不要忘了|不要忘记|别忘记|备忘|存一下`)
	reQuestionStart = lazyre.New(`(?i)^\s*(?:what|who|whom|whose|where|when|why|how|which|do|does|did|can|could|would|will|is|are|am|was|were|should|shall|have|has)\b`)
	reHypothetical  = lazyre.New(`(?i)\b(?:what if|suppose|supposing|imagine|pretend|hypothetically|let'?s say|role-?play|for example|for instance|e\.g\.|as an example|example sentence|sample sentence|let'?s play|play a game|in character|just (?:a )?test(?:ing)?|only a test|this is a test|test message|testing(?: testing| 1 2 3)?\s*[:,!-])|\bexample\s*:|假如|假设|如果我是|想象一下|比如说|举个例子|举例|例句|扮演|角色扮演|假装|玩个游戏|测试一下|只是测试|这是测试|这是一个测试|测试消息|测试[:：]`)
	reRememberReqZH = lazyre.New(`记住|记一下|记下来|记下|帮我记|请记得|你要记得|别忘了|不要忘了|不要忘记|别忘记|备忘|存一下`)
	reOtherPersonEN = lazyre.New(`(?i)^\s*(?:(?:fyi|btw|so|oh|and|also|ok|okay|just so you know|heads up)[,:]?\s+)*(?:my|our)\s+(?:(?:best|old|new|little|big|older|younger|elder|twin|ex|step)[- ]?)?(?:friends?|sisters?|brothers?|siblings?|mom|mum|mother|dad|father|parents|wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|sons?|daughters?|kids?|child|children|baby|boss|manager|colleagues?|co-?workers?|neighbou?rs?|room-?mates?|flat-?mates?|cousins?|aunts?|uncles?|grandma|grandmother|grandpa|grandfather|grandparents|nephews?|nieces?|teachers?|classmates?|in-laws)(?:'s|’s)?\b`)
	reOtherPersonZH = lazyre.New(`^\s*(?:(?:顺便说下|顺便说一下|对了|跟你说|告诉你)[，,：:\s]*)?我(?:的)?(?:朋友|好朋友|同事|妈妈?|爸爸?|母亲|父亲|老婆|老公|妻子|丈夫|爱人|女朋友|男朋友|对象|儿子|女儿|孩子|哥哥?|姐姐?|弟弟?|妹妹?|老板|领导|上司|邻居|室友|表[哥姐弟妹]|堂[哥姐弟妹]|爷爷|奶奶|外公|外婆|同学|老师|闺蜜|兄弟)`)
	reFirstPersonEN = lazyre.New(`(?i)(?:^|[^\w'’])(?:i|i'm|i’m|im|i've|i’ve|i'd|i’d|i'll|i’ll|my|mine|me|myself)(?:[^\w'’]|$)`)
	reFirstPersonZH = lazyre.New(`我`)
	reQuestionZH    = lazyre.New(`(?:吗|呢|么)\s*[？?。.!！]*\s*$|^(?:什么|怎么|为什么|哪|谁|是否|能不能|可不可以|有没有)`)

	reTimeEN = lazyre.New(`(?i)\b(?:today|tonight|tomorrow|yesterday|now|currently|recently|lately|always|usually|often|every\s+(?:day|week|month|year|morning|evening|night|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|daily|weekly|monthly|yearly|annually|since|until|till|ago|morning|evening|night|weekend|weekday|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|january|february|march|april|june|july|august|september|october|november|december|(?:next|last|this)\s+(?:week|month|year|time|summer|winter|spring|fall|autumn|weekend)|anymore|any more|o'clock|\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{4}-\d{2}-\d{2}|(?:19|20)\d{2}|years?|months?|weeks?|days?|hours?|birthday|anniversary)\b`)
	reTimeZH = lazyre.New(`今天|明天|昨天|后天|前天|今晚|明晚|昨晚|早上|上午|中午|下午|晚上|凌晨|每天|每周|每月|每年|每晚|天天|周[一二三四五六日末]|星期[一二三四五六日天]|礼拜|上周|下周|本周|这周|上个?月|下个?月|这个月|去年|今年|明年|前年|\d+\s*(?:月|号|日|点|年)|[一二三四五六七八九十]+\s*(?:月|号|点)|以前|以后|之前|之后|最近|现在|目前|从小|一直|总是|经常|已经|刚刚|小时候|生日|周年|不再|再也`)

	reQuantityEN = lazyre.New(`(?i)\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|dozen|twice|thrice|half|several|couple|both|single|first|second|third)\b`)
	reQuantityZH = lazyre.New(`[0-9０-９]|[一二三四五六七八九十百千万两半几]\s*(?:个|只|条|次|岁|年|天|周|个月|小时|分钟|公斤|斤|公里|里|米|元|块|本|杯|口|位|辆|套|台|张|件|倍|层|间|份|顿|瓶|双)`)

	reNegationEN = lazyre.New(`(?i)\b(?:no|not|never|none|nobody|nothing|neither|nor|without|cannot|no longer|anymore)\b|n[’']t\b`)
	reNegationZH = lazyre.New(`不|没|别|未|无|非|莫|勿|甭|戒`)

	reEmotionEN = lazyre.New(`(?i)\b(?:love[sd]?|loving|hate[sd]?|hating|adore[sd]?|detest|despise|prefer(?:s|red)?|favou?rite|can'?t stand|cannot stand|allergic|allergy|allergies|afraid|scared|terrified|fear|excited|thrilled|passionate|obsessed|enjoy(?:s|ed)?|dislike[sd]?|disgust(?:ed|ing)?|upset|angry|furious|happy|sad|depressed|anxious|worried|proud|miss|crazy about|fond of|really (?:like|want|need)|can'?t live without|must|never again|(?:don'?t|do not|doesn'?t|does not|never|really|truly|absolutely) (?:like|liked|enjoy|want))\b`)
	reEmotionZH = lazyre.New(`喜欢|爱|最爱|热爱|讨厌|恨|厌恶|受不了|忍不了|偏爱|宁愿|宁可|更喜欢|害怕|怕|恐惧|过敏|开心|高兴|难过|伤心|生气|担心|焦虑|骄傲|想念|迷上|着迷|享受|反感|嫌|必须|一定要|最好`)
)

// AsksToRemember reports whether the user explicitly asks to remember something.
func AsksToRemember(text string) bool {
	return reRememberStart.MatchString(text) || reRememberAsk.MatchString(text) || reRememberZH.MatchString(text)
}

// requestsToRemember reports whether text asks to remember something, in a way
// that may be phrased as a question ("can you remember that…", "能帮我记一下吗").
func requestsToRemember(text string) bool {
	return reRememberStart.MatchString(text) || reRememberAsk.MatchString(text) || reRememberReqZH.MatchString(text)
}

// isQuestion reports whether text is phrased as a question.
func isQuestion(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？") || reQuestionStart.MatchString(t) || reQuestionZH.MatchString(t)
}

// OtherPersonsFact reports whether text states a fact about someone else ("my
// sister prefers tea", "我妈不吃香菜"): its subject is another person.
func OtherPersonsFact(text string) bool {
	return reOtherPersonEN.MatchString(text) || reOtherPersonZH.MatchString(text)
}

// FirstPersonStatement reports whether text states something about the speaker:
// it speaks in the first person, is not a question and is not a what-if.
func FirstPersonStatement(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || reHypothetical.MatchString(t) {
		return false
	}
	if isQuestion(t) {
		return false
	}
	return reFirstPersonEN.MatchString(t) || reFirstPersonZH.MatchString(t)
}

// KeyFactSignals lists the key-fact signals found in text, in a fixed order.
func KeyFactSignals(text string) []string {
	var out []string
	if reTimeEN.MatchString(text) || reTimeZH.MatchString(text) {
		out = append(out, SignalTime)
	}
	if reQuantityEN.MatchString(text) || reQuantityZH.MatchString(text) {
		out = append(out, SignalQuantity)
	}
	if reNegationEN.MatchString(text) || reNegationZH.MatchString(text) {
		out = append(out, SignalNegation)
	}
	if reEmotionEN.MatchString(text) || reEmotionZH.MatchString(text) {
		out = append(out, SignalEmotion)
	}
	return out
}
