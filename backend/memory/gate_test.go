package memory

import (
	"slices"
	"testing"
)

func TestGate(t *testing.T) {
	cases := []struct {
		name     string
		in       GateInput
		allowed  bool
		explicit bool
	}{
		{"incognito never writes", GateInput{Intent: "remember", MayWriteMemory: true, Incognito: true, Text: "Remember that I am vegan"}, false, true},
		{"empty message", GateInput{Intent: "remember", MayWriteMemory: true, Text: "  "}, false, false},
		{"remember with explicit request", GateInput{Intent: "remember", MayWriteMemory: true, Text: "Remember that my dog is called Rex"}, true, true},
		{"remember request at the end", GateInput{Intent: "remember", MayWriteMemory: true, Text: "My manager is Priya, remember that."}, true, true},
		{"remember 记住", GateInput{Intent: "remember", MayWriteMemory: true, Text: "记住我的狗叫豆豆"}, true, true},
		{"remember 帮我记一下", GateInput{Intent: "remember", MayWriteMemory: true, Text: "帮我记一下，我住在成都"}, true, true},
		{"remember, two signals (time + quantity)", GateInput{Intent: "remember", MayWriteMemory: true, Text: "I stopped drinking coffee two months ago"}, true, false},
		{"remember, two signals (negation + preference)", GateInput{Intent: "remember", MayWriteMemory: true, Text: "I don't like horror movies"}, true, false},
		{"remember, Chinese negation + time", GateInput{Intent: "remember", MayWriteMemory: true, Text: "我以后不喝酒了"}, true, false},
		{"remember, Chinese quantity + preference", GateInput{Intent: "remember", MayWriteMemory: true, Text: "我最喜欢吃三个鸡蛋的煎饼"}, true, false},
		{"remember, a first-person statement needs no signal", GateInput{Intent: "remember", MayWriteMemory: true, Text: "I love jazz"}, true, false},
		{"remember, no signal", GateInput{Intent: "remember", MayWriteMemory: true, Text: "My dog is called Rex"}, true, false},
		{"remember, Chinese no signal", GateInput{Intent: "remember", MayWriteMemory: true, Text: "我是做前端开发的"}, true, false},
		{"remember, not first person", GateInput{Intent: "remember", MayWriteMemory: true, Text: "The meeting room is on floor 3, not 4"}, false, false},
		{"remember, a question about oneself", GateInput{Intent: "remember", MayWriteMemory: true, Text: "Am I allergic to anything?"}, false, false},
		{"remember, a Chinese question about oneself", GateInput{Intent: "remember", MayWriteMemory: true, Text: "你记得我对什么过敏吗"}, false, true},
		{"remember, a request phrased as a question", GateInput{Intent: "remember", MayWriteMemory: true, Text: "Can you remember that I work nights?"}, true, true},
		{"remember, a test", GateInput{Intent: "remember", MayWriteMemory: true, Text: "This is just a test: I am allergic to cats"}, false, false},
		{"remember, a Chinese test", GateInput{Intent: "remember", MayWriteMemory: true, Text: "测试一下：我对猫过敏"}, false, false},
		{"remember, an example", GateInput{Intent: "remember", MayWriteMemory: true, Text: "Example: I live in Paris and I love cheese"}, false, false},
		{"remember, role-play", GateInput{Intent: "remember", MayWriteMemory: true, Text: "Let's play a game: I'm the captain and you are the pirate"}, false, false},
		{"remember, another person's fact", GateInput{Intent: "remember", MayWriteMemory: true, Text: "my sister prefers tea over coffee"}, false, false},
		{"remember, another person's fact in Chinese", GateInput{Intent: "remember", MayWriteMemory: true, Text: "我妈不吃香菜"}, false, false},
		{"remember, another person's fact asked for", GateInput{Intent: "remember", MayWriteMemory: true, Text: "my wife's birthday is june 3rd, don't let me forget"}, true, true},
		{"remember, another person's fact asked for in Chinese", GateInput{Intent: "remember", MayWriteMemory: true, Text: "记住我老婆生日是十月八号"}, true, true},
		{"recall never", GateInput{Intent: "recall", Text: "I told you my locker code is 4471 last week"}, false, false},
		{"unknown, first-person key fact without an ask", GateInput{Intent: "unknown", Text: "I stopped drinking coffee two months ago"}, false, false},
		{"hypothetical never", GateInput{Intent: "hypothetical", Text: "Remember that if I were a pilot I would fly every day"}, false, true},
		{"chitchat never", GateInput{Intent: "chitchat", Text: "Remember me? I have been so happy today!"}, false, true},
		{"question never", GateInput{Intent: "question", Text: "I never understood how 2 plus 2 works"}, false, false},
		{"forget never", GateInput{Intent: "forget", Text: "Forget that I live in Berlin since 2020"}, false, false},
		{"task with first-person key fact", GateInput{Intent: "task", Text: "Book a table for 7pm, I can't eat gluten"}, true, false},
		{"task without first person", GateInput{Intent: "task", Text: "Convert 5 miles to km, not yards"}, false, false},
		{"recall question is not a statement", GateInput{Intent: "recall", Text: "Do you remember when I moved to Lisbon in 2024?"}, false, false},
		{"unknown intent, first-person explicit request", GateInput{Intent: "unknown", Text: "Please remember my passport expires soon"}, true, true},
		{"unknown intent, what-if", GateInput{Intent: "unknown", Text: "What if I never had 3 kids"}, false, false},
		{"task in Chinese, first person", GateInput{Intent: "task", Text: "帮我订明天的票，我不坐飞机"}, true, false},
		{"task in Chinese, question", GateInput{Intent: "task", Text: "我明天几点的飞机吗？"}, false, false},
		{"explicit add from the browser", GateInput{Text: "My dog is called Rex", Explicit: true}, true, true},
		{"explicit add while incognito", GateInput{Text: "My dog is called Rex", Explicit: true, Incognito: true}, false, true},
		{"higher threshold", GateInput{Intent: "task", Text: "I stopped drinking coffee two months ago", MinSignals: 3}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := Gate(tc.in)
			if d.Allowed != tc.allowed || d.Explicit != tc.explicit {
				t.Errorf("Gate = allowed %v explicit %v (%s, signals %v); want allowed %v explicit %v", d.Allowed, d.Explicit, d.Reason, d.Signals, tc.allowed, tc.explicit)
			}
			if d.Reason == "" {
				t.Error("no reason given")
			}
		})
	}
}

func TestKeyFactSignals(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"I moved here yesterday", []string{SignalTime}},
		{"I have 3 kids", []string{SignalQuantity}},
		{"I have two kids", []string{SignalQuantity}},
		{"I don't eat pork", []string{SignalNegation}},
		{"I never eat pork", []string{SignalNegation}},
		{"I hate pork", []string{SignalEmotion}},
		{"I'm allergic to pork", []string{SignalEmotion}},
		{"Every Monday at 7am I swim 2 km, I love it", []string{SignalTime, SignalQuantity, SignalEmotion}},
		{"我昨天搬家了", []string{SignalTime}},
		{"我有两只猫", []string{SignalQuantity}},
		{"我不吃猪肉", []string{SignalNegation}},
		{"我讨厌香菜", []string{SignalEmotion}},
		{"我每周三下午开会", []string{SignalTime}},
		{"我对花生过敏，从来没吃过", []string{SignalNegation, SignalEmotion}},
		{"The sky is blue", nil},
		{"天空是蓝色的", nil},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			if got := KeyFactSignals(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("KeyFactSignals = %v; want %v", got, tc.want)
			}
		})
	}
}

func TestAsksToRememberAndFirstPerson(t *testing.T) {
	asks := []struct {
		text string
		want bool
	}{
		{"Remember that I'm vegan", true},
		{"please remember my size is 44", true},
		{"Can you remember that I work nights?", true},
		{"Keep in mind that I hate olives", true},
		{"For future reference, I take the bus", true},
		{"I don't remember where I parked", false},
		{"I remember my first bike", false},
		{"Do you remember my birthday?", false},
		{"记住我不吃辣", true},
		{"别忘了我周三开会", true},
		{"我记得我小时候住在杭州", false},
		{"我记不住密码", false},
	}
	for _, tc := range asks {
		t.Run("asks "+tc.text, func(t *testing.T) {
			if got := AsksToRemember(tc.text); got != tc.want {
				t.Errorf("AsksToRemember = %v; want %v", got, tc.want)
			}
		})
	}
	first := []struct {
		text string
		want bool
	}{
		{"I live in Lisbon", true},
		{"My sister lives in Lisbon", true},
		{"Do I live in Lisbon?", false},
		{"What if I lived in Lisbon", false},
		{"Lisbon is nice", false},
		{"我住在里斯本", true},
		{"我住在哪里？", false},
		{"假如我住在里斯本", false},
	}
	for _, tc := range first {
		t.Run("first person "+tc.text, func(t *testing.T) {
			if got := FirstPersonStatement(tc.text); got != tc.want {
				t.Errorf("FirstPersonStatement = %v; want %v", got, tc.want)
			}
		})
	}
}
