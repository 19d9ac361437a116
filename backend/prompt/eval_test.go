package prompt

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/session"
	"hermes/backend/store"
)

// The evaluation fixture: long conversations in which the user states facts early and
// asks about them at the end. Each question names the message that holds its answer.
// Regenerate with: go test ./backend/prompt -run TestContextEval -update

type fact struct{ statement, ack, question string }

var evalFacts = []fact{
	{"I bought wireless earphones yesterday for 199 dollars, the white Sony ones.", "Nice, enjoy them!", "Do the earphones I bought yesterday support noise cancelling?"},
	{"My sister Clara lives in Lyon and works as a nurse at the children's hospital.", "That sounds like meaningful work.", "What does my sister do for work?"},
	{"I'm allergic to peanuts, so please never suggest satay or peanut sauce.", "Understood, no peanuts.", "Can you suggest a snack, keeping my allergy in mind?"},
	{"My flight to Tokyo leaves on March 14 at 9:40 from gate B12.", "Noted, have a good trip.", "What time does my Tokyo flight leave?"},
	{"Our team's quarterly budget is 48,000 euros and marketing gets a third of it.", "Got it.", "How much of the team budget goes to marketing?"},
	{"My dog Pepper is a five year old border collie who hates thunderstorms.", "Poor Pepper!", "Any tips to calm Pepper down during a storm?"},
	{"The router at the cabin is in the attic, next to the old skis.", "Good to know.", "Where was the router at the cabin again?"},
	{"I started learning the cello in September with a teacher named Ines.", "How exciting!", "How long have I been learning the cello?"},
	{"My landlord said the rent goes up to 1,450 in January.", "That's a big jump.", "What is my new rent going to be?"},
	{"I'm training for a half marathon on October 5 and run four times a week.", "Great goal.", "How many weeks are left until my half marathon?"},
	{"My car is a blue 2015 Honda Civic with a broken left mirror.", "You should get that mirror fixed.", "Where can I get the mirror on my Civic repaired?"},
	{"Dinner with the Nakamuras is on Saturday, and they don't eat pork.", "Thanks for the heads-up.", "What should I cook for the Nakamuras?"},
	{"我昨天买了一副无线耳机，花了199元，是白色的。", "不错，好好享受！", "我昨天买的耳机支持降噪吗？"},
	{"我妹妹叫小雨，在杭州当老师。", "当老师很辛苦也很有意义。", "我妹妹小雨是做什么工作的？"},
	{"我对花生过敏，千万别给我推荐花生酱。", "明白了，不推荐花生。", "考虑到我的过敏，推荐个零食吧？"},
	{"下周三下午三点我要去医院复查牙齿。", "好的，记得准时。", "我去医院复查牙齿是几点？"},
	{"我的猫叫年糕，今年两岁，特别怕吸尘器。", "年糕真可爱。", "年糕最怕什么东西来着？"},
	{"公司年会定在12月20号，在西湖边的望湖酒店。", "听起来很不错。", "年会在哪个酒店举行？"},
	{"我租的房子每月房租是3500元，押一付三。", "了解。", "我每月房租是多少钱？"},
	{"我正在学吉他，老师姓王，每周六上午上课。", "坚持下去！", "我的吉他课是星期几？"},
	{"我的车是一辆白色的丰田卡罗拉，去年买的。", "卡罗拉很省油。", "我的卡罗拉多久保养一次比较好？"},
	{"我老家在四川绵阳，每年春节都回去。", "绵阳是个好地方。", "我老家是哪个城市？"},
}

var evalFiller = [][2]string{
	{"How do I convert a PDF into an editable document?", "Open it in a word processor that imports PDFs, or use an OCR tool if the PDF is scanned. Check the layout afterwards, since tables and columns often need fixing by hand."},
	{"Explain photosynthesis in simple words.", "Plants use sunlight to turn water and carbon dioxide into sugar for energy, and they release oxygen as a by-product. Chlorophyll in the leaves captures the light."},
	{"What's a good stretching routine for the morning?", "Try five minutes: neck rolls, shoulder circles, a standing forward fold, a hip flexor lunge on each side and a gentle spinal twist. Breathe slowly and never bounce."},
	{"Can you give me a quick recipe for tomato soup?", "Soften an onion and garlic in olive oil, add chopped tomatoes and stock, simmer twenty minutes, blend, and season with salt, pepper and a little basil."},
	{"Why is the sky blue?", "Air molecules scatter short blue wavelengths of sunlight much more than long red ones, so blue light reaches your eyes from every direction of the sky."},
	{"How do I write a polite follow-up email?", "Keep it short: remind them of your earlier message, restate the one thing you need, offer help or a deadline, and thank them for their time."},
	{"What are some tips for better sleep?", "Keep a regular schedule, dim screens an hour before bed, keep the room cool and dark, and avoid caffeine in the afternoon."},
	{"Summarize the plot of a typical heist movie.", "A crew with special skills plans to steal something valuable, the plan goes wrong in the middle, and a twist near the end reveals who was really in control."},
	{"How does compound interest work?", "You earn interest on your original amount and on the interest already added, so growth speeds up over time, especially over long periods."},
	{"What should I pack for a weekend hike?", "Water, snacks, a map, layers for changing weather, a rain shell, a first aid kit, a headlamp and sun protection. Tell someone your route."},
	{"Give me ideas for a rainy afternoon.", "Bake bread, start a puzzle, sort old photos, watch a classic film, learn a few chords on an instrument or write letters to friends."},
	{"How do plants know which way is up?", "Cells sense gravity with dense starch grains that settle at the bottom, and hormones then steer growth so roots go down and shoots go up."},
	{"What is a good way to learn vocabulary?", "Use spaced repetition, learn words in short example sentences, say them out loud, and review a little every day instead of a lot once a week."},
	{"Explain what a neural network is.", "It is a stack of simple functions with adjustable weights; training nudges the weights so the whole stack maps inputs to the outputs you want."},
	{"怎么做番茄炒蛋？", "先把鸡蛋炒到半熟盛出，再炒番茄出汁，加一点糖和盐，最后把鸡蛋倒回去翻炒均匀就可以了。"},
	{"如何提高记忆力？", "保证睡眠，规律运动，学习时分段复习，多用联想和讲给别人听的方法，效果会更好。"},
	{"介绍一下光合作用。", "植物利用阳光，把水和二氧化碳转化成糖分，同时释放出氧气，叶绿素负责吸收光能。"},
	{"周末去哪里放松比较好？", "可以去郊外走走，逛逛博物馆，或者在家读书做饭，关键是远离工作消息，让自己真正休息。"},
	{"怎么写一封求职信？", "开头说明应聘的职位，中间结合经历说明你为什么合适，结尾表达期待面谈，并附上联系方式。"},
	{"解释一下复利。", "复利就是利息也会产生利息，时间越长，增长越快，所以越早开始储蓄越好。"},
	{"怎样养好一盆绿萝？", "放在散射光的地方，土干了再浇透水，夏天多喷水保湿，每个月施一次稀薄的肥料。"},
	{"跑步前需要热身吗？", "需要，先慢走或慢跑五分钟，再做一些动态拉伸，可以减少受伤的风险。"},
	{"给我讲讲海洋里的动物。", "海洋里有鲸鱼、海豚、章鱼、水母和各种鱼类，很多深海动物还会自己发光。"},
	{"如何安排学习时间？", "把大任务拆成小块，每学习二十五分钟休息五分钟，晚上简单回顾当天的内容。"},
}

const (
	evalSessions = 10
	evalTurns    = 200
	evalFacts_   = 5
	evalBudget   = 2048
)

type evalQuestion struct {
	ID      string   `json:"id"`
	Session string   `json:"session"`
	Query   string   `json:"query"`
	Budget  int      `json:"budget"`
	Answers []string `json:"answers"`
}

func generateEval(t *testing.T, dir string) {
	rng := rand.New(rand.NewPCG(7, 11))
	sf, err := os.Create(filepath.Join(dir, "eval_sessions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	qf, _ := os.Create(filepath.Join(dir, "eval_questions.jsonl"))
	defer qf.Close()
	se, qe := json.NewEncoder(sf), json.NewEncoder(qf)
	se.SetEscapeHTML(false)
	qe.SetEscapeHTML(false)
	for s := 0; s < evalSessions; s++ {
		sref := fmt.Sprintf("conv%02d", s)
		picked := rng.Perm(len(evalFacts))[:evalFacts_]
		slots := map[int]int{} // turn -> fact
		for _, f := range picked {
			for {
				turn := rng.IntN(evalTurns - 20) // never among the last 20 turns
				if _, taken := slots[turn]; !taken {
					slots[turn] = f
					break
				}
			}
		}
		answer := map[int]string{}
		for turn := 0; turn < evalTurns; turn++ {
			user, reply := "", ""
			if f, ok := slots[turn]; ok {
				user, reply = evalFacts[f].statement, evalFacts[f].ack
				answer[f] = fmt.Sprintf("%s-u%03d", sref, turn)
			} else {
				p := evalFiller[rng.IntN(len(evalFiller))]
				user, reply = p[0], p[1]
			}
			ts := fmt.Sprintf("2026-10-%02dT%02d:%02d:00Z", 1+turn/24, turn%24, rng.IntN(60))
			se.Encode(session.ImportLine{Session: sref, ID: fmt.Sprintf("%s-u%03d", sref, turn), Role: "user", Content: user, CreatedAt: ts})
			se.Encode(session.ImportLine{Session: sref, ID: fmt.Sprintf("%s-a%03d", sref, turn), Role: "assistant", Content: reply, CreatedAt: ts})
		}
		for i, f := range picked {
			qe.Encode(evalQuestion{ID: fmt.Sprintf("%s-q%d", sref, i), Session: sref, Query: evalFacts[f].question, Budget: evalBudget, Answers: []string{answer[f]}})
		}
	}
}

func readQuestions(t *testing.T, file string) []evalQuestion {
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("%v (regenerate with -update)", err)
	}
	defer f.Close()
	var out []evalQuestion
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q evalQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	return out
}

// truncate is the baseline: the newest messages that fit, newest first.
func truncate(system, query string, history []session.Message, budget int) map[string]bool {
	used := Estimate(system) + Estimate(query) + 2*MessageOverhead
	in := map[string]bool{}
	for i := len(history) - 1; i >= 0; i-- {
		c := Estimate(history[i].Content) + MessageOverhead
		if used+c > budget {
			break
		}
		used += c
		in[history[i].Ref] = true
	}
	return in
}

// TestContextEval measures the share of answer turns inside the built context at a
// 2,048-token budget, for the builder and for plain newest-first truncation.
func TestContextEval(t *testing.T) {
	dir := "testdata"
	if *update {
		generateEval(t, dir)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := session.NewStore(db)
	f, err := os.Open(filepath.Join(dir, "eval_sessions.jsonl"))
	if err != nil {
		t.Fatalf("%v (regenerate with -update)", err)
	}
	lines, err := session.ParseImport(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Import(ctx, lines, nil); err != nil {
		t.Fatal(err)
	}
	qs := readQuestions(t, filepath.Join(dir, "eval_questions.jsonl"))
	b := NewBuilder()
	const system = "You are Hermes, a private assistant."
	hermes, trunc := 0, 0
	byLang := map[bool][2]int{}
	for _, q := range qs {
		s, err := st.Get(ctx, q.Session)
		if err != nil {
			t.Fatal(err)
		}
		hist, _ := st.Messages(ctx, s.ID)
		c := b.Build(ctx, Input{System: system, Query: q.Query, History: hist, Budget: q.Budget})
		if c.Tokens > q.Budget {
			t.Fatalf("%s: %d tokens over budget %d", q.ID, c.Tokens, q.Budget)
		}
		got := map[string]bool{}
		for _, r := range c.Refs() {
			got[r] = true
		}
		base := truncate(system, q.Query, hist, q.Budget)
		zh := strings.ContainsFunc(q.Query, func(r rune) bool { return r > 0x2e80 })
		l := byLang[zh]
		for _, a := range q.Answers {
			if got[a] {
				hermes++
				l[0]++
			}
			if base[a] {
				trunc++
			}
			l[1]++
		}
		byLang[zh] = l
	}
	total := 0
	for _, q := range qs {
		total += len(q.Answers)
	}
	hs, ts := float64(hermes)/float64(total), float64(trunc)/float64(total)
	t.Logf("answer turns in context at %d tokens: hermes %d/%d (%.1f%%: en %d/%d, zh %d/%d), truncation %d/%d (%.1f%%)",
		evalBudget, hermes, total, 100*hs, byLang[false][0], byLang[false][1], byLang[true][0], byLang[true][1], trunc, total, 100*ts)
	if hs < 4*ts || hs < 0.5 {
		t.Fatalf("hermes %.3f vs truncation %.3f: want at least 4x and at least half", hs, ts)
	}
}
