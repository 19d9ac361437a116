package datagen

// More phrasing families of issue 16, written for the borders the
// development and held-out confusions showed the model had too few
// wordings of: liking the assistant or its answer (chitchat, not a fact to
// keep), other people's facts in possessive form and test messages
// (hypothetical), yes/no and "when is my …" questions about oneself
// (recall), the user's job or name stated plainly (remember), live device
// and calendar look-ups phrased with "my" (task), safety and authorship
// questions (question), deleting a note by its content (forget). None was
// copied from backend/intent/testdata/challenge.jsonl, which no generator
// reads.

func init() {
	for label, byLang := range templatesV3 {
		for lang, tpls := range byLang {
			templates[label][lang] = append(templates[label][lang], tpls...)
		}
	}
	for k, v := range enSlotsV3 {
		enSlots[k] = append(enSlots[k], v...)
	}
	for k, v := range zhSlotsV3 {
		zhSlots[k] = append(zhSlots[k], v...)
	}
}

var templatesV3 = map[string]map[string][]string{
	"chitchat": {
		"en": lines(`
			i really like {botthing3}
			honestly i love {botthing3}
			i kinda like {botthing3}
			i'm a big fan of {botthing3}
			{botthing3} is great
			wow {botthing3} is so good
			i appreciate {botthing3}
			i like {botthing3} a lot
			love {botthing3}
			i'm really enjoying {botthing3}
			i'm loving {botthing3} so far
			happy {holiday3}!
			happy {holiday3} to you too
			wishing you a happy {holiday3}
			have a great {holiday3}!
			season's greetings
			{holiday3} greetings from me
			whoops, never mind
			oops wrong chat, ignore that
			my mistake, disregard that
			oops, my bad
			sorry about that, carry on
			don't mind me
			sorry, that was a typo
			what's your name?
			do you have a name
			what do people call you
			are you a real person
			are you a robot or a human
			how old are you
			where do you live
			do you have feelings
			what's your favourite colour
			do you ever sleep
			you there?
			sup
			what's going on with you
			what have you been up to
			is anyone listening
			still with me?
			hello? anybody home
			ok cool
			got it, makes sense
			alright sounds good
			interesting, tell me more about yourself
			{hi2} you're pretty smart
		`),
		"zh": lines(`
			我挺喜欢{zbotthing3}的
			我好喜欢{zbotthing3}
			{zbotthing3}真不错
			{zbotthing3}太棒了
			{zholiday3}快乐！
			祝你{zholiday3}快乐
			{zholiday3}快乐呀
			不好意思，发错了
			刚才那句打错了，别管它
			算了，当我没说
			抱歉抱歉，我搞错了
			没事没事，你继续
			你叫什么名字呀
			你有名字吗
			你是真人还是机器人
			你多大了
			你会累吗
			你住在哪里
			你有感情吗
			你喜欢什么颜色
			在不在
			最近咋样
			干嘛呢
			还在吗
			你今天过得怎么样
			有人吗
			好嘞
			懂了懂了
			行，没问题
			你挺聪明的嘛
			哈哈哈笑死我了
		`),
	},
	"question": {
		"en": lines(`
			who wrote {book3}?
			who painted {painting3}
			who directed {film3}?
			when was {book3} written
			is it safe to {safe3}?
			is it ok to {safe3}
			can you {safe3} safely?
			is it bad to {safe3}
			how do you say {phrase3} in {langname}?
			what's the word for {phrase3} in {langname}
			how would i say {phrase3} in {langname}
			what is {phrase3} in {langname}?
			{langname} for {phrase3}?
			how long do {creature3} live?
			how big do {creature3} get
			what's the capital of {country3}?
			what currency does {country3} use
			what language do they speak in {country3}
			how does {mech3} work?
			what is the point of {mech3}
			what year did {hist3} happen?
			why did {hist3} happen
		`),
		"zh": lines(`
			{zsafe3}安全吗？
			{zsafe3}会有问题吗
			{zsafe3}对身体好吗
			{zsafe3}要紧吗
			{zbook3}是谁写的？
			{zbook3}的作者是谁
			{zcountry}的首都是哪里？
			{zcountry}用什么货币
			{zcountry}说什么语言
			{zcreature3}能活多久？
			{zcreature3}吃什么
			{zmech3}是怎么工作的？
			{zmech3}的原理是什么
			“{zphrase3}”用{zlangname}怎么说
			{zphrase3}的{zlangname}怎么说
			{zlangname}里“{zphrase3}”怎么讲
			用{zlangname}怎么表达{zphrase3}
			{zhist3}是哪一年的事？
			{zhist3}为什么会发生
			怎么才能{zskill3}
			{zskill3}有什么技巧
		`),
	},
	"task": {
		"en": lines(`
			what's my {live3}?
			check my {live3}
			show me my {live3}
			tell me my current {live3}
			do i have any {cal3} {when3}?
			what's on my calendar {when3}
			am i free {when3}?
			any {cal3} {when3}?
			remind me {when3} to {chore3}
			set a reminder to {chore3} {when3}
			ping me {when3} about {chore3}
			run the {flow} workflow
			kick off the {flow} workflow now
			trigger {flow}
			{toolname} {toolarg}
			please {toolname} {toolarg}
			read {file3} and summarise it
			open {file3}
			show what's in {file3}
			list the files in {dir3}
			how much space is left on {disk3}
		`),
		"zh": lines(`
			我的{zlive3}是多少？
			查一下我的{zlive3}
			看看我的{zlive3}
			现在{zlive3}多少
			我{zwhen3}有什么{zcal3}吗
			我{zwhen3}有空吗
			{zwhen3}的日程是什么
			{zwhen3}有什么安排
			帮我看看{zwhen3}的日程
			{zwhen3}提醒我{zchore3}
			{zwhen3}别忘了叫我{zchore3}
			到{zwhen3}喊我{zchore3}
			{zwhen3}记得叫我{zchore3}
			帮我定个提醒，{zwhen3}{zchore3}
			跑一下{zflow}工作流
			执行{zflow}工作流
			把{zflow}流程跑一遍
			启动{zflow}任务
			喊一声{ztoolarg}
			用 {toolname} 说{ztoolarg}
			打开{zfile3}
			读一下{zfile3}
			看看{zdir}里有什么
			{zdisk3}还剩多少空间
		`),
	},
	"remember": {
		"en": lines(`
			call me {name}
			the name's {name}
			i'm {name}, nice to meet you
			{hi2} i'm {name}
			i'm a {job3}
			i work as a {job3}
			i'm a {job3} by trade
			my job is {job3}
			i love {hobby3}
			i'm really into {hobby3}
			i spend my weekends on {hobby3}
			i hate {hobby3}
			i quit my job last {weekday}
			i just moved to {city}
			i got a new {gadget3}
			just bought a new {gadget3}
			i now use a {brand3} {gadget3}
			my {gadget3} is a {brand3}
			my goal this year is to {goal3}
			i'm trying to {goal3}
			for future reference, i {cond}
			heads up, i'm {condadj}
			save the fact that i {cond}
			keep a note that i'm {condadj}
			log that i {cond}
			so you know, i {cond}
		`),
		"zh": lines(`
			我叫{zname3}
			我的名字是{zname3}
			叫我{zname3}就行
			{zhi2}我是{zname3}
			我是{zjob3}
			我是一名{zjob3}
			我做{zjob3}的
			我是个{zjob3}
			本人是{zjob3}
			我的职业是{zjob3}
			我当{zjob3}好几年了
			我在做{zjob3}
			我的工作是{zjob3}
			我平时喜欢{zhobby3}
			我特别爱{zhobby3}
			我周末一般去{zhobby3}
			我干{zjob3}这行五年了
			我在一家公司当{zjob3}
			我不喜欢{zhobby3}
			我上个月换了工作
			我刚搬到{zcity}
			我的{zgadget3}是{zbrand3}的
			我新买了一台{zgadget3}
			我今年的目标是{zgoal3}
			我最近在{zgoal3}
			顺便说一下，我{zcond}
			跟你说一声，我{zcond}
			你知道一下，我是{zcondadj}
		`),
	},
	"recall": {
		"en": lines(`
			am i {condadj}?
			am i {condadj} or not
			am i allergic to anything?
			am i allergic to {food} or not
			remind me, am i allergic to {food}?
			am i still allergic to {food}?
			is {food} something i'm allergic to?
			do i have a {food} allergy?
			did i mention being allergic to {food}
			is it true that i'm {condadj}?
			did i say i was {condadj}
			do you know if i'm {condadj}
			do i {cond}?
			what {condkind} do i have
			any {condkind} i told you about?
			do i have any {condkind} on record
			is my {attr2} saved?
			is my {attr2} in your memory
			do you have my {attr2} on file?
			can you recall what i said about my {rtopic3}
			what did i tell you about my {rtopic3}?
			remind me what i said about my {rtopic3}
			can you recall my {rtopic3}
			recall what i told you about my {rtopic3}
			when is my {event3}?
			what time is my {event3}
			what day is my {event3} again
			when's my {event3} again?
			when is my {event3} booked for
			what time did i say my {event3} was
			what day did i book my {event3} for
			is my {event3} this week?
			where is my {event3}?
			what's my {rel3}'s name?
			what's my {rel3} called again
			what do i do for work?
			what's my job again
			which {favcat} do i like?
			what are my hobbies
			what did we talk about {ago}?
		`),
		"zh": lines(`
			我{zcond}吗？
			我是不是{zcondadj}
			我的{zattr2}你记着吗
			你存了我的{zattr2}吗
			我之前说过我的{zrtopic}吗
			我跟你说过{zrtopic}的什么
			我{zevent3}是哪天？
			我{zevent3}是几点来着
			我{zevent3}约在哪天
			我把{zplacedthing}放哪了？
			我{zplacedthing}放哪儿了来着
			我{zrel3}叫什么来着
			我{zrel3}叫啥名字
			我是干什么工作的？
			我的工作是什么来着
			我喜欢什么{zfavcat}来着
			我爱吃啥来着
			我们{zago}聊了什么
			我会什么乐器来着
		`),
	},
	"forget": {
		"en": lines(`
			delete the note that i {cond}
			erase the fact that i {cond}
			remove that i'm {condadj} from your memory
			forget that i'm {condadj}
			remove the note about my {rtopic3}
			drop what you saved about my {rtopic3}
			erase the bit about my {rtopic3}
			i take that back, forget it
			scratch that, don't keep it
			never mind that, please don't remember it
			forget what i said about my {rtopic3}
			can you forget my {attr2}?
			please remove my {attr2} from memory
			wipe my {attr2}
		`),
		"zh": lines(`
			把我{zcond}那条删掉
			把关于我{zrtopic}的记录删了
			我{zrtopic}的那条记忆不要了
			刚才那句收回，别记
			当我没说，别存下来
			你能把我的{zattr2}忘掉吗
			请把我的{zattr2}删除
			能不能忘掉我的{zrtopic}
			我之前说的{zrtopic}，请删掉
			之前跟你说的{zrtopic}那些，删了吧
			关于{zrtopic}我说过的话，都删掉
			清除我的{zattr2}
		`),
	},
	"hypothetical": {
		"en": lines(`
			{pname3}'s {attr2} is {code}
			{pname3}'s birthday is {month} {day3}
			{pname3}'s hometown is {city}
			{pname3}'s phone is a {brand3}
			{pname3} lives in {city}
			{pname3}'s favorite {favcat} is {brand3}
			{pname3} is a {job3}
			{pname3} {otherfact}
			my {rel3} {otherfact}
			my {rel3} is a {job3}
			my {rel3}'s {gadget3} is a {brand3}
			my {rel3} {otherevent} last {weekday}
			test message: i'm a {job3}
			just testing, i {cond}
			test: my {possess}
			testing 1 2 3, i'm a {job3}
			test msg, i {cond}
			testing: i'm {condadj}
			ignore this, it's a test: i {cond}
			for example, a user might say "i'm {condadj}"
			a sentence like "i {cond}" for instance
			in my story the hero {cond}
			in the game i'm playing, i'm a {job3}
			let's say i was a {job3}, what would my day look like?
			pretend i'm {condadj}
		`),
		"zh": lines(`
			{zpname3}的生日是{zmonth}五号
			{zpname3}的{zattr2}是{zcode}
			{zpname3}是{zjob3}
			{zpname3}{zotherfact}
			{zpname3}{zotherevent}
			听说{zpname3}{zotherevent}
			{zpname3}上周{zotherevent}
			{zpname3}最近{zotherevent}
			{zother}前两天{zotherevent}
			我{zrel3}{zotherfact}
			我{zrel3}有{zillness}
			我{zrel3}得了{zillness}
			我{zrel3}一直有{zillness}
			{zpname3}有{zillness}
			我{zrel3}是{zjob3}
			我{zrel3}下个月{zotherevent2}
			我{zrel3}{zotherevent}
			测试消息：我是{zjob3}
			测试一下，我{zcond}
			这是测试：我是{zcondadj}
			举个例子，比如“我{zcond}”
			像“我是{zcondadj}”这样的句子
			故事里的主角{zcond}
			游戏里我是个{zjob3}
			假设我是{zjob3}，我一天会做什么
			假装我{zcond}
		`),
	},
}

var enSlotsV3 = map[string][]string{
	"botthing3": vals(`this app,your answers,that reply,talking to you,this chat,your jokes,how you explain things,the new look`),
	"holiday3":  vals(`new year,thanksgiving,birthday,holidays,diwali,lunar new year,mother's day`),
	"book3":     vals(`pride and prejudice,the hobbit,war and peace,the great gatsby,hamlet,don quixote`),
	"painting3": vals(`the mona lisa,the starry night,the scream,guernica`),
	"film3":     vals(`jaws,titanic,spirited away,the godfather,inception`),
	"safe3":     vals(`eat raw eggs,swim after eating,drink coffee while pregnant,reuse plastic bottles,look at a solar eclipse,charge a phone overnight,take ibuprofen on an empty stomach`),
	"phrase3":   vals(`good night,excuse me,i'm sorry,cheers,see you later,how much`),
	"creature3": vals(`parrots,goldfish,tortoises,elephants,hamsters,sharks`),
	"country3":  vals(`brazil,kenya,peru,norway,vietnam,egypt,chile`),
	"mech3":     vals(`a heat pump,gps,a vaccine,noise cancelling,a nuclear reactor,compound interest`),
	"hist3":     vals(`the french revolution,the moon landing,the fall of the berlin wall,the great fire of london`),
	"live3":     vals(`ip address,battery level,disk usage,cpu temperature,wifi signal,public ip,screen brightness,volume`),
	"cal3":      vals(`meetings,appointments,events,calls`),
	"when3":     vals(`today,tomorrow,this afternoon,tonight,on friday,next week,at 3pm,in an hour`),
	"chore3":    vals(`water the plants,call the bank,take my pills,pay the rent,stretch,book the car in`),
	"file3":     vals(`notes.txt,~/todo.md,the readme,/etc/hosts,report.csv,my downloads folder`),
	"dir3":      vals(`~/Documents,the downloads folder,my desktop,./src,~/Pictures`),
	"disk3":     vals(`my disk,the ssd,drive c,the external drive`),
	"job3":      vals(`nurse,software engineer,teacher,plumber,accountant,chef,student,graphic designer,lawyer,bus driver,pharmacist`),
	"hobby3":    vals(`rock climbing,knitting,jazz,board games,cycling,baking bread,chess,gardening,running`),
	"rel3":      vals(`wife,husband,son,daughter,mum,dad,brother,sister,partner,boss,flatmate`),
	"gadget3":   vals(`phone,laptop,car,watch,tablet,bike`),
	"brand3":    vals(`samsung,lenovo,toyota,garmin,apple,trek,radiohead,blue`),
	"goal3":     vals(`run a marathon,learn spanish,read 30 books,save 5000 pounds,sleep before 11,lose 5 kilos`),
	"rtopic3":   vals(`diet,address,job,allergies,preferences,trip,car,kids`),
	"pname3":    vals(`priya,jonas,wei,maria,sam,olga,ken,fatima`),
	"day3":      vals(`3rd,9th,14th,21st,30th`),
}

var zhSlotsV3 = map[string][]string{
	"zbotthing3":   vals(`这个应用,你的回答,跟你聊天,你讲的笑话,这个界面,你的解释`),
	"zholiday3":    vals(`新年,春节,中秋,生日,元旦,端午,国庆`),
	"zsafe3":       vals(`空腹吃香蕉,饭后马上游泳,生吃鸡蛋,隔夜茶喝了,孕妇喝咖啡,手机充一整夜,剩饭反复加热`),
	"zbook3":       vals(`红楼梦,三体,活着,围城,西游记,百年孤独`),
	"zcreature3":   vals(`乌龟,金鱼,仓鼠,鹦鹉,大象,鲨鱼`),
	"zmech3":       vals(`空调,GPS,疫苗,降噪耳机,电磁炉,核电站`),
	"zphrase3":     vals(`晚安,不好意思,谢谢,多少钱,再见`),
	"zhist3":       vals(`辛亥革命,登月,柏林墙倒塌,工业革命`),
	"zskill3":      vals(`快速入睡,记住单词,练好书法,戒掉熬夜,提高打字速度,学会游泳`),
	"zlive3":       vals(`IP地址,电量,磁盘空间,CPU温度,网速,内存占用,音量`),
	"zcal3":        vals(`会议,安排,日程,预约`),
	"zwhen3":       vals(`今天,明天,今晚,周五,下周一,下午三点,一小时后,半小时后`),
	"zchore3":      vals(`浇花,给银行打电话,吃药,交房租,起来活动,取快递`),
	"zfile3":       vals(`notes.txt,待办.md,报告.csv,/etc/hosts,README`),
	"zdisk3":       vals(`C盘,硬盘,移动硬盘,固态硬盘`),
	"zname3":       vals(`小林,王磊,李娜,阿强,Lisa,陈晨,老赵`),
	"zjob3":        vals(`护士,程序员,老师,会计,厨师,大学生,设计师,律师,司机,药剂师,医生`),
	"zhobby3":      vals(`爬山,织毛衣,听爵士,打羽毛球,下棋,烘焙,钓鱼,跑步`),
	"zrel3":        vals(`老婆,老公,儿子,女儿,妈,爸,哥,姐,弟弟,表妹,同桌,师傅`),
	"zgadget3":     vals(`手机,电脑,车,手表,平板`),
	"zbrand3":      vals(`华为,小米,联想,苹果,比亚迪`),
	"zgoal3":       vals(`跑完马拉松,学日语,读三十本书,存五万块,早睡早起,减肥十斤`),
	"zpname3":      vals(`小王,老李,张三,阿梅,王姐,小刘,陈总`),
	"zotherevent2": vals(`结婚,出国,搬家,生宝宝,退休`),
}
