package text

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// A small hand-written concept lexicon: words (English, stemmed when first used) and
// Chinese words that name one topic of a person's life, so that a question about
// "my job" can reach "I work as a nurse" without a neural model. A word may sit in
// several concepts. The lexicon is deliberately small and general: the topics
// people tell an assistant about themselves.
var conceptWords = map[string]string{
	"job": `job jobs work works working worked career occupation profession employer employ employed living
		nurse doctor teacher engineer developer programmer lawyer accountant designer architect chef cook pilot
		mechanic plumber electrician pharmacist dentist scientist researcher consultant cashier waiter barista
		driver farmer firefighter police officer journalist writer editor librarian manager intern freelancer
		shift shifts office colleague colleagues coworker boss hired fired promotion salary company
		工作 职业 上班 护士 医生 老师 教师 工程师 程序员 律师 会计 设计师 厨师 司机 经理 同事 老板 公司 工资 加班`,
	"pet": `pet pets cat cats dog dogs puppy kitten parrot hamster rabbit bunny goldfish tortoise turtle
		宠物 猫 狗 小狗 小猫 鹦鹉 仓鼠 兔子 金鱼 乌龟`,
	"family": `family sister brother mother mom mum father dad parents parent son daughter wife husband kids kid
		children child grandmother grandma grandfather grandpa aunt uncle cousin niece nephew sibling siblings
		家人 家里 姐姐 妹妹 哥哥 弟弟 妈妈 母亲 爸爸 父亲 父母 女儿 儿子 孩子 老婆 老公 妻子 丈夫 奶奶 爷爷 外婆 姥姥`,
	"partner": `partner wife husband girlfriend boyfriend fiance fiancee spouse married wedding dating
		男朋友 女朋友 老婆 老公 妻子 丈夫 结婚 对象`,
	"home": `home house flat apartment live lives lived living moved move neighbourhood neighborhood address city town
		rent landlord roommate
		住 家 房子 公寓 搬家 搬到 城市 租房 房东 室友`,
	"food": `food eat eats eating ate meal meals diet cook cooking dish dishes cuisine vegetarian vegan breakfast lunch
		dinner restaurant favourite favorite snack pizza sushi pasta curry noodles rice bread cheese chocolate
		吃 饮食 菜 饭 早餐 午饭 晚饭 餐厅 素食 火锅 面条 米饭 饺子 零食`,
	"drink": `drink drinks drinking coffee tea beer wine juice soda espresso latte alcohol
		喝 咖啡 茶 啤酒 酒 果汁 奶茶`,
	"health": `health healthy allergy allergic allergies medication medicine pill pills ill illness sick disease
		doctor hospital blood pressure diabetes asthma injury injured surgery therapy pain headache migraine
		健康 过敏 药 生病 医院 病 血压 糖尿病 哮喘 受伤 手术 头疼 偏头痛`,
	"sport": `sport sports exercise exercising workout train training run runs running ran jog jogging swim swimming
		cycle cycling bike biking gym yoga hike hiking climb climbing football soccer tennis basketball
		marathon skiing ski surf surfing dance dancing
		运动 锻炼 跑步 游泳 骑车 健身 瑜伽 爬山 徒步 足球 网球 篮球 马拉松 滑雪 跳舞`,
	"hobby": `hobby hobbies music piano guitar violin drums sing singing band choir paint painting draw drawing
		photography photo knit knitting garden gardening play plays playing game games chess
		爱好 音乐 钢琴 吉他 小提琴 唱歌 画画 摄影 园艺 下棋 游戏`,
	"travel": `travel travelled traveled traveling travelling trip trips vacation holiday holidays visit visited
		flight flew fly journey abroad tour beach
		旅行 旅游 度假 出差 出国 飞 海边 去了`,
	"commute": `commute commuting car cars bus train subway metro tram drive driving ride bicycle
		通勤 地铁 公交 开车 汽车 骑车 火车`,
	"study": `study studying studies school university college degree course courses exam exams class classes
		master masters phd student thesis lecture learn learning
		学习 学校 大学 学位 课程 考试 上课 学生 论文 硕士 博士`,
	"birthday": `birthday born birth age anniversary 生日 出生 岁 纪念日`,
	"money": `money salary pay paid budget save saving savings spend spending bank loan debt mortgage invest
		钱 工资 存钱 预算 贷款 房贷 投资`,
	"reading": `book books novel novels read reading author library 书 小说 读书 看书 作者`,
	"film":    `movie movies film films cinema series show shows watch watched netflix 电影 电视剧 看剧 追剧`,
	"friend":  `friend friends buddy bestie 朋友 好友 闺蜜`,
	"language": `language languages speak speaking spanish french german chinese english japanese italian
		portuguese fluent 语言 说 英语 中文 日语 法语 西班牙语 德语`,
}

// lexicon is conceptWords indexed: built when first used (it stems every
// word: about 2 ms a Hermes process would pay at start, README "Start-up"),
// read-only after.
type lexicon struct {
	concepts map[string][]string // a stem or a Chinese word -> its concepts
	cjkWords []string            // the Chinese words, longest first
}

var theLexicon = sync.OnceValue(func() *lexicon {
	m := map[string][]string{}
	for c, words := range conceptWords {
		for _, w := range strings.Fields(words) {
			k := w
			if !IsCJK([]rune(w)[0]) {
				k = Stem(w)
			}
			if !contains(m[k], c) {
				m[k] = append(m[k], c)
			}
		}
	}
	var cjk []string
	for k := range m {
		if IsCJK([]rune(k)[0]) {
			cjk = append(cjk, k)
		}
	}
	// longest first so 搬家 is found before 家
	slices.SortFunc(cjk, func(a, b string) int {
		return cmp.Or(cmp.Compare(utf8.RuneCountInString(b), utf8.RuneCountInString(a)), strings.Compare(a, b))
	})
	return &lexicon{concepts: m, cjkWords: cjk}
})

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Concepts returns the concepts the words of s belong to, each once, in order of
// first mention: "what is my job?" -> ["job"]; "我的猫叫什么" -> ["pet"].
func Concepts(s string) []string {
	var out []string
	add := func(cs []string) {
		for _, c := range cs {
			if !contains(out, c) {
				out = append(out, c)
			}
		}
	}
	lex := theLexicon()
	for _, tok := range Tokens(Fold(s)) {
		if IsCJK([]rune(tok)[0]) {
			for _, w := range lex.cjkWords {
				if strings.Contains(tok, w) {
					add(lex.concepts[w])
				}
			}
			continue
		}
		if IsStopword(tok) {
			continue
		}
		add(lex.concepts[Stem(tok)])
	}
	return out
}

// ConceptToken is the index token of a concept: a word no text contains.
func ConceptToken(c string) string { return "zqc" + c }

// ConceptMembers returns the words of concept c as written in the lexicon.
func ConceptMembers(c string) []string { return strings.Fields(conceptWords[c]) }
