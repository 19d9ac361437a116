package datagen

// Templates per label and language. A line without {slot} is a literal
// message; a line with slots is expanded with several sampled slot values.
// Labels follow docs/architecture.md, "Intent labels". The hard borders are spelled out on
// purpose: a fact about the user is remember, the same fact about someone
// else (or as a what-if, example or test) is hypothetical, asking what the
// assistant knows is recall, asking to delete it is forget, and anything
// that needs a tool or live data (time, date, weather, files, arithmetic) is
// task. An explicit "remember that ..." is remember whatever it is about.
//
// A "3* " prefix makes a template yield three times as many expansions. It
// is used on the bare first-person statements of remember, because the
// hypothetical templates embed the same statements after a marker ("what
// if", "for example", "this is a test:"); the model must learn that the
// marker, not the statement, makes a message hypothetical.

var templates = map[string]map[string][]string{
	"chitchat": {
		"en": lines(`
			hi
			hello
			hey there
			hiya
			yo
			good morning
			good afternoon
			good evening
			good night
			morning!
			hello there, how are you?
			how are you doing today?
			how's it going?
			what's up?
			sup
			how was your day?
			nice to meet you
			thanks!
			thank you so much
			thanks a lot, that helped
			cheers
			much appreciated
			you're awesome
			you're the best
			great job
			that was helpful
			lol
			haha that's funny
			lmao
			ok cool
			cool cool
			nice
			awesome
			sounds good
			got it
			okay
			bye
			goodbye
			see you later
			see ya
			talk to you tomorrow
			have a nice day
			I'm bored
			I'm so tired today
			what a long day
			ugh mondays
			I'm back
			are you there?
			are you a robot?
			what's your name?
			who made you?
			do you like music?
			do you ever sleep?
			tell me a joke
			tell me something fun
			you're funny
			I love talking to you
			I love this app
			sorry, my bad
			no worries
			never mind
			oops
			wow
			hmm interesting
			that's wild
			happy new year!
			merry christmas
			happy friday!
			you there?
			good to see you again
			just saying hi
			I'm having a great day
			thanks for your help earlier
			ok thanks bye
			what are you up to?
			do you have feelings?
			that made my day
			you're pretty smart
			I'm just chatting
			hahaha you're hilarious
			well that's embarrassing
			have a good weekend
			good talk
			{greet}
			{greet}, {small}
			{greet}! {small}
			{thanks}, {praise}
			{thanks}! {praise}
			{praise}
			I'm feeling {mood} today
			feeling {mood} this morning
			it's so {weatherish} today lol
			ugh it's {weatherish} again
			what's your favorite color?
			do you get bored?
			let's just chat for a bit
			I'm heading out
			gotta go
			brb
			just got home from work
			finally friday
			that's hilarious
			fair enough
			makes sense
			wow, {praise}
			{thanks} so much
			good morning! {small}
			I love {chitobj}
			I really like {chitobj}
			honestly I love {chitobj}
			{bye}
			ok {bye}
			{thanks}, {bye}
			{slang}
			{slang} that's funny
			{slang} you're killing me
			I'm {state}
			ok I'm {state}
			well, I'm {state}
			how was your {period}?
			did you have a good {period}?
			{okphrase}
			{okphrase}, thanks anyway
			you made my day
			that cheered me up
			this is so cool
			{assistq}
			so, {assistq}
			{holiday}
			{holiday}!!
			{ack}
			ok {ack}
			{ack}, thanks
			{presence}
		`),
		"zh": lines(`
			你好
			您好
			嗨
			哈喽
			早上好
			早啊
			下午好
			晚上好
			晚安
			在吗？
			你在吗
			最近怎么样？
			你今天过得怎么样？
			好久不见
			谢谢
			谢谢你！
			太感谢了
			多谢
			感谢感谢
			辛苦了
			你真棒
			你太厉害了
			哈哈哈
			哈哈，笑死我了
			好的
			好滴
			嗯嗯
			知道了
			没问题
			拜拜
			再见
			回头聊
			明天见
			祝你有美好的一天
			我好无聊啊
			今天好累啊
			今天心情不错
			周一好烦
			我回来了
			你是机器人吗？
			你叫什么名字？
			谁开发的你？
			你喜欢音乐吗？
			你会睡觉吗
			给我讲个笑话
			说点好玩的
			你好可爱
			跟你聊天真开心
			不好意思，刚才说错了
			没关系
			算了
			哎呀
			哇
			有意思
			新年快乐！
			中秋快乐
			周末愉快
			吃了吗？
			今天好热啊
			下雨了好烦
			我今天有点不开心
			谢谢你刚才的帮助
			好的谢谢，拜拜
			hello 你好
			thx 哈哈
			ok 好的谢谢
			早上好 good morning
			你在干嘛呢
			你有感情吗？
			你好聪明啊
			我就是随便聊聊
			真尴尬
			晚安，做个好梦
			聊得很开心
			{greet}
			{greet}，{small}
			{greet}！{small}
			{thanks}，{praise}
			{thanks}！{praise}
			{praise}
			我今天感觉{mood}
			今天早上{mood}
			{greet}呀
			早安
			中午好
			我先下线了
			我去吃饭了
			今天周五好开心
			你今天好吗？
			聊会儿天吧
			你会不会累
			你喜欢什么颜色？
			好无聊，陪我聊聊
			笑死
			牛啊
			厉害厉害
			666
			好吧
			行吧
			哈哈好的
			有道理
			真的假的
			刚下班
			周末过得怎么样？
			{thanks}你
			哇，{praise}
			{greet}，今天{mood}
			我喜欢{chitobj}
			我好喜欢{chitobj}
			{bye}
			好的，{bye}
			{thanks}，{bye}
			{slang}
			{slang}，太逗了
			没什么事，就想随便聊聊
			我{state}
			好了，我{state}
			你{period}过得怎么样？
			{period}过得开心吗？
			{okphrase}
			{okphrase}，还是谢谢你
			你让我开心了一整天
			这也太酷了吧
			{assistq}
			问一下，{assistq}
			{holiday}
			{holiday}！
			{ack}
			嗯，{ack}
			{ack}，谢谢
			{presence}
		`),
	},
	"question": {
		"en": lines(`
			what is {topic}?
			what's {topic}?
			explain {topic}
			explain {topic} like I'm five
			can you explain {topic} in simple terms?
			how does {topic} work?
			why does {topic} matter?
			give me a quick overview of {topic}
			I don't understand {topic}, can you help?
			what are the main ideas behind {topic}?
			tell me about {topic}
			how do I {howto}?
			how to {howto}
			what's the best way to {howto}?
			any tips on how to {howto}?
			can you teach me how to {howto}?
			steps to {howto}?
			what's the difference between {pair}?
			how do {pair} differ?
			who wrote {book}?
			what is {book} about?
			what does {word} mean?
			define {word}
			where does the word {word} come from?
			why is the sky blue?
			how many planets are in the solar system?
			what's the capital of Australia?
			who painted the Mona Lisa?
			how far is the moon from earth?
			what causes earthquakes?
			is coffee bad for you?
			how many bones are in the human body?
			what's a good book for learning statistics?
			why do cats purr?
			how do vaccines work?
			what is the speed of light
			what's the tallest mountain in the world
			when did World War II end?
			how do airplanes stay in the air?
			what language is spoken in Brazil?
			can dogs eat chocolate?
			what's the boiling point of water at high altitude?
			how does a bill become a law?
			what year did the Berlin Wall fall?
			write a short poem about the sea
			write me a haiku about autumn
			give me three ideas for a birthday party
			suggest a name for a coffee shop
			how should I structure a 10 minute presentation?
			what are some good stretches for lower back pain?
			is it better to rent or buy a house?
			how long should I steep green tea?
			what's the plural of octopus?
			is a tomato a fruit or a vegetable?
			what does HTTP stand for
			how do noise cancelling headphones work
			why do we dream?
			how do I write a for loop in Go?
			explain big O notation
			how much water should an adult drink per day?
			why are there seasons?
			which programming language should a beginner learn first?
			what's a healthy breakfast idea?
			how do solar panels make electricity?
			what's the origin of halloween?
			is it safe to swim after eating?
			sorry if this is a dumb question, but how does {topic} work?
			quick question: what is {topic}?
			could you kindly explain {topic} to me?
			I've always wondered how to {howto}, any advice?
			what is the difference between {pair}, in simple words
			write a poem about {theme}
			write a short story about {theme}
			help me brainstorm names for {brainstorm}
			give me some ideas for {brainstorm}
			help me write an email to my landlord about a broken heater
			draft a short toast for a wedding
			what's a good way to explain {topic} to kids?
			is it true that {myth}?
			why do people say {myth}?
			help me write {writing}
			can you write {writing}?
			when did {event}?
			what year did {event}?
			is it better to {choice}?
			should I {choice}? what are the pros and cons
			what is the {factq}?
			do you know the {factq}?
			is {healthitem} bad for you?
			is {healthitem} healthy?
			how many {countq}?
			do you know how many {countq}?
			what language is spoken in {country}?
			what's the capital of {country}?
		`),
		"zh": lines(`
			{topic}是什么？
			什么是{topic}？
			请解释一下{topic}
			能用简单的话讲讲{topic}吗？
			{topic}是怎么运作的？
			{topic}的原理是什么？
			给我介绍一下{topic}
			我不太懂{topic}，能讲讲吗
			{topic}到底是怎么回事
			怎么{howto}？
			如何{howto}？
			{howto}有什么技巧？
			教我{howto}
			{howto}的步骤是什么
			{pair}有什么区别？
			{pair}哪个更好？
			{book}的作者是谁？
			{book}讲的是什么？
			“{word}”是什么意思？
			{word}这个词怎么理解？
			天空为什么是蓝色的？
			太阳系有几颗行星？
			澳大利亚的首都是哪里？
			蒙娜丽莎是谁画的？
			地球到月球有多远？
			地震是怎么产生的？
			喝咖啡对身体有害吗？
			人体有多少块骨头？
			猫为什么会呼噜？
			疫苗是怎么起作用的？
			光速是多少
			世界上最高的山是哪座？
			二战是哪一年结束的？
			飞机为什么能飞起来？
			巴西说什么语言？
			狗能吃巧克力吗？
			唐朝是哪一年建立的？
			写一首关于秋天的小诗
			帮我想三个生日派对的点子
			给咖啡店起个名字
			十分钟的演讲应该怎么安排结构？
			租房好还是买房好？
			绿茶要泡多久？
			西红柿是水果还是蔬菜？
			HTTP 是什么的缩写
			降噪耳机的原理是什么
			人为什么会做梦？
			Python 里 list 和 tuple 有什么区别
			Go 语言怎么写 for 循环？
			解释一下大O表示法
			成年人每天应该喝多少水？
			为什么会有四季？
			学编程应该从哪门语言开始？
			早餐吃什么比较健康？
			太阳能板是怎么发电的？
			吃完饭马上游泳安全吗？
			什么是 machine learning？
			how do I 煮溏心蛋
			explain 一下 recursion
			Python 的 decorator 是什么
			不好意思问个小白问题，{topic}是什么？
			请问{topic}是怎么回事？
			我一直想知道怎么{howto}，有什么建议吗
			简单说说{pair}的区别
			帮我写一首关于{theme}的诗
			写一段关于{theme}的短文
			帮我想几个{brainstorm}的名字
			给我一些{brainstorm}的点子
			帮我写一封给房东的邮件，说暖气坏了
			帮我写一段婚礼祝酒词
			怎么给小孩解释{topic}？
			{myth}是真的吗？
			为什么大家都说{myth}？
			帮我写{writing}
			能帮我写{writing}吗？
			{event}是哪一年？
			{event}发生在什么时候？
			{choice}哪个好？
			{choice}，各有什么利弊？
			{factq}是多少？
			你知道{factq}是多少吗
			{healthitem}对身体有害吗？
			{healthitem}健康吗？
			{countq}有多少个？
			你知道{countq}有几个吗
			{country}说什么语言？
			{country}的首都是哪里？
		`),
	},
	"task": {
		"en": lines(`
			what time is it?
			what time is it
			what's the time?
			what's the time right now
			what's today's date?
			what day is it today?
			what's the date tomorrow?
			how many days until Friday?
			what's the weather like today?
			is it going to rain tomorrow?
			check the weather
			list my files
			show me what's in my downloads folder
			take a screenshot
			start a stopwatch
			stop the timer
			what's 2+2?
			calculate the tip on $84
			roll a dice
			flip a coin
			pick a random number between 1 and 100
			generate a strong password
			what's my IP address?
			check my calendar for tomorrow
			what's on my schedule today?
			read my latest email
			search the web for cheap flights to Tokyo
			look up the exchange rate for euros
			how much disk space do I have left?
			what's the battery level?
			convert the timestamp 1700000000 to a date
			set a timer for {mins} minutes
			set a {mins} minute timer
			set an alarm {time}
			remind me to {rem} {time}
			remind me {time} to {rem}
			calculate {expr}
			what's {expr}?
			what is {expr}
			compute {expr} please
			how much is {expr}?
			convert {conv}
			can you convert {conv}?
			open {file}
			can you open {file} for me
			read {file} and summarize it
			summarize {file}
			delete the file {file}
			move {file} to {dir}
			list the files in {dir}
			what's in {dir}?
			search {dir} for {search}
			find {search} in my documents
			look up the weather in {city}
			what's the weather in {city}?
			what time is it in {city}?
			how's the weather in {city} tomorrow
			create a new file called {newfile}
			rename {file} to {newfile}
			add {rem} to my todo list
			schedule a meeting with {name} {time}
			send a message to {name} saying I'm running late
			run {cmd}
			use the filesystem tool to list {dir}
			please run {cmd} and tell me the result
			could you quickly check what time it is in {city}?
			{action}
			please {action}
			can you {action}?
			could you {action} for me
			{action} now
			will it rain {when}?
			is it going to be sunny {when}?
			do I need an umbrella {when}?
			what's the temperature {when}?
			is it going to snow in {city} {when}?
			show me {dir}
			what files are in {dir}?
			{chance}
			can you {chance}?
			{chance} for me
			what day of the week is {date}?
			how many days until {date}?
			is {date} a weekend this year?
			how much {resource} do I have left?
			how much {resource} is being used right now?
			what's on my calendar {when}?
			do I have any meetings {when}?
			show my schedule for {when}
			am I free {when}?
			{timeq}
			{gadget}
			please {gadget}
		`),
		"zh": lines(`
			现在几点了？
			现在几点
			几点了
			今天几号？
			今天星期几？
			明天是几号
			离周五还有几天？
			今天天气怎么样？
			明天会下雨吗？
			查一下天气
			列出我的文件
			看看下载文件夹里有什么
			截个图
			开始计时
			停止计时
			1+1等于几？
			帮我掷个骰子
			抛个硬币
			随机选一个1到100的数字
			生成一个强密码
			我的IP地址是多少？
			看看我明天的日程
			我今天有什么安排？
			读一下我最新的邮件
			搜一下去东京的便宜机票
			查一下欧元汇率
			硬盘还剩多少空间？
			电量还剩多少？
			把时间戳1700000000转换成日期
			帮我 check 一下上海的天气
			set 一个 10 分钟的 timer
			open 一下 report.pdf
			现在几点 what time is it
			设一个{mins}分钟的计时器
			帮我定个{time}的闹钟
			{time}提醒我{rem}
			提醒我{time}{rem}
			帮我算一下{expr}
			{expr}等于多少？
			算算{expr}
			{conv}
			帮我换算：{conv}
			打开{file}
			帮我打开{file}
			读一下{file}然后总结
			总结一下{file}
			把{file}删掉
			把{file}移到{dir}
			列出{dir}里的文件
			{dir}里有什么？
			在{dir}里搜索{search}
			帮我找{search}
			查一下{city}的天气
			{city}今天天气怎么样？
			{city}现在几点？
			新建一个叫{newfile}的文件
			把{rem}加到待办清单
			帮我约{name}{time}开会
			给{name}发消息说我会晚点到
			运行{cmd}
			用文件工具列一下{dir}
			麻烦帮我查一下{city}明天的天气
			请帮我计算{expr}，谢谢
			{action}
			帮我{action}
			请{action}
			你能{action}吗？
			{when}会下雨吗？
			{when}天气怎么样
			{when}要带伞吗？
			外面现在多少度？
			{city}{when}会下雪吗
			给我看看{dir}
			{dir}里都有哪些文件？
			{chance}
			帮我{chance}
			{date}是星期几？
			离{date}还有几天？
			今天是几月几号
			{resource}还剩多少？
			现在{resource}用了多少？
			我{when}有什么安排？
			我{when}有会吗？
			看看我{when}的日程
			我{when}有空吗？
			{timeq}
			{gadget}
			帮我{gadget}
		`),
	},
	"remember": {
		"en": lines(`
			3* I'm allergic to {food}
			I am allergic to {food}
			i'm allergic to {food}, just so you know
			FYI I'm allergic to {food}
			3* my name is {name}
			call me {name}
			you can call me {name} from now on
			3* I live in {city}
			I just moved to {city}
			I'm based in {city}
			I work as a {job}
			3* I'm a {job}
			I am a {job} by profession
			I prefer {pref}
			I really like {pref}
			3* I love {pref}
			I hate {dislike}
			I can't stand {dislike}
			please never suggest {dislike}, I hate it
			I don't eat {food}
			I'm learning {learn}
			my birthday is {date}
			my birthday is on {date}, don't forget
			I have {pet}
			I've got {pet}
			I'm {age} years old
			remember that I'm allergic to {food}
			remember that I live in {city}
			please remember I prefer {pref}
			remember this: my name is {name}
			remember that {person}'s birthday is {date}
			remember that {person} is allergic to {food}
			note that I {fact}
			keep in mind that I {fact}
			for future reference, I {fact}
			save this: I {fact}
			add to memory: I {fact}
			store the fact that I {fact}
			just so you know, I {fact}
			heads up, I {fact}
			please remember that I {fact}
			I'm vegetarian
			I'm vegan
			I'm lactose intolerant
			I don't drink alcohol
			I'm left-handed
			I'm colorblind
			I have type 1 diabetes
			I usually work night shifts
			I have two kids
			my favorite color is green
			my favorite food is ramen
			I always take my coffee black
			I'm afraid of flying
			I use Arch Linux btw
			I prefer short answers without emojis
			please always answer in metric units
			from now on, reply to me in Chinese
			I'm trying to lose weight
			I'm getting married in June
			I was born in 1990
			my blood type is O negative
			my shoe size is 43
			I'm training for a marathon
			I go to the gym on mondays and thursdays
			I don't like being called by my last name
			I'm retired
			I'm a night owl
			we have a cat at home
			I speak French and German
			my name is 小明
			I'm a 程序员, remember that
			my {myattr}
			just so you know, my {myattr}
			fyi my {myattr}
			remember my {myattr}
			I'm into {pref}
			I'm a big fan of {pref}
			I usually go for {pref}
			I'm not a fan of {dislike}
			I'm from {city}
			I grew up in {city}
			I've lived in {city} for five years
			my home is in {city}
			my name's {name}
			the name's {name}
			I'm {name}, nice to meet you
			hi, I'm {name}
			people call me {name}
			I go by {name}
			my birthday's on {date}
			I was born on {date}
			my bday is {date}
			{lifeevent}
			just so you know, {lifeevent}
			I {habitstmt}
			fyi I {habitstmt}
			I'm {selfadj}
			I am {selfadj}
			fyi I'm {selfadj}
			I'm currently {doing}
			I'm {doing} these days
		`),
		"zh": lines(`
			3* 我对{food}过敏
			我对{food}过敏，你记一下
			跟你说一下，我对{food}过敏
			3* 我叫{name}
			以后叫我{name}就行
			我的名字是{name}
			3* 我住在{city}
			我刚搬到{city}
			我在{city}工作
			3* 我是{job}
			我是一名{job}
			我的工作是{job}
			3* 我喜欢{pref}
			我特别喜欢{pref}
			我最爱{pref}
			我讨厌{dislike}
			我受不了{dislike}
			我不吃{food}
			我在学{learn}
			我的生日是{date}
			我生日是{date}，别忘了
			我养了{pet}
			我家有{pet}
			我今年{age}岁
			记住我对{food}过敏
			记住，我住在{city}
			请记住我喜欢{pref}
			帮我记一下：我是{job}
			记一下，{person}的生日是{date}
			记住{person}对{food}过敏
			你记着，我{fact}
			备注一下，我{fact}
			以后请记得我{fact}
			存一下：我{fact}
			顺便说一下，我{fact}
			请记住我{fact}
			我吃素
			我是素食主义者
			我乳糖不耐受
			我不喝酒
			我是左撇子
			我有色弱
			我有一型糖尿病
			我经常上夜班
			我有两个孩子
			我最喜欢的颜色是绿色
			我最喜欢吃拉面
			我喝咖啡只喝黑咖啡
			我怕坐飞机
			我用的是 Mac
			回答我的时候尽量简短，别用表情
			以后都用公制单位回答我
			以后用英文回复我
			我在减肥
			我下个月结婚
			我是1990年出生的
			我的血型是O型
			我穿43码的鞋
			我在准备马拉松
			我每周一和周四去健身房
			我是夜猫子
			我已经退休了
			我不喜欢别人叫我全名
			我对 peanuts 过敏
			remember 我住在杭州
			我的{myattr}
			跟你说下，我的{myattr}
			记一下我的{myattr}
			我是{city}人
			我老家是{city}的
			我在{city}长大
			我很喜欢{pref}
			我挺爱{pref}的
			我不太喜欢{dislike}
			你好，我是{name}
			叫我{name}吧
			我的名字叫{name}
			大家都叫我{name}
			我是{date}出生的
			我生日在{date}
			{lifeevent}
			跟你说个事，{lifeevent}
			我{habitstmt}
			说一下，我{habitstmt}
			我{selfadj}
			我其实{selfadj}
			说一下，我{selfadj}
			我正在{doing}
			我最近在{doing}
		`),
	},
	"recall": {
		"en": lines(`
			what am I allergic to?
			what am i allergic to
			am I allergic to anything?
			do you know what I'm allergic to?
			what's my name?
			do you remember my name?
			what did I say my name was?
			where do I live?
			what city did I tell you I live in?
			what do I do for work?
			what's my job again?
			when is my birthday?
			do you remember my birthday?
			what do you know about me?
			what have I told you about myself?
			list everything you remember about me
			show me my memories
			what's my favorite {favthing}?
			what did I tell you about {rtopic}?
			did I mention {rtopic} before?
			remind me what I said about {rtopic}
			what was {rtopic} again?
			have I told you about {rtopic}?
			can you recall what I said about {rtopic}?
			do you still remember {rtopic}?
			you remember my {rthing}, right?
			what do you have saved about {rtopic}?
			what did we talk about yesterday?
			what did we discuss last week?
			what was the last thing I asked you?
			what did I ask you this morning?
			what's in my profile?
			what preferences have I given you?
			what's my dog's name?
			how old am I?
			what languages do I speak?
			what do I usually eat for breakfast?
			which coffee do I like?
			what was the restaurant I said I liked?
			what was the name of that book I mentioned?
			did I tell you I'm vegetarian?
			is my birthday in your memory?
			what do you remember about my {rthing}?
			tell me what you know about my {rthing}
			I forgot, what did I tell you my {rthing} was?
			wait, what was my {rthing} again?
			what's 我的生日?
			what did I say about 我的工作
			what do you remember about me?
			do you know where I work?
			remind me, what's my {rthing}?
			what was my {rthing}? I forgot
			can you tell me my {rthing}?
			what have you saved about me so far?
			do you have my {rthing} on file?
			what did I say I was allergic to?
			what did I tell you last time?
			do you recall which city I live in?
			what did I say about {rtopic} last week?
			what foods did I say I can't eat?
			what's the name of my cat again?
			what did I say my goal was?
			in our last chat, what did I ask about?
			what are my hobbies?
			what kind of music do I like?
			which days do I go to the gym?
			what do I usually {habit}?
			what's my {attrkey}?
			do you know my {attrkey}?
			what was my {attrkey} again?
			how many kids do I have?
			which car do I drive?
			which languages am I learning?
			what kind of food do I like?
			where did I say I grew up?
			did I say I {fact}?
			did I tell you that I {fact}?
			do I have any allergies?
			do I eat meat?
			am I vegetarian?
			{rverb} {robj}
			can you {rverb} {robj}?
			do you know {rq}?
			do you remember {rq}?
			remind me {rq}
		`),
		"zh": lines(`
			我对什么过敏？
			我对什么东西过敏来着？
			你知道我对什么过敏吗？
			我有没有什么过敏的？
			我叫什么名字？
			你还记得我叫什么吗？
			我住在哪里？
			我跟你说过我住哪个城市吗？
			我是做什么工作的？
			我的职业是什么来着？
			我生日是哪天？
			你记得我的生日吗？
			你知道关于我的哪些事？
			我跟你说过我自己什么？
			把你记得的关于我的事都列出来
			给我看看你存的记忆
			我最喜欢的{favthing}是什么？
			我之前跟你说过{rtopic}吗？
			{rtopic}我上次是怎么说的来着？
			提醒我一下我关于{rtopic}说过什么
			你还记得{rtopic}吗？
			关于{rtopic}，你记了什么？
			我跟你提过{rtopic}吗
			你记得我说过{rtopic}的事吗？
			我们昨天聊了什么？
			上周我们讨论了什么？
			我上一个问题问的是什么？
			我今天早上问过你什么？
			我家狗叫什么？
			我多大了？
			我会说哪些语言？
			我早餐一般吃什么？
			我喜欢喝什么咖啡？
			我说我喜欢的那家餐厅叫什么？
			我提过的那本书叫什么？
			我跟你说过我吃素吗？
			你的记忆里有我的生日吗？
			我叫什么 name 来着？
			你还 remember 我住哪吗
			我忘了，{rtopic}我跟你是怎么说的？
			等等，{rtopic}我之前怎么说的来着？
			你记得我住哪儿吗
			我的{rthing}是什么来着？
			提醒一下我的{rthing}是啥
			你那里存了我的{rthing}吗？
			我上次跟你说了什么？
			我之前说我对什么过敏来着
			你还记得我喜欢什么音乐吗
			我说过我在哪工作吗？
			我有哪些爱好？
			我一般周几去健身房？
			我们上次聊到哪了？
			你都记住了我哪些偏好？
			我的猫叫什么来着？
			我之前说过我的目标是什么？
			我的{rthing}你还记得吗
			我以前问过你什么问题？
			你对我了解多少？
			我跟你说过我老板叫什么吗？
			我一般{habit}什么？
			我的{attrkey}是多少来着？
			你知道我的{attrkey}吗？
			我的{attrkey}是什么？
			我是哪里人？
			我有几个孩子？
			我开什么车？
			我在学什么语言来着？
			我说过我在哪长大吗？
			我说过我{fact}吗？
			我是不是跟你说过我{fact}？
			我有什么过敏的东西吗？
			我吃肉吗？
			我是素食者吗？
			{rverb}{robj}
			能{rverb}{robj}吗？
			我{rq}？
			你知道我{rq}吗
			还记得我{rq}吗？
		`),
	},
	"forget": {
		"en": lines(`
			forget my allergy
			forget about my allergy
			forget that I'm allergic to {food}
			forget that I live in {city}
			forget my name
			forget what I said about {rtopic}
			forget everything I told you
			forget everything about me
			delete everything you know about me
			delete all my memories
			delete the memory about {rtopic}
			erase {rtopic} from your memory
			remove {rtopic} from memory
			please don't remember {rtopic} anymore
			stop remembering {rtopic}
			wipe my data
			wipe your memory of me
			clear my history
			clear our chat history
			delete this conversation
			delete our conversation from yesterday
			delete my chat history
			I want you to forget {rtopic}
			can you forget {rtopic}?
			unlearn my address
			drop what you know about {rtopic}
			purge all my personal info
			that thing I told you about {rtopic}, please delete it
			scratch that, forget I said that
			forget what I just said
			delete what I said earlier about {rtopic}
			I take it back, please forget it
			erase all records of me
			reset your memory
			remove my birthday from your memory
			delete the note that I {fact}
			forget that I {fact}
			please forget my {rthing}
			you can forget my {rthing} now
			get rid of everything you saved about me
			I don't want you to keep {rtopic}, delete it
			forget 我的地址
			erase 我的生日
			forget my {rthing}
			delete my {rthing} from memory
			please erase what you know about {rtopic}
			remove everything about {rtopic}
			clear all memories
			can you delete what I told you about {rtopic}?
			I don't want you to remember {rtopic}
			undo that last memory
			don't keep any record of this chat
			{fverb} {fobj}
			please {fverb} {fobj}
			can you {fverb} {fobj}?
		`),
		"zh": lines(`
			忘掉我的过敏
			忘了我的过敏信息吧
			忘记我对{food}过敏这件事
			忘掉我住在{city}
			忘掉我的名字
			忘掉我说过的关于{rtopic}的事
			把我告诉你的都忘了
			忘掉关于我的一切
			删除你知道的关于我的所有信息
			删除我所有的记忆
			删掉关于{rtopic}的记忆
			把{rtopic}从你的记忆里抹掉
			把{rtopic}这条记忆移除
			以后别再记着{rtopic}了
			别再记住{rtopic}
			清除我的数据
			清空你关于我的记忆
			清空我的历史记录
			清空我们的聊天记录
			删除这段对话
			把昨天的对话删了
			删掉我的聊天记录
			我想让你忘掉{rtopic}
			你能忘掉{rtopic}吗？
			把我的地址忘了
			把我的个人信息全部清除
			我之前说的{rtopic}，请删掉
			刚才那句不算，忘了吧
			忘掉我刚才说的
			把我之前关于{rtopic}的话都删了
			我收回刚才的话，请忘掉
			删除关于我的全部记录
			重置你的记忆
			把我的生日从记忆里删掉
			删掉我{fact}这条
			忘记我{fact}
			帮我 delete 所有记忆
			把我的 allergy 忘掉
			{rtopic}那条记忆不要了，删掉吧
			不要再保存{rtopic}了，删了吧
			把我的{rthing}删了
			忘掉我的{rthing}
			不要记我的{rthing}了
			把关于我的记忆全部删掉
			删除我刚才说的那句话
			能把我的记录都清掉吗？
			我不想让你记得{rtopic}
			你把{rtopic}忘了吧
			撤销刚才的记忆
			把你存的关于我的东西都删掉
			抹去我的所有信息
			{fverb}{fobj}
			把{fobj}{fverb}
			帮我{fverb}{fobj}
			请{fverb}{fobj}
		`),
	},
	"hypothetical": {
		"en": lines(`
			{person} is allergic to {food}
			{person} is allergic to {food}, what snacks should I bring?
			{person} lives in {city}
			{person} works as a {job}
			{person} loves {pref}
			{person}'s name is {name}
			{person} hates {dislike}
			{person} just moved to {city}
			{person} is vegetarian
			{person}'s birthday is {date}
			{person} has {pet}
			what if I were allergic to {food}?
			what if I were allergic
			what if I lived in {city}?
			what if I was a {job}?
			what would happen if I moved to {city}?
			suppose I'm allergic to {food}, what could I eat?
			suppose I were a {job}
			imagine I live in {city}
			imagine you're {role}
			pretend you're {role}
			pretend I'm a {job} and interview me
			let's role-play: you're {role}
			let's pretend my name is {name}
			hypothetically, if I were a {job}, how much would I earn?
			hypothetically speaking, I'm allergic to {food}
			just as an example, I'm allergic to {food}
			for example, say I live in {city}
			e.g. "I love {pref}" is a preference statement
			this is just a test: my name is {name}
			testing testing, I live in {city}
			test message: I am a {job}
			in my story, the hero is allergic to {food}
			write a story where I'm a {job} in {city}
			if someone is allergic to {food}, what should they avoid?
			let's say I'm 80 years old, what would retirement look like?
			a user might say "I'm allergic to {food}"
			my character in the game lives in {city}
			act as {role}
			play the role of {role}
			imagine a world where I'm a {job}
			what if my name were {name}?
			{name} is allergic to {food}
			{name}'s birthday is {date}
			{name} lives in {city}
			{name} prefers {pref}
			{person}'s {myattr}
			{name}'s {myattr}
			{person} grew up in {city}
			{person} can't eat {food}
			{person} said she's allergic to {food}
			{person} is a big fan of {pref}
			{person} has {pet} at home
			{person}'s {myattr}, I think
			hypothetically, {person} {fact3}
			what if {person} {fact3}?
			假设 I {fact}
			my friend 对花生过敏
			pretend 你是海盗
		`),
		"zh": lines(`
			{person}对{food}过敏
			{person}对{food}过敏，我该带什么零食？
			{person}住在{city}
			{person}是{job}
			{person}喜欢{pref}
			{person}叫{name}
			{person}讨厌{dislike}
			{person}刚搬到{city}
			{person}吃素
			{person}的生日是{date}
			{person}养了{pet}
			如果我对{food}过敏会怎么样？
			要是我对{food}过敏呢？
			如果我住在{city}会怎样？
			假如我是{job}
			如果我搬去{city}会怎么样？
			假设我对{food}过敏，我能吃什么？
			假设我是{job}
			想象一下我住在{city}
			想象你是{role}
			假装你是{role}
			假装我是{job}，来面试我
			我们来角色扮演：你是{role}
			我们假装我叫{name}
			假如说我是{job}，一个月能赚多少？
			打个比方，我对{food}过敏
			举个例子，我住在{city}
			比如说“我喜欢{pref}”就是一种偏好
			这只是测试：我叫{name}
			测试一下，我住在{city}
			测试消息：我是{job}
			在我的小说里，主角对{food}过敏
			写个故事，我是{city}的一名{job}
			如果有人对{food}过敏，应该避免吃什么？
			假设我已经八十岁了，退休生活会是什么样？
			用户可能会说“我对{food}过敏”
			我在游戏里的角色住在{city}
			扮演{role}
			你来演{role}
			如果 I were allergic to peanuts 呢
			假设 I live in Tokyo
			万一我是{job}呢？
			{name}对{food}过敏
			{name}的生日是{date}
			{name}住在{city}
			{person}的{myattr}
			{name}的{myattr}
			{person}是{city}人
			{person}不吃{food}
			{person}说她对{food}过敏
			{person}特别喜欢{pref}
			{person}家养了{pet}
			{person}有{pet}
			听说{person}的{myattr}
			假如{person}{fact}呢？
			如果{person}{fact}，会怎么样？
			what if 我{fact}？
		`),
	},
}
