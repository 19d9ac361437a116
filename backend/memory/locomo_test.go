package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"hermes/backend/retrieval"
)

// A LoCoMo-style evaluation the project builds itself (nothing is downloaded): long
// multi-session conversations, each session dated, every user turn stored as a
// memory (imported with the session's date), and questions whose evidence is
// specific turns. Question kinds: "lexical" (shares a content word with its
// evidence), "paraphrase" (shares none: "what is my job?" for "I work as a
// nurse"), "temporal" (the same kind of event happened in several months; only
// the date tells which: "where did I travel last May?") and "multihop" (two
// turns: "my sister is Lena" and "Lena became a dentist").
//
// The generator is deterministic; locomoNow is the day the questions are asked.
//
// Tried here and not kept (issue 17, "kept only if it helps"):
//   - word co-occurrence vectors learnt from each profile's own memories (PPMI
//     over the words of a memory, random projection to 128 dimensions) as a third
//     list: alone hit@10 0.149; fused by rank with Hermes' top 20 at weight 0.3 or
//     0.6, hit@10 0.851 against Hermes' 0.865 on the same run (paraphrase 0.792 ->
//     0.771, lexical 0.939 -> 0.879, temporal 0.844 -> 0.867); at weight 1, 0.723.
//     A user's own turns never put "job" next to "nurse", so it learns no synonyms.
//   - neighbour expansion (the turns within 10 minutes of the 3 best lexical hits
//     as candidates): hit@10 0.872 -> 0.872, recall@10 0.833 -> 0.830. Here the
//     evidence turns are never next to each other, so it can only add noise.

var locomoNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

type locoTurn struct {
	ID   string
	Text string
	At   time.Time
}

type locoQuestion struct {
	Conv     string
	Kind     string
	Q        string
	Evidence []string // turn ids
}

type locoConv struct {
	ID    string
	Turns []locoTurn
}

// enPersona holds what one English-speaking user tells over the sessions.
type enPersona struct {
	job, workplace, city, partner, sister, sisterCity, sisterJob, pet, petName, sport, allergen, diet string
	trips                                                                                             [3]string
	bands                                                                                             [3]string
}

var enPersonas = []enPersona{
	{"nurse", "St Mary's hospital emergency department", "Lisbon", "Ana", "Lena", "Porto", "dentist", "cat", "Miso", "marathon training", "shellfish", "vegetarian",
		[3]string{"Kyoto", "Iceland", "Sicily"}, [3]string{"Radiohead", "Arcade Fire", "Portishead"}},
	{"software engineer", "a small robotics startup", "Leeds", "Tom", "Maya", "Glasgow", "pilot", "dog", "Biscuit", "rock climbing", "penicillin", "vegan",
		[3]string{"Morocco", "Norway", "Crete"}, [3]string{"Coldplay", "Bon Iver", "The National"}},
	{"primary school teacher", "Greenfield Primary", "Denver", "Sam", "Julia", "Austin", "architect", "parrot", "Kiwi", "swimming", "bee stings", "gluten free",
		[3]string{"Peru", "Vietnam", "Scotland"}, [3]string{"Metallica", "Adele", "Beck"}},
	{"accountant", "a firm near the harbour", "Sydney", "Chris", "Hana", "Perth", "journalist", "rabbit", "Clover", "cycling", "latex", "pescatarian",
		[3]string{"Bali", "Chile", "Tasmania"}, [3]string{"Tame Impala", "Lorde", "Muse"}},
	{"chef", "an Italian restaurant downtown", "Toronto", "Priya", "Nora", "Montreal", "lawyer", "dog", "Pepper", "yoga", "walnuts", "halal",
		[3]string{"Mexico", "Portugal", "Jordan"}, [3]string{"Drake", "Feist", "Blur"}},
	{"electrician", "the city council", "Dublin", "Aoife", "Ciara", "Cork", "pharmacist", "cat", "Smudge", "football", "pollen", "low sugar",
		[3]string{"Croatia", "Canada", "Egypt"}, [3]string{"U2", "Hozier", "Oasis"}},
}

type zhPersona struct {
	job, city, sister, sisterCity, sisterJob, pet, petName, sport string
	trips                                                         [3]string
}

var zhPersonas = []zhPersona{
	{"护士", "成都", "小雨", "上海", "律师", "猫", "豆豆", "跑步", [3]string{"云南", "西藏", "厦门"}},
	{"程序员", "杭州", "小美", "北京", "医生", "狗", "旺财", "游泳", [3]string{"海南", "新疆", "桂林"}},
	{"老师", "武汉", "小芳", "广州", "设计师", "兔子", "雪球", "瑜伽", [3]string{"日本", "泰国", "青岛"}},
}

var enFillers = []string{
	"Work was exhausting today, I barely had time for lunch.",
	"The weather has been awful all week, so much rain.",
	"Can you recommend a good podcast for the commute?",
	"I watched a documentary about octopuses last night, fascinating.",
	"My neighbour keeps playing loud music after midnight.",
	"I need to buy a new phone, mine keeps freezing.",
	"Traffic was terrible this morning, I was late again.",
	"I'm thinking of repainting the living room green.",
	"My friend told me a hilarious story about her cousin's wedding.",
	"I finally cleaned out the garage this weekend.",
	"Do you think it is worth learning to code at my age?",
	"I had the weirdest dream about flying trains.",
	"We had a long meeting about the new schedule, nothing decided.",
	"I burned the toast again this morning.",
	"My back hurts from sitting at the desk all day.",
	"I started reading a thriller, can't put it down.",
	"The supermarket was out of eggs, annoying.",
	"I'm trying to drink more water during the day.",
	"The train was cancelled so I worked from home.",
	"I spent the evening sorting old photos.",
	"Our team won the pub quiz, first time ever!",
	"I am so tired, I think I need a holiday.",
	"Thinking about getting a plant for the balcony.",
	"My laptop battery is dying, need to replace it soon.",
	"I went for a walk in the park, the leaves are changing.",
	"Just paid the electricity bill, it went up again.",
	"My mum called, she wants us to visit at Christmas.",
	"I tried a new recipe for soup, it was okay.",
	"Can you help me write an email to my landlord?",
	"I lost my keys for an hour this morning.",
}

var zhFillers = []string{
	"今天上班好累，午饭都没时间吃。",
	"这周一直在下雨，心情不太好。",
	"推荐一个通勤路上听的播客吧。",
	"昨晚看了一部关于海洋的纪录片。",
	"邻居半夜还在放音乐，太吵了。",
	"我的手机总是卡，想换一个新的。",
	"早上堵车，又迟到了。",
	"周末把房间打扫了一遍。",
	"朋友给我讲了一个很好笑的故事。",
	"最近在看一本悬疑小说，停不下来。",
	"超市的鸡蛋卖完了。",
	"我想多喝点水。",
	"晚上整理了一下旧照片。",
	"妈妈打电话让我们春节回家。",
	"试着做了一个新汤，味道一般。",
	"我好累，想休息几天。",
	"电费又涨了。",
	"今天去公园散步，叶子都黄了。",
}

// locomoSessions are the days of the sessions: about monthly from March 2025.
func locomoSessions() []time.Time {
	var out []time.Time
	for i := 0; i < 20; i++ {
		out = append(out, time.Date(2025, time.March+time.Month(i), 3+(i*7)%20, 19, 0, 0, 0, time.UTC))
	}
	return out
}

// monthPhrase words month t relative to locomoNow as a user would: "last May"
// (within the past year), "in July 2025" otherwise; Chinese "去年七月" or "今年五月".
func monthPhrase(t time.Time, zh bool) string {
	cn := []string{"", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"}
	if zh {
		if t.Year() == locomoNow.Year() {
			return "今年" + cn[t.Month()] + "月"
		}
		return "去年" + cn[t.Month()] + "月"
	}
	if t.Year() == locomoNow.Year() || (t.Year() == locomoNow.Year()-1 && t.Month() > locomoNow.Month()) {
		return "last " + t.Month().String()
	}
	return fmt.Sprintf("in %s %d", t.Month(), t.Year())
}

// buildLocomo generates the conversations and questions.
func buildLocomo() ([]locoConv, []locoQuestion) {
	days := locomoSessions()
	var convs []locoConv
	var qs []locoQuestion
	for pi := range len(enPersonas) + len(zhPersonas) {
		zh := pi >= len(enPersonas)
		id := fmt.Sprintf("conv-%d", pi)
		r := rand.New(rand.NewPCG(uint64(pi), 17))
		// Facts and events, each placed in a session.
		type item struct {
			key  string
			text string
		}
		plan := make([][]item, len(days))
		put := func(session int, key, text string) { plan[session] = append(plan[session], item{key, text}) }
		tripSessions := []int{2 + pi%3, 9 + pi%4, 14 + pi%5}
		bandSessions := []int{4 + pi%2, 11 + pi%3, 17 + pi%3}
		if !zh {
			p := enPersonas[pi]
			put(0, "job", fmt.Sprintf("I work as a %s at %s, mostly night shifts.", p.job, p.workplace))
			put(1, "home", fmt.Sprintf("%s and I finally moved into a flat in %s.", p.partner, p.city))
			put(3, "sister", fmt.Sprintf("My sister %s lives in %s now.", p.sister, p.sisterCity))
			put(6, "pet", fmt.Sprintf("We adopted a %s and named it %s.", p.pet, p.petName))
			put(7, "sport", fmt.Sprintf("I've taken up %s, three times a week.", p.sport))
			put(8, "allergy", fmt.Sprintf("I found out I'm allergic to %s, had a bad reaction.", p.allergen))
			put(10, "sisterjob", fmt.Sprintf("%s just got a new position as a %s.", p.sister, p.sisterJob))
			put(12, "diet", fmt.Sprintf("I've been %s for a few months, no more meat for me.", p.diet))
			put(13, "partnerbday", fmt.Sprintf("%s turns thirty next week, planning a surprise party.", p.partner))
			for i, s := range tripSessions {
				put(s, fmt.Sprintf("trip%d", i), fmt.Sprintf("Just got back from %s, the scenery was unreal.", p.trips[i]))
			}
			for i, s := range bandSessions {
				put(s, fmt.Sprintf("band%d", i), fmt.Sprintf("Saw %s live at the arena tonight, what a show.", p.bands[i]))
			}
		} else {
			p := zhPersonas[pi-len(enPersonas)]
			put(0, "job", fmt.Sprintf("我在医院附近上班，是一名%s。", p.job))
			put(1, "home", fmt.Sprintf("我们终于搬到%s了。", p.city))
			put(3, "sister", fmt.Sprintf("我妹妹叫%s，她现在住在%s。", p.sister, p.sisterCity))
			put(6, "pet", fmt.Sprintf("我们领养了一只%s，叫%s。", p.pet, p.petName))
			put(7, "sport", fmt.Sprintf("我最近开始%s，每周三次。", p.sport))
			put(10, "sisterjob", fmt.Sprintf("%s刚找到新工作，当%s。", p.sister, p.sisterJob))
			for i, s := range tripSessions {
				put(s, fmt.Sprintf("trip%d", i), fmt.Sprintf("刚从%s回来，风景太美了。", p.trips[i]))
			}
		}
		conv := locoConv{ID: id}
		turnOf := map[string]string{}
		atOf := map[string]time.Time{}
		for si, day := range days {
			fillers := enFillers
			if zh {
				fillers = zhFillers
			}
			n := 8 + r.IntN(6)
			its := plan[si]
			slots := r.Perm(n + len(its))
			var texts = make([]string, n+len(its))
			var keys = make([]string, n+len(its))
			for i := 0; i < n; i++ {
				texts[slots[i]] = fillers[r.IntN(len(fillers))]
			}
			for i, it := range its {
				texts[slots[n+i]] = it.text
				keys[slots[n+i]] = it.key
			}
			for ti, t := range texts {
				tid := fmt.Sprintf("%s-s%d-t%d", id, si, ti)
				at := day.Add(time.Duration(ti) * time.Minute)
				conv.Turns = append(conv.Turns, locoTurn{ID: tid, Text: t, At: at})
				if keys[ti] != "" {
					turnOf[keys[ti]] = tid
					atOf[keys[ti]] = at
				}
			}
		}
		convs = append(convs, conv)
		q := func(kind, text string, ev ...string) {
			var ids []string
			for _, k := range ev {
				ids = append(ids, turnOf[k])
			}
			qs = append(qs, locoQuestion{Conv: id, Kind: kind, Q: text, Evidence: ids})
		}
		if !zh {
			p := enPersonas[pi]
			q("paraphrase", "What is my job?", "job")
			q("paraphrase", "What do I do for a living?", "job")
			q("lexical", "Where do I work night shifts?", "job")
			q("paraphrase", "Which city is my home?", "home")
			q("lexical", "Who did I move into the flat with?", "home")
			q("paraphrase", "Do I have any pets?", "pet")
			q("lexical", fmt.Sprintf("What is the name of my %s?", p.pet), "pet")
			q("paraphrase", "What exercise do I do regularly?", "sport")
			q("lexical", "What am I allergic to?", "allergy")
			q("paraphrase", "Is there any food I should avoid for my diet?", "diet")
			q("lexical", fmt.Sprintf("When is %s's birthday?", p.partner), "partnerbday")
			q("multihop", "What does my sister do for work?", "sister", "sisterjob")
			q("multihop", "What is the profession of my sibling who lives in "+p.sisterCity+"?", "sister", "sisterjob")
			for i := range 3 {
				q("temporal", fmt.Sprintf("Where did I travel %s?", monthPhrase(atOf[fmt.Sprintf("trip%d", i)], false)), fmt.Sprintf("trip%d", i))
				q("temporal", fmt.Sprintf("Which band did I see live %s?", monthPhrase(atOf[fmt.Sprintf("band%d", i)], false)), fmt.Sprintf("band%d", i))
			}
		} else {
			p := zhPersonas[pi-len(enPersonas)]
			q("paraphrase", "我的职业是什么？", "job")
			q("paraphrase", "我在哪个城市生活？", "home")
			q("paraphrase", "我养了什么宠物？", "pet")
			q("lexical", fmt.Sprintf("我的%s叫什么名字？", p.pet), "pet")
			q("paraphrase", "我平时做什么运动？", "sport")
			q("multihop", "我妹妹做什么工作？", "sister", "sisterjob")
			for i := range 3 {
				q("temporal", fmt.Sprintf("我%s去哪里旅行了？", monthPhrase(atOf[fmt.Sprintf("trip%d", i)], true)), fmt.Sprintf("trip%d", i))
			}
		}
	}
	return convs, qs
}

// locomoEnv imports the generated conversations (one profile each) into a store
// whose clock is locomoNow.
func locomoEnv(t *testing.T, tweak func(*Config)) (*env, []locoQuestion) {
	convs, qs := buildLocomo()
	e := newEnv(t, tweak)
	e.clock.Advance(locomoNow.Sub(e.clock.Now()))
	ctx := context.Background()
	for _, c := range convs {
		var b strings.Builder
		for _, turn := range c.Turns {
			line, _ := json.Marshal(map[string]string{"id": turn.ID, "text": turn.Text, "created_at": turn.At.Format(time.RFC3339)})
			b.Write(line)
			b.WriteByte('\n')
		}
		if _, err := e.s.ImportJSONL(ctx, strings.NewReader(b.String()), ImportOptions{Profile: c.ID}); err != nil {
			t.Fatal(err)
		}
	}
	return e, qs
}

// TestLocomoEval reports hit@10 and recall@10 of Hermes' search and of plain BM25
// (the same FTS5 index, every word as it is) on the generated conversations, by
// question kind, and requires Hermes to beat BM25 by at least 10 points hit@10.
func TestLocomoEval(t *testing.T) {
	ctx := context.Background()
	e, qs := locomoEnv(t, nil)
	ref, ridRef := map[string]string{}, map[int64]string{}
	rows, err := e.s.db.QueryContext(ctx, `SELECT rid, id, ref FROM memories`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var rid int64
		var id, r string
		if err := rows.Scan(&rid, &id, &r); err != nil {
			t.Fatal(err)
		}
		ref[id], ridRef[rid] = r, r
	}
	rows.Close()
	rankers := []struct {
		name string
		rank func(profile, q string) []string
	}{
		{"hermes", func(p, q string) []string {
			hits, err := e.s.Search(ctx, p, q, 10)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, h := range hits {
				out = append(out, ref[h.MemoryID])
			}
			return out
		}},
		{"bm25", func(p, q string) []string {
			hits, err := e.s.lexical(ctx, p, retrieval.PlainTerms(q), 10)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, h := range hits {
				out = append(out, ridRef[h.rid])
			}
			return out
		}},
	}
	type score struct{ hit, rec, n float64 }
	results := map[string]map[string]*score{}
	for _, r := range rankers {
		results[r.name] = map[string]*score{}
		for _, q := range qs {
			got := r.rank(q.Conv, q.Q)
			found := 0
			for _, ev := range q.Evidence {
				for _, g := range got {
					if g == ev {
						found++
						break
					}
				}
			}
			for _, k := range []string{"all", q.Kind} {
				s := results[r.name][k]
				if s == nil {
					s = &score{}
					results[r.name][k] = s
				}
				s.n++
				if found > 0 {
					s.hit++
				}
				s.rec += float64(found) / float64(len(q.Evidence))
			}
			if os.Getenv("MEMORY_EVAL_MISSES") != "" && found == 0 {
				t.Logf("  %s miss [%s] %q -> %v", r.name, q.Kind, q.Q, q.Evidence)
			}
		}
	}
	for _, k := range []string{"all", "lexical", "paraphrase", "temporal", "multihop"} {
		line := fmt.Sprintf("%-10s", k)
		for _, r := range rankers {
			s := results[r.name][k]
			line += fmt.Sprintf("  %s hit@10 %.3f recall@10 %.3f", r.name, s.hit/s.n, s.rec/s.n)
		}
		t.Logf("%s (%d questions)", line, int(results["hermes"][k].n))
	}
	h, b := results["hermes"]["all"], results["bm25"]["all"]
	if h.hit/h.n < b.hit/b.n+0.10 {
		t.Errorf("hermes hit@10 %.3f does not beat bm25 %.3f by 10 points", h.hit/h.n, b.hit/b.n)
	}
	// A regression floor, not a quality figure (this set was written with the
	// topic lexicon): paraphrases need topics to rank when the words find
	// nothing (topicsRank); without that, hit@10 fell to 0.645.
	if h.hit/h.n < 0.85 {
		t.Errorf("hermes hit@10 %.3f on the generated set; it was 0.865 (paraphrases rank by topic when no word matches)", h.hit/h.n)
	}
}
