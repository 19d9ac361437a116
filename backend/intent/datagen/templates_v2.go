package datagen

import "strings"

// Phrasing families of issue 16 ("Intent v2"), added to the templates of
// templates.go: notes-to-self, facts stated without "remember", questions
// about oneself, imperatives naming a tool by its own name, greetings mixed
// with an actionable part (the actionable part decides the label),
// colloquial and elliptical Chinese, other people's facts, role-play and
// test messages. None of these was copied from
// backend/intent/testdata/challenge.jsonl, which no generator reads.

func init() {
	for label, byLang := range templatesV2 {
		for lang, tpls := range byLang {
			templates[label][lang] = append(templates[label][lang], tpls...)
		}
	}
	for k, v := range enSlotsV2 {
		enSlots[k] = append(enSlots[k], v...)
	}
	for k, v := range zhSlotsV2 {
		zhSlots[k] = append(zhSlots[k], v...)
	}
}

var templatesV2 = map[string]map[string][]string{
	"chitchat": {
		"en": lines(`
			{hi2} what can you do?
			{hi2} what are you able to help me with
			so what can you actually do
			what sort of stuff are you good at?
			how can you help me
			what are you capable of
			{hi2} how's your day going
			{hi2} whats new
			hows life
			just checking in
			yo whats good
			heyyy
			hellooo
			mornin
			gm
			gn
			ty
			tysm
			thank u!!
			cheers mate
			much obliged
			thanks, you saved me a lot of time
			that's amazing, thank you
			you rock
			ur amazing
			you're a star
			legend, thanks
			lmaooo
			hahaha nice
			😂😂
			👍
			omg that's so funny
			k
			kk
			alright then
			sure thing
			no problem
			cool beans
			nvm
			forget it, it's fine
			{weekendish}
			{feel2} today
			ugh {feel2}
			my day was {dayadj}
			{hi2} i'm back
			later!
			gotta run, bye
			catch you later
			take it easy
			sweet dreams
			sleep well
			you awake?
			are you real?
			do you dream?
			r u a bot
			who are you
			what should i call you
			sorry about that
			my bad, ignore me
			apologies for the typo
			you're slow today lol
			you seem tired haha
			that's a bit weird but ok
			interesting...
			huh
			wow ok
			no way
			really?
		`),
		"zh": lines(`
			{zhi2}你能干啥？
			{zhi2}你都会些什么
			你能帮我做什么呀
			你有什么本事
			说说你能干嘛
			{zhi2}最近咋样
			{zhi2}忙啥呢
			在不在
			在么
			人呢
			嗨嗨
			哈喽哈喽
			早上好呀
			午安
			晚上好
			睡了睡了，晚安
			谢谢你呀
			感谢感谢
			太感谢了
			谢了哈
			你太厉害了
			牛啊
			给力
			666
			哈哈哈哈
			笑死我了
			嘻嘻
			好嘞
			行吧
			嗯嗯
			收到
			ok了
			没问题
			算了算了
			不用了谢谢
			{zfeel}
			今天{zfeel2}
			唉，{zfeel2}
			终于下班了
			终于放假了
			周一好烦
			我来啦
			回来了
			先撤了
			回头聊
			下次见
			拜拜啦
			你是谁呀
			你叫什么名字
			你是真人吗
			你会累吗
			你有感情吗
			抱歉抱歉
			刚才不好意思
			你今天反应有点慢哈
			好吧
			有意思
			真的假的
			哇哦
		`),
	},
	"question": {
		"en": lines(`
			{hi2} {qk}
			{thx2} {qk}
			{qk}
			quick question, {qk}
			random q but {qk}
			hey so {qk}
			is it safe to {safeact}
			is it bad to {safeact}
			how long should i {cookact}
			how long do you {cookact}
			tips for {tipthing}?
			any tips for {tipthing}
			what's the rule for {grammar}
			when do you use {grammar}
			whats the diff between {pair}
			whats the difference between {pair}
			explain {topic} like im five
			eli5 {topic}
			what does {term} mean
			whats {term}
			define {term}
			who invented {invention}
			who wrote {book}
			when was {invention} invented
			why do {animal} {animalact}
			how do {gadget2} work
			how does {topic} work
			how many {countthing} are there in {countwhole}
			what is the capital of {country}
			which is bigger, {bigpair}
			how do i {howto}
			how to {howto}
			best way to {howto}
			can you explain {topic}
			is {food} healthy
			are {food} good for you
		`),
		"zh": lines(`
			{zhi2}{zqk}
			{zthx2}{zqk}
			{zqk}
			问一下，{zqk}
			请问{zqk}
			想问下{zqk}
			{zsafe}安全吗
			{zsafe}会有问题吗
			{zcook}要多久
			{zcook}几分钟比较好
			怎么{zhowto}
			咋{zhowto}
			{zhowto}有啥技巧
			{zpair}有啥区别
			{zpair}哪个好
			{zterm}是啥意思
			{zterm}是什么
			什么叫{zterm}
			为啥{zwhy}
			为什么{zwhy}
			{zinv}是谁发明的
			{zinv}是哪年发明的
			{zanimal}为啥{zanimalact}
			{zcountry}的首都是哪
			{zfood}健康吗
			{zfood}吃多了有害吗
		`),
	},
	"task": {
		"en": lines(`
			3* {toolname} {toolarg}
			{toolname} "{toolarg}"
			{toolname}: {toolarg}
			use {toolname} to say {toolarg}
			use the {toolname} tool with {toolarg}
			run {toolname} on {toolarg}
			call the {toolname} tool
			can you {toolname} {toolarg}
			please {toolname} {toolarg}
			{hi2} {toolname} {toolarg}
			ping {host}
			ping {host} and tell me if it's up
			is {host} up?
			check if {host} is reachable
			search my chat history for {needle}
			search my messages for {needle}
			find where i mentioned {needle} in our chats
			look through my notes for {needle}
			grep my notes for {needle}
			search my files for {needle}
			find {needle} in my documents
			open {file}
			open the file {file}
			read {file}
			show me {file}
			print the contents of {file}
			delete the file {file}
			rename {file} to {newfile}
			move {file} to {dir}
			copy {file} into {dir}
			count the lines in {file}
			how many words are in {file}
			list the files in {dir}
			whats in {dir}
			{hi2} can you list what's in {dir}
			run the {flow} workflow
			start the {flow} workflow
			kick off {flow}
			ask the {agent} agent to {agenttask}
			have the {agent} agent {agenttask}
			get the {agent} agent to {agenttask}
			what time is it in {city}
			whats the time in {city} rn
			time in {city}?
			what's the date today
			todays date pls
			how many days till {event2}
			days until {event2}?
			weather in {city} tomorrow?
			whats the weather like in {city}
			{expr} =?
			what is {pct} of {num}
			{pct} of {num}
			convert {conv}
			{hi2} what time is it
			{thx2} now set a timer for {mins} minutes
			save this to {newfile}: {note}
			write {note} into {newfile}
			translate {file} into {langname}
			summarize {file}
			fetch {url}
			download {url}
		`),
		"zh": lines(`
			3* {toolname} {toolarg}
			用 {toolname} 工具{ztoolact}
			调用 {toolname}，参数是 {toolarg}
			帮我 {toolname} 一下 {toolarg}
			跑一下 {toolname}
			喊一声{ztoolarg}
			大声喊{ztoolarg}
			帮我喊一句{ztoolarg}
			复述一遍：{ztoolarg}
			ping 一下 {host}
			看看 {host} 通不通
			{host} 能连上吗
			在聊天记录里搜{zneedle}
			搜一下聊天记录里的{zneedle}
			翻翻我们的聊天记录，找找{zneedle}
			在我的笔记里找{zneedle}
			搜一下我的文件里有没有{zneedle}
			帮我查查文档里的{zneedle}
			打开{file}
			打开 {file} 看看
			读一下{file}
			把{file}的内容给我看看
			删掉文件{file}
			把{file}改名成{newfile}
			把{file}挪到{zdir}
			{file}有多少行
			数一下{file}有多少字
			{zdir}里有啥文件
			看看{zdir}里都有什么
			跑一下{zflow}工作流
			启动{zflow}
			让{zagent}帮我{zagenttask}
			叫{zagent}去{zagenttask}
			{zcity}现在几点
			{zcity}那边几点了
			今天星期几
			今儿几号
			明天几号
			离{zevent}还有几天
			还有几天到{zevent}
			{zcity}明天下雨吗
			{zcity}天气咋样
			{zexpr}等于多少
			算下{zexpr}
			{num}的{zpct}是多少
			{zhi2}现在几点
			{zthx2}再帮我定个{mins}分钟的计时器
			把这句存到{newfile}：{znote}
			把{file}翻译成{zlangname}
			总结一下{file}
			下载 {url}
		`),
	},
	"remember": {
		"en": lines(`
			note for later: {note}
			note to self: {note}
			note: {note}
			for later: {note}
			memo: {note}
			jot this down: {note}
			save this: {note}
			keep this in mind: {note}
			fyi {myfact}
			fyi, {myfact}
			btw {myfact}
			heads up, {myfact}
			just so you know, {myfact}
			for the record, {myfact}
			keep in mind {myfact}
			for future reference {myfact}
			3* {myfact}
			2* my {possess}
			{myfact}, just so you know
			{myfact} btw
			i {cond}
			im {condadj}
			i'm {condadj}
			i am {condadj}, fyi
			my {possess}, remember that
			save my {possess}
			{hi2} {myfact}
			{hi2} note for later: {note}
			please remember {myfact}
			dont let me forget: {note}
			make a note that {myfact}
			store this: my {possess}
		`),
		"zh": lines(`
			记一下：{znote}
			帮我记一下：{znote}
			帮我记下，{znote}
			记下来：{znote}
			备忘：{znote}
			备忘一下，{znote}
			给我备注一下：{znote}
			记着点：{znote}
			你记一下，{zmyfact}
			跟你说一声，{zmyfact}
			顺便说一下，{zmyfact}
			告诉你个事，{zmyfact}
			以后记得{zmyfact}
			3* {zmyfact}
			2* 我的{zpossess}
			我{zcond}
			我有{zillness}
			我是{zcondadj}
			{zhi2}{zmyfact}
			{zhi2}记一下：{znote}
			帮我存一下：我的{zpossess}
			别忘了，{znote}
			提醒你一下，{zmyfact}
		`),
	},
	"recall": {
		"en": lines(`
			am i {condadj}?
			do i {cond}?
			am i allergic to {food}?
			did i say i {cond}
			is it true that i {cond}?
			do i have any {condkind}
			what's my {attr2}
			whats my {attr2} again
			what was my {attr2}
			what did i say my {attr2} was
			remind me what my {attr2} is
			do you know my {attr2}
			did i tell you my {attr2}?
			did i ever mention my {attr2}
			have i told you my {attr2}
			i forgot my {attr2}, what was it
			when is my {event3}
			when's my {event3} again
			what time is my {event3}
			when does my {expiring} expire
			where did i say i {placedthing}
			what did i tell you about {rtopic}
			what did i say about {rtopic} {ago}
			what did we talk about {ago}
			what did we discuss {ago}
			what do you remember about me
			what have i told you so far
			tell me everything you know about me
			which {favcat} do i like
			what's my favourite {favcat}
			{hi2} whats my {attr2}
		`),
		"zh": lines(`
			我对啥过敏来着
			我{zcond}吗？
			我是{zcondadj}吗
			我有{zillness}吗？
			我对{food}过敏吗
			我是不是对{food}过敏来着
			我有没有跟你说过我{zcond}
			我是不是{zcondadj}
			我有没有{zcondkind}
			我的{zattr2}是多少来着
			我的{zattr2}是啥
			我{zattr2}是什么来着
			我跟你说过我的{zattr2}吗
			你记得我的{zattr2}吗
			我之前说我的{zattr2}是啥
			提醒我一下我的{zattr2}
			我{zevent3}是哪天
			我{zevent3}是几点
			我的{zexpiring}啥时候到期
			我把{zplacedthing}放哪了
			我{zago}说的{zrtopic}是什么
			我们{zago}聊了什么
			你还记得我说过的{zrtopic}吗
			关于我你知道些啥
			我都跟你说过什么
			我喜欢啥{zfavcat}来着
			{zhi2}我的{zattr2}是多少
		`),
	},
	"forget": {
		"en": lines(`
			forget my {attr2}
			forget about my {attr2}
			delete my {attr2}
			remove my {attr2} from your memory
			erase my {attr2}
			wipe my {attr2}
			dont remember my {attr2} anymore
			stop remembering my {attr2}
			unlearn my {attr2}
			forget what i said about {rtopic}
			delete what i told you about {rtopic}
			scratch what i said about {rtopic}
			forget the note about {rtopic}
			remove the memory about {rtopic}
			delete everything about {rtopic}
			forget everything from {ago}
			delete our chat from {ago}
			clear the chat history
			wipe this conversation
			clear this session's history
			erase all my memories
			forget all of it
			forget that, it's wrong
			scratch that, forget it
			that's outdated, forget it
			i {changed}, forget the old one
			{hi2} forget my {attr2}
		`),
		"zh": lines(`
			忘掉我的{zattr2}
			把我的{zattr2}忘了
			删掉我的{zattr2}
			把我的{zattr2}删了
			别记着我的{zattr2}了
			我的{zattr2}不用记了，删掉
			把{zrtopic}那条删了
			关于{zrtopic}的都删掉
			忘了我说的{zrtopic}
			把{zago}的聊天删了
			清掉{zago}的记录
			聊天记录全删了
			清空这次对话
			清除我的记忆
			全部忘掉
			刚说的不算，忘了吧
			那条记错了，删掉
			我{zchanged}，之前那条删掉
			{zhi2}把我的{zattr2}删了
		`),
	},
	"hypothetical": {
		"en": lines(`
			{other} {otherfact}
			{other}'s {possess}
			{other} just {otherevent}
			{other} is {condadj}
			{other} {cond}
			my {other2} {otherfact}
			apparently {other} {otherfact}
			fun fact: {other} {otherfact}
			pretend i'm {rolep}
			pretend you're {role} and i'm {rolep}
			let's roleplay, i'm {rolep}
			roleplay as {role}
			you are now {role}
			act like {role}
			in this story {storyfact}
			in my novel {storyfact}
			this is a test: {myfact}
			just testing: {myfact}
			ignore this, test: {myfact}
			test msg, {myfact}
			example sentence: {myfact}
			for example: "{myfact}"
			what if {worldif}
			what would happen if {worldif}
			imagine {worldif}
			suppose {worldif}
			hypothetically, {worldif}
			what if i {ifme}
			if i {ifme}, what then
			say i {ifme}, what would happen
			let's say i {ifme}
		`),
		"zh": lines(`
			{zother}{zotherfact}
			{zother}的{zpossess}
			{zother}刚{zotherevent}
			{zother}有{zillness}
			听说{zother}{zotherfact}
			假装我是{zrolep}
			你演{zrole}，我演{zrolep}
			来玩个角色扮演，我是{zrolep}
			现在你是{zrole}
			在这个故事里，{zstoryfact}
			我小说里{zstoryfact}
			测试一下：{zmyfact}
			这是测试，{zmyfact}
			别当真，测试：{zmyfact}
			举个例子：{zmyfact}
			比如“{zmyfact}”这种话
			如果{zworldif}会怎样
			要是{zworldif}呢
			假如{zworldif}
			想象一下{zworldif}
			万一{zworldif}怎么办
			如果我{zifme}呢
			要是我{zifme}会怎样
			假设我{zifme}
		`),
	},
}

var enSlotsV2 = map[string][]string{
	"hi2":        vals(`hi!,hey,hello,good morning,hey there,hiya,morning,hi there,yo`),
	"thx2":       vals(`thanks!,thx,thank you,cheers,great thanks,ok thanks,perfect`),
	"weekendish": vals(`finally friday!!`),
	"feel2":      vals(`so tired,kinda bored,feeling great,pretty stressed,in a good mood`),
	"dayadj":     vals(`rough,pretty good,so long,awesome,exhausting`),
	"qk": vals(`
		why is the ocean salty
		how do airplanes stay in the air
		how far is mars from earth
		whats the speed of sound
		what is inflation
		how does a credit score work
		why do leaves change color in autumn
		what causes thunder
		how do bees make honey
		what's the population of japan
		what is a black hole
		how do i change a flat tyre
		how does wifi work
		what does dna stand for
		why do we yawn
	`),
	"safeact":    vals(`eat eggs past the date,drink tap water in spain,microwave plastic containers,run every day,leave a laptop charging overnight,eat raw fish`),
	"cookact":    vals(`boil pasta,bake salmon,roast a chicken,steep green tea,cook quinoa,grill corn`),
	"tipthing":   vals(`public speaking,learning to swim,growing tomatoes,writing a cv,saving money,sleeping better`),
	"grammar":    vals(`apostrophes,who vs whom,the oxford comma,affect vs effect,its vs it's,the past perfect`),
	"term":       vals(`a recession,an api,photosynthesis,gdp,machine learning,a sonnet,entropy,a hedge fund`),
	"invention":  vals(`the light bulb,the printing press,the internet,the airplane,the bicycle,penicillin`),
	"animal":     vals(`dogs,cats,birds,whales,owls,cows`),
	"animalact":  vals(`sleep so much,migrate,sing,wag their tails,have whiskers,hum`),
	"gadget2":    vals(`microwaves,fridges,touchscreens,3d printers,electric cars,smoke detectors`),
	"countthing": vals(`bones,countries,teeth,states,planets,keys`),
	"countwhole": vals(`the human body,africa,an adult mouth,the usa,the solar system,a piano`),
	"bigpair":    vals(`the sun or jupiter,china or canada,an elephant or a whale,the pacific or the atlantic`),
	"toolname":   vals(`shout,ping,echo,yell,say,whisper,beep,notify,speak,announce,fetch,grep`),
	"toolarg":    vals(`good morning everyone,test 123,the build is done,lunch is ready,all good,deploy finished,hi mom`),
	"host":       vals(`192.168.0.1,10.0.0.5,google.com,the router,nas.local,my printer,8.8.8.8,the server`),
	"needle":     vals(`"receipt","passport","tax return","meeting notes","the wifi password","flight booking",invoice 2024,the word budget`),
	"flow":       vals(`backup,daily report,cleanup,sync,deploy,weekly summary,photo import`),
	"agent":      vals(`research,writer,coder,planner,reviewer,summary`),
	"agenttask":  vals(`summarize this article,draft an email to my landlord,review my pull request,plan a weekend trip,find three sources on solar power,check my essay for typos`),
	"event2":     vals(`christmas,new year,my vacation,easter,halloween,the weekend,payday`),
	"pct":        vals(`15%,20 percent,7.5%,a third,12%`),
	"num":        vals(`250,1800,64,3400,99,12000`),
	"langname":   vals(`french,german,spanish,japanese,chinese,italian`),
	"url":        vals(`https://example.com/report.pdf,example.org,http://nas.local/status,the release notes page`),
	"note": vals(`
		{thing2} expires in {month} {year}
		dentist on {weekday} at {hour}
		pick up the dry cleaning on {weekday}
		car service due in {month}
		rent goes up to 1400 from {month}
		my passport number ends in 4417
		pay the council tax before {month}
		the spare key is under the blue pot
		parking spot is level 2 bay 38
		flight to lisbon on {month} 12
		vet appointment for the dog next {weekday}
	`),
	"thing2":  vals(`my passport,my driving licence,the car insurance,my gym membership,my id card,the warranty on my laptop`),
	"month":   vals(`january,march,may,july,september,november`),
	"year":    vals(`2027,2028,2029,2030`),
	"weekday": vals(`monday,tuesday,wednesday,thursday,friday,saturday`),
	"hour":    vals(`9am,10:30,2pm,4pm,noon`),
	"myfact": vals(`
		i {cond}
		i'm {condadj}
		my {possess}
		i live on the {floor} floor
		i work from home on {weekday}s
		i'm left handed
		i take the train to work
		i don't drink alcohol
		i'm trying to cut down on sugar
		i usually go to bed after midnight
		i've got a bad knee
		i speak french and german
		i'm saving up for a house
		i always forget my keys
		i prefer short answers
		i like my tea with milk
		i've been vegan since 2019
		i have a meeting every monday at 9
		i'm scared of flying
		i drive an old {carname}
	`),
	"floor":    vals(`2nd,3rd,5th,7th,top,ground`),
	"carname":  vals(`toyota yaris,vw golf,ford focus,mazda 3,fiat panda`),
	"cond":     vals(`have asthma,have diabetes,have a peanut allergy,wear glasses,have celiac disease,have migraines,can't eat gluten,hate spicy food,can't swim,don't eat pork`),
	"condadj":  vals(`lactose intolerant,diabetic,colour blind,vegetarian,gluten free,allergic to cats,short sighted,pregnant,a night owl,an early riser`),
	"condkind": vals(`allergies,dietary restrictions,health issues,medications,food intolerances`),
	"possess": vals(`
		wifi password is {pw}
		locker code is {code}
		bike lock code is {code}
		flat is on the {floor} floor
		apartment has no lift
		car is a {carname}
		bank is {bank}
		doctor is dr {surname}
		dentist is on {street}
		landlord's number is 0770 {code}
		employee number is {code}
		shoe size is 43
		blood type is o negative
		passport expires in {month} {year}
		office is on {street}
		gym is open till 10
		phone is a pixel 7
	`),
	"pw":          vals(`bluefish77,tangerine!2,k1ttenhouse,Summer2023`),
	"code":        vals(`4471,1290,8833,5521,0307`),
	"bank":        vals(`barclays,monzo,chase,ing,revolut`),
	"surname":     vals(`patel,nguyen,smith,okafor,kim`),
	"street":      vals(`king street,elm road,high street,park lane,mill road`),
	"attr2":       vals(`router password,locker code,passport renewal date,blood type,shoe size,doctor's name,car model,bank,employee number,bike lock code,landlord's number,address,birthday,phone number,allergies`),
	"event3":      vals(`dentist appointment,vet appointment,flight,car service,next meeting,haircut`),
	"expiring":    vals(`passport,driving licence,car insurance,gym membership,lease,warranty`),
	"placedthing": vals(`parked the car,left the spare key,put my passport,kept the warranty card`),
	"ago":         vals(`yesterday,last week,earlier today,this morning,last time,a while ago`),
	"favcat":      vals(`band,movie,food,colour,book,sport`),
	"changed":     vals(`moved house,changed jobs,got a new phone,sold the car,changed my number`),
	"other":       vals(`my colleague,my aunt,my flatmate,my boyfriend,my girlfriend,my uncle,my grandma,my manager,my teacher,my niece,my nephew,my best friend,tom,jessica,my partner`),
	"other2":      vals(`colleague anna,neighbour's kid,friend lee,cousin mark`),
	"otherfact":   vals(`is allergic to nuts,lives in glasgow,works at a bank,hates flying,just had a baby,is learning piano,drives a tesla,is vegan,plays tennis every sunday,got promoted,is moving to berlin,doesn't eat fish,has two dogs,loves jazz`),
	"otherevent":  vals(`got married,started a new job,moved to leeds,adopted a cat,bought a house,broke his leg`),
	"rolep":       vals(`a customer with a broken phone,a job candidate,a tourist lost in rome,a student who failed an exam,an angry neighbour`),
	"storyfact":   vals(`the detective is afraid of dogs,the king lives on the moon,the heroine is a pilot,everyone can fly,the villain is allergic to sunlight`),
	"worldif":     vals(`the internet went down forever,humans could breathe underwater,the sun disappeared,cats ruled the world,money didn't exist,we had no electricity for a year,gravity was half as strong`),
	"ifme":        vals(`lost my job,moved to japan,won the lottery,stopped eating meat,retired at 50,had twins,dropped out of college`),
}

var zhSlotsV2 = map[string][]string{
	"toolname": vals(`shout,ping,echo,yell,say,notify,speak,fetch`),
	"toolarg":  vals(`你好世界,大家好,测试 123,构建完成了,开饭了,部署好了`),
	"host":     vals(`192.168.1.1,10.0.0.8,baidu.com,路由器,nas.local,打印机,服务器`),
	"url":      vals(`https://example.com/a.pdf,example.cn,http://nas.local/status`),
	"num":      vals(`250,1800,64,3400,99,12000`),
	"zhi2":     vals(`你好，,嗨，,哈喽，,早，,在吗，,你好呀，,hi，`),
	"zthx2":    vals(`谢谢！,谢啦，,好的谢谢，,多谢，,辛苦了，`),
	"zfeel":    vals(`好困啊,累死了,好烦,开心,无聊死了`),
	"zfeel2":   vals(`好累,心情不错,有点烦,特别开心,好困`),
	"zqk": vals(`
		天为什么是蓝的
		人为什么要睡觉
		彩虹是怎么形成的
		黑洞是什么
		地球为什么是圆的
		打雷是怎么回事
		蜜蜂怎么酿蜜
		什么是区块链
		中国有多少个省
		珠穆朗玛峰有多高
		怎么做红烧肉
		感冒了喝什么好
		电动车和油车哪个划算
	`),
	"zsafe":      vals(`过期一天的牛奶喝了,孕妇吃螃蟹,空腹喝咖啡,微波炉热塑料盒,每天跑十公里,隔夜菜`),
	"zcook":      vals(`蒸鱼,煮饺子,炖排骨,烤红薯,煮意面,蒸鸡蛋羹`),
	"zhowto":     vals(`去除衣服上的油渍,养多肉,学好英语口语,提高睡眠质量,挑选西瓜,给手机省电,练出腹肌`),
	"zpair":      vals(`豆浆和牛奶,iPhone 和安卓,基金和股票,绿茶和乌龙茶,跑步和游泳,租房和买房`),
	"zterm":      vals(`通货膨胀,GDP,量子计算,内卷,碳中和,元宇宙,复利`),
	"zwhy":       vals(`天会下雨,猫喜欢纸箱,冬天容易感冒,月亮会变形状,人会做梦,海是蓝色的`),
	"zinv":       vals(`电灯,印刷术,飞机,互联网,指南针`),
	"zanimal":    vals(`狗,猫,鸟,鱼,熊猫,兔子`),
	"zanimalact": vals(`吐舌头,喜欢晒太阳,会迁徙,睡那么久,怕水`),
	"zcountry":   vals(`澳大利亚,加拿大,巴西,土耳其,新西兰,埃及`),
	"zfood":      vals(`燕麦,红肉,牛油果,咖啡,黑巧克力,方便面`),
	"ztoolact":   vals(`喊一句 你好,发个通知说 开会了,说一遍 测试,ping 一下路由器`),
	"ztoolarg":   vals(` 你好世界, 开饭啦, 测试测试, 大家早上好, 下班了`),
	"zneedle":    vals(`“发票”,“护照”,“报销”,关于房租的内容,“机票”,“会议纪要”`),
	"zdir":       vals(`桌面,下载文件夹,文档目录,图片文件夹,~/projects`),
	"zflow":      vals(`备份,日报,清理,同步,周报`),
	"zagent":     vals(`研究助手,写作助手,代码助手,规划助手`),
	"zagenttask": vals(`总结这篇文章,写一封请假邮件,检查一下代码,规划周末行程,查三篇相关论文`),
	"zcity":      vals(`东京,纽约,上海,悉尼,巴黎,深圳`),
	"zevent":     vals(`春节,国庆,中秋,元旦,我放假,发工资`),
	"zexpr":      vals(`128 乘 37,1024 除以 16,45 加 78,3 的 8 次方,999 减 123,根号 144`),
	"zpct":       vals(`百分之十五,15%,三成,8%`),
	"zlangname":  vals(`英文,日文,法语,中文`),
	"znote": vals(`
		{zthing2}{zmonth}到期
		{zweekday}下午{zhour}看牙
		{zweekday}去拿干洗的衣服
		车子{zmonth}要保养
		房租下个月涨到三千五
		备用钥匙在门口花盆底下
		车停在B1 45号
		{zmonth}二十号的航班去成都
		下{zweekday}带狗去打疫苗
		{zmonth}前交物业费
	`),
	"zthing2":  vals(`护照,驾照,车险,健身卡,身份证,房租合同`),
	"zmonth":   vals(`三月,五月,七月,九月,十一月,明年二月`),
	"zweekday": vals(`周一,周二,周三,周四,周五,周六`),
	"zhour":    vals(`两点,三点半,四点,十点`),
	"zmyfact": vals(`
		我{zcond}
		我是{zcondadj}
		我的{zpossess}
		我住{zfloor}楼
		我每周{zweekday}在家办公
		我是左撇子
		我坐地铁上班
		我不喝酒
		我在戒糖
		我一般十二点以后才睡
		我膝盖不太好
		我会说粤语
		我在攒钱买房
		我喜欢回答短一点
		我喝咖啡不加糖
		我开的是一辆{zcarname}
		我怕坐飞机
		我每周一早上九点开会
	`),
	"zfloor":    vals(`三,五,七,十二,顶,一`),
	"zcarname":  vals(`卡罗拉,比亚迪汉,特斯拉 Model 3,大众朗逸`),
	"zcond":     vals(`有哮喘,有糖尿病,对花粉过敏,戴眼镜,不吃猪肉,不能吃辣,乳糖不耐受,不会游泳,怕冷`),
	"zillness":  vals(`高血压,胃病,过敏性鼻炎,腰椎间盘突出,偏头痛`),
	"zcondadj":  vals(`素食者,色弱,夜猫子,近视,孕妇,糖尿病人`),
	"zcondkind": vals(`过敏,忌口,慢性病,在吃的药`),
	"zpossess": vals(`
		wifi密码是{zpw}
		储物柜密码是{zcode}
		自行车锁密码{zcode}
		家在{zfloor}楼，没有电梯
		车是{zcarname}
		银行卡是{zbank}的
		医生是{zsurname}大夫
		工号是{zcode}
		鞋码是 42
		血型是 B 型
		护照{zmonth}到期
		公司在{zstreet}
	`),
	"zpw":          vals(`abc12345,moonlight88,xiaomao2023`),
	"zcode":        vals(`4471,1290,8833,5521,0307`),
	"zbank":        vals(`招行,工行,建行,中行`),
	"zsurname":     vals(`王,李,张,刘,陈`),
	"zstreet":      vals(`人民路,中山路,科技园,南京路`),
	"zattr2":       vals(`wifi密码,储物柜密码,护照到期日,血型,鞋码,工号,车牌号,银行卡,地址,生日,手机号,医生`),
	"zevent3":      vals(`看牙,打疫苗,航班,车保养,开会,理发`),
	"zexpiring":    vals(`护照,驾照,车险,健身卡,租房合同,身份证`),
	"zplacedthing": vals(`车,备用钥匙,护照,保修卡`),
	"zago":         vals(`昨天,上周,刚才,之前,上次,前几天`),
	"zrtopic":      vals(`房租,工作,我的饮食,旅行计划,我的健康,我家狗`),
	"zfavcat":      vals(`电影,歌手,菜,颜色,书,运动`),
	"zchanged":     vals(`搬家了,换工作了,换手机号了,把车卖了,不吃素了`),
	"zother":       vals(`我同事,我姑姑,我室友,我男朋友,我女朋友,我舅舅,我奶奶,我领导,我老师,我侄子,我闺蜜,小王,老李,我对象`),
	"zotherfact":   vals(`对坚果过敏,住在广州,在银行上班,怕坐飞机,刚生了孩子,在学钢琴,开特斯拉,吃素,每周日打网球,升职了,要搬去北京,不吃鱼,养了两条狗,喜欢爵士乐`),
	"zotherevent":  vals(`结婚了,换了工作,搬到了成都,领养了一只猫,买了房,摔断了腿`),
	"zrolep":       vals(`一个手机坏了的顾客,来面试的人,在罗马迷路的游客,考试挂科的学生,生气的邻居`),
	"zrole":        vals(`医生,客服,面试官,老师,海盗船长`),
	"zstoryfact":   vals(`侦探怕狗,国王住在月亮上,女主角是飞行员,人人都会飞,反派怕阳光`),
	"zworldif":     vals(`互联网永远断了,人能在水下呼吸,太阳消失了,猫统治了世界,世界上没有钱,停电一年,重力减半`),
	"zifme":        vals(`失业了,搬去日本,中了彩票,不吃肉了,五十岁退休,生了双胞胎,辍学了`),
}

// vals splits a slot block on newlines and commas.
func vals(block string) []string {
	var out []string
	for _, l := range lines(block) {
		for _, v := range strings.Split(l, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}
