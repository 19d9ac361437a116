package datagen

// Slot values. A value may itself hold {slot} references, expanded
// recursively. Some English lists carry Chinese values and the other way
// round, so mixed-language messages occur naturally.

var enSlots = map[string][]string{
	"food": lines(`
		peanuts
		shellfish
		gluten
		eggs
		soy
		sesame
		strawberries
		tree nuts
		shrimp
		penicillin
		aspirin
		cats
		pollen
		bee stings
		latex
		dust mites
		kiwi
		mustard
		dairy
		花生
	`),
	"pref": lines(`
		dark mode
		green tea
		jazz
		spicy food
		short answers
		bullet points
		metric units
		early mornings
		cold brew
		hiking
		sci-fi novels
		window seats
		vim
		mechanical keyboards
		oat milk
		classical music
		board games
		rainy days
		aisle seats
		thai food
	`),
	"dislike": lines(`
		loud music
		cilantro
		long emails
		meetings before 10
		olives
		horror movies
		emojis
		crowded places
		mushrooms
		small talk in the morning
		pineapple on pizza
	`),
	"city": lines(`
		Berlin
		Tokyo
		Lisbon
		Shanghai
		Chengdu
		Toronto
		Nairobi
		Oslo
		Austin
		Melbourne
		Seoul
		Madrid
		Denver
		Hangzhou
		Mumbai
		北京
	`),
	"job": lines(`
		nurse
		teacher
		software engineer
		pilot
		accountant
		field technician
		paramedic
		data analyst
		chef
		lawyer
		student
		electrician
		graphic designer
		farmer
		pharmacist
		truck driver
	`),
	"name": lines(`
		Alex
		Maria
		Wei
		Sam
		Priya
		Jonas
		Chen
		Fatima
		Lucas
		Mei
		Omar
		Hannah
	`),
	"person": lines(`
		my friend
		my sister
		my brother
		my boss
		my mom
		my dad
		my coworker
		my neighbor
		my roommate
		my cousin
		my son
		my daughter
		my husband
		my wife
		my grandma
		a colleague of mine
		a client
		Tom
		Lisa
		my best friend
		my manager
		my teammate
		my kid
		our new intern
	`),
	"pet": lines(`
		a cat named Mochi
		a golden retriever
		two rabbits
		a parrot
		a dog called Biscuit
		three goldfish
		an old beagle
	`),
	"learn": lines(`
		Spanish
		Japanese
		Mandarin
		German
		Portuguese
		Korean
		French
		the piano
	`),
	"date": lines(`
		March 3rd
		July 14
		the 21st of May
		December 2
		October 30th
		Jan 9
		the first of April
	`),
	"age": lines(`
		24
		31
		45
		52
		67
		19
	`),
	"fact": lines(`
		am allergic to {food}
		live in {city}
		work as a {job}
		prefer {pref}
		don't drink coffee
		am vegetarian
		have two kids
		am left-handed
		use Linux at home
		wake up at 6 every day
		take the bus to work
		am colorblind
		speak {learn}
		am diabetic
		run every morning
		have {pet}
	`),
	"topic": lines(`
		photosynthesis
		black holes
		inflation
		the TCP handshake
		compound interest
		recursion
		DNS
		the French Revolution
		plate tectonics
		quantum entanglement
		machine learning
		the immune system
		supply and demand
		blockchain
		the greenhouse effect
		general relativity
		a mortgage
		an index fund
		nuclear fusion
		gravity
		electricity
		natural selection
		the Pythagorean theorem
		a neural network
		public key cryptography
		the water cycle
	`),
	"howto": lines(`
		boil an egg
		tie a tie
		center a div in CSS
		write a cover letter
		change a flat tire
		learn guitar
		make sourdough bread
		reverse a linked list
		negotiate a salary
		plant tomatoes
		fold a fitted sheet
		start running
		use git rebase
		make cold brew coffee
		get rid of hiccups
		remove a wine stain
		write a unit test in Go
		cook rice without a rice cooker
		train for a 5k
		read a balance sheet
	`),
	"pair": lines(`
		TCP and UDP
		a virus and bacteria
		weather and climate
		affect and effect
		RAM and storage
		stocks and bonds
		lists and tuples in Python
		baking soda and baking powder
		a crocodile and an alligator
		HTTP and HTTPS
		latte and cappuccino
		a comet and an asteroid
	`),
	"book": lines(`
		Pride and Prejudice
		Dream of the Red Chamber
		1984
		The Odyssey
		War and Peace
		One Hundred Years of Solitude
		The Three-Body Problem
		Moby Dick
	`),
	"word": lines(`
		serendipity
		ephemeral
		ubiquitous
		schadenfreude
		entropy
		latency
		idempotent
		hygge
		quixotic
	`),
	"mins": lines(`
		5
		10
		15
		20
		25
		45
		90
		3
	`),
	"expr": lines(`
		17*23
		345 + 678
		2^10
		15 percent of 80
		1024 / 16
		3.5 * 12
		999 - 123
		the square root of 144
		7 times 8
		12 squared
		48 divided by 6
		1.2 million times 3
	`),
	"conv": lines(`
		5 km to miles
		100 fahrenheit to celsius
		20 euros to dollars
		3 cups to ml
		150 pounds to kg
		2 hours to seconds
		6 feet to cm
		500 grams to ounces
	`),
	"file": lines(`
		report.pdf
		notes.txt
		the budget spreadsheet
		todo.md
		the meeting notes
		config.yaml
		invoice_2024.pdf
		draft_v2.docx
		the latest log file
	`),
	"newfile": lines(`
		ideas.txt
		shopping.md
		plan_2025.docx
		notes-backup.txt
		trip.md
	`),
	"dir": lines(`
		~/Downloads
		the Documents folder
		/tmp
		the desktop
		the project folder
		the shared drive
		the photos folder
	`),
	"rem": lines(`
		call mom
		take my pills
		submit the report
		water the plants
		pay rent
		check the oven
		join the standup
		pick up the kids
		renew my passport
	`),
	"time": lines(`
		at 5pm
		tomorrow at 9
		in 20 minutes
		at noon
		on Friday morning
		tonight at 8
		in an hour
	`),
	"search": lines(`
		invoices from March
		the word deadline
		emails from Omar
		pdfs about solar panels
		the draft proposal
		photos from last summer
	`),
	"cmd": lines(`
		git status
		the build
		the unit tests
		ls -la
		the backup script
	`),
	"rtopic": lines(`
		my allergies
		my job
		my trip to Japan
		my diet
		my sister
		the project deadline
		my preferences
		my car
		my address
		my kids
		my workout plan
		my coffee order
		my birthday
		my health issues
	`),
	"rthing": lines(`
		name
		birthday
		address
		allergy
		job
		favorite food
		dog's name
		coffee order
	`),
	"favthing": lines(`
		color
		food
		band
		movie
		book
		drink
	`),
	"role": lines(`
		a pirate
		a job interviewer
		my boss
		a travel agent
		Sherlock Holmes
		a grumpy cat
		an angry customer
		a medieval knight
		a Socratic tutor
		a tour guide in Rome
	`),
	"greet": lines(`
		hi
		hello
		hey
		good morning
		yo
		hey there
		hiya
	`),
	"small": lines(`
		how are you?
		how's your day going?
		what's new?
		long time no see
		hope you're doing well
		how have you been?
		how's life?
	`),
	"thanks": lines(`
		thanks
		thank you
		thx
		many thanks
		thanks a ton
		ty
	`),
	"praise": lines(`
		you're great
		that was perfect
		super helpful
		you rock
		that's exactly what I needed
		nice work
		love it
	`),
	"mood": lines(`
		great
		tired
		sleepy
		lazy
		happy
		meh
		stressed
		excited
		a bit down
	`),
	"weatherish": lines(`
		hot
		cold
		rainy
		gloomy
		windy
	`),
	"chitobj": lines(`
		this app
		you
		this chat
		it
		your jokes
		that answer
		talking with you
	`),
	"bye": lines(`
		bye
		see you
		later
		cya
		talk soon
		catch you later
		good night
	`),
	"slang": lines(`
		lol
		lmao
		haha
		hehe
		xD
		rofl
	`),
	"theme": lines(`
		autumn
		the sea
		friendship
		the moon
		coffee
		my hometown
		a rainy day
	`),
	"brainstorm": lines(`
		a coffee shop
		a birthday party
		a team offsite
		a fantasy novel
		a podcast about cooking
	`),
	"myth": lines(`
		goldfish have a three second memory
		we only use 10% of our brains
		lightning never strikes twice
		cracking your knuckles causes arthritis
	`),
	"action": lines(`
		take a screenshot
		turn on do not disturb
		mute notifications
		lock the screen
		empty the trash
		zip {dir}
		copy {file} to {dir}
		print {file}
		check for updates
		show the CPU usage
		list running processes
		check how much RAM is free
		open the calculator
		pause the music
		turn up the volume
		back up {dir}
	`),
	"when": lines(`
		today
		tomorrow
		this weekend
		tonight
		on Saturday
		this afternoon
	`),
	"myattr": lines(`
		shoe size is 42
		blood type is A positive
		favorite color is blue
		favorite band is Radiohead
		car is a red Honda Civic
		dog's name is Biscuit
		employee id is 5521
		usual coffee is a flat white
		native language is Portuguese
		hometown is {city}
		goal this year is to run a marathon
		budget for the trip is 2000 euros
		phone is an old iPhone 8
	`),
	"habit": lines(`
		eat for breakfast
		drink in the morning
		do on weekends
		wear to work
		order at cafes
		read before bed
	`),
	"attrkey": lines(`
		shoe size
		blood type
		employee id
		hometown
		native language
		favorite color
		usual coffee
		phone model
	`),
	"state": lines(`
		back
		bored
		heading out
		off to bed
		going to sleep now
		done for today
		so sleepy
		hungry lol
		just chilling
		home now
		out for lunch
		stuck in traffic ugh
	`),
	"period": lines(`
		day
		weekend
		morning
		week
		holiday
	`),
	"okphrase": lines(`
		nvm
		no worries
		it's fine
		all good
		no problem
		never mind
	`),
	"writing": lines(`
		a short bio
		a leave request email
		a team slogan
		a birthday message for a coworker
		an opening line for a meeting
		a limerick about cats
	`),
	"event": lines(`
		the Roman Empire fall
		humans land on the moon
		the printing press appear
		the Tang dynasty end
		the first iPhone come out
		the Berlin Wall fall
	`),
	"choice": lines(`
		rent or buy a home
		lease or buy a car
		learn Python or Java first
		study abroad or at home
		take the train or fly
	`),
	"chance": lines(`
		flip a coin
		roll a die
		roll two dice
		pick a random number between 1 and 10
		pick a random card
		choose heads or tails
	`),
	"resource": lines(`
		disk space
		memory
		battery
		storage
	`),
	"lifeevent": lines(`
		I'm getting married in June
		I'm moving to {city} next month
		I'm starting a new job as a {job} next week
		I'm having a baby in the spring
		I just adopted {pet}
		I quit my job last week
	`),
	"fact3": lines(`
		is allergic to {food}
		lives in {city}
		works as a {job}
		prefers {pref}
		doesn't drink coffee
		is vegetarian
		has two kids
	`),
	"assistq": lines(`
		what's your name?
		how old are you?
		where do you live?
		are you a human?
		do you have a name?
		who are you?
		are you real?
		do you like your job?
	`),
	"holiday": lines(`
		merry christmas
		happy new year
		happy holidays
		happy thanksgiving
		happy lunar new year
		cheers
		happy easter
	`),
	"factq": lines(`
		speed of light
		population of Japan
		boiling point of water
		distance to Mars
		height of Mount Everest
		melting point of iron
		average lifespan of a cat
		circumference of the earth
	`),
	"healthitem": lines(`
		coffee
		red meat
		sugar
		dark chocolate
		intermittent fasting
		running every day
		sparkling water
	`),
	"habitstmt": lines(`
		usually drink tea in the morning
		go hiking on weekends
		swim every wednesday
		go to bed at 11
		bike to work
		meditate before work
		cook dinner at home most nights
	`),
	"fverb": lines(`
		delete
		erase
		remove
		wipe
		clear
		get rid of
		throw away
		purge
		discard
	`),
	"fobj": lines(`
		everything you saved about me
		my address
		what I told you about {rtopic}
		my {rthing}
		all my data
		the memory about {rtopic}
		your notes about me
	`),
	"ack": lines(`
		makes sense
		fair enough
		true
		I see
		right
		gotcha
		understood
		ah ok
	`),
	"presence": lines(`
		are you there?
		you still there?
		anyone there?
		hello?
		you awake?
	`),
	"countq": lines(`
		bones are in the human body
		planets are in the solar system
		countries are in Africa
		hearts does an octopus have
		keys are on a piano
		players are on a soccer team
		moons does Jupiter have
	`),
	"country": lines(`
		Brazil
		Switzerland
		Kenya
		Canada
		Belgium
		Peru
		Vietnam
	`),
	"timeq": lines(`
		what's the time now
		tell me the time
		current time?
		time check
		got the time?
		what hour is it
		what time is it right now?
	`),
	"gadget": lines(`
		start a stopwatch
		generate a strong password
		start a {mins} minute countdown
		make a random password with 16 characters
		set a reminder for {time}
	`),
	"selfadj": lines(`
		lactose intolerant
		vegetarian
		vegan
		left-handed
		colorblind
		allergic to {food}
		a {job}
		diabetic
		pregnant
		retired
		an introvert
		a morning person
		deaf in one ear
		short-sighted
	`),
	"doing": lines(`
		training for a marathon
		learning {learn}
		saving up for a house
		studying for the bar exam
		writing a novel
		renovating my kitchen
	`),
	"rverb": lines(`
		list
		show me
		tell me
		summarize
		read back
		go over
	`),
	"robj": lines(`
		everything you remember about me
		what you know about me
		my saved memories
		what you have on file about me
		the facts you saved about me
		what you've learned about me
	`),
	"rq": lines(`
		where I live
		how old I am
		what I do for work
		what I'm allergic to
		when my birthday is
		what my dog is called
		which team I support
		where I grew up
	`),
}

var zhSlots = map[string][]string{
	"food": lines(`
		花生
		海鲜
		芒果
		牛奶
		鸡蛋
		青霉素
		猫毛
		花粉
		虾
		坚果
		麸质
		芝麻
		菠萝
		酒精
		大豆
		阿司匹林
		peanuts
	`),
	"pref": lines(`
		喝绿茶
		爬山
		听爵士乐
		吃辣
		深色模式
		简短的回答
		看科幻小说
		打羽毛球
		喝美式咖啡
		靠窗的座位
		早起
		下围棋
		养花
		骑行
	`),
	"dislike": lines(`
		香菜
		吵闹的地方
		早上开会
		长篇大论
		恐怖片
		榴莲
		加班
		排队
		表情包
	`),
	"city": lines(`
		北京
		上海
		成都
		杭州
		深圳
		广州
		西安
		武汉
		南京
		重庆
		柏林
		东京
		多伦多
		厦门
		昆明
		Tokyo
	`),
	"job": lines(`
		护士
		老师
		程序员
		医生
		会计
		设计师
		工程师
		律师
		厨师
		记者
		大学生
		电工
		外卖骑手
		销售
		药剂师
	`),
	"name": lines(`
		小明
		王芳
		李伟
		张敏
		阿杰
		陈静
		刘洋
		小雨
		老周
		丽丽
		Kevin
	`),
	"person": lines(`
		我朋友
		我妹妹
		我哥
		我老板
		我妈
		我爸
		我同事
		我邻居
		我室友
		我表姐
		我儿子
		我女儿
		我老公
		我老婆
		我奶奶
		小王
		张三
		我同学
		我们经理
		我闺蜜
		我们组的新人
	`),
	"pet": lines(`
		一只叫团子的猫
		一条金毛
		两只兔子
		一只鹦鹉
		一只柯基
		几条金鱼
	`),
	"learn": lines(`
		日语
		英语
		德语
		法语
		西班牙语
		粤语
		钢琴
	`),
	"date": lines(`
		三月三号
		7月14日
		五月二十一号
		12月2日
		十月三十号
		1月9号
		农历八月十五
	`),
	"age": lines(`
		24
		31
		四十五
		52
		六十七
		19
	`),
	"fact": lines(`
		对{food}过敏
		住在{city}
		是{job}
		喜欢{pref}
		不喝咖啡
		吃素
		有两个孩子
		是左撇子
		在家用 Linux
		每天六点起床
		坐地铁上班
		是色盲
		会说{learn}
		有糖尿病
		每天早上跑步
		养了{pet}
	`),
	"topic": lines(`
		光合作用
		黑洞
		通货膨胀
		量子计算
		区块链
		相对论
		复利
		递归
		机器学习
		免疫系统
		温室效应
		基金定投
		板块运动
		核聚变
		万有引力
		DNS
		供需关系
		科举制度
		神经网络
		勾股定理
		水循环
		非对称加密
	`),
	"howto": lines(`
		煮溏心蛋
		打领带
		写简历
		换轮胎
		学吉他
		做红烧肉
		提高英语口语
		背单词
		剪辑视频
		学游泳
		种番茄
		泡功夫茶
		用 git 回滚提交
		写求职信
		去除衣服上的油渍
		用电饭煲做蛋糕
		准备公务员考试
		看懂财务报表
	`),
	"pair": lines(`
		TCP 和 UDP
		病毒和细菌
		天气和气候
		股票和债券
		内存和硬盘
		绿茶和红茶
		鳄鱼和短吻鳄
		HTTP 和 HTTPS
		公积金和社保
		拿铁和卡布奇诺
		彗星和小行星
	`),
	"book": lines(`
		红楼梦
		三体
		活着
		围城
		西游记
		百年孤独
		平凡的世界
		水浒传
	`),
	"word": lines(`
		内卷
		躺平
		熵
		刻舟求剑
		画蛇添足
		塞翁失马
		幂等
		破防
	`),
	"mins": lines(`
		5
		十
		15
		二十
		30
		45
		3
	`),
	"expr": lines(`
		17乘以23
		345加678
		2的10次幂
		80的15%
		1024除以16
		3.5乘12
		999减123
		144的平方根
		七乘八
		12的平方
		48除以6
	`),
	"conv": lines(`
		5公里是多少英里
		100华氏度是多少摄氏度
		20欧元换成人民币是多少
		150斤是多少公斤
		2小时是多少秒
		3英尺是多少厘米
		一亩地是多少平方米
	`),
	"file": lines(`
		报告.pdf
		notes.txt
		预算表格
		会议纪要
		合同草稿
		config.yaml
		最新的日志文件
		发票2024.pdf
	`),
	"newfile": lines(`
		想法.txt
		购物清单.md
		2025计划.docx
		旅行.md
	`),
	"dir": lines(`
		下载文件夹
		桌面
		文档目录
		/tmp
		项目文件夹
		共享盘
		相册文件夹
	`),
	"rem": lines(`
		给妈妈打电话
		吃药
		交报告
		浇花
		交房租
		开周会
		取快递
		接孩子
		续签护照
	`),
	"time": lines(`
		下午五点
		明天早上九点
		二十分钟后
		中午十二点
		周五上午
		今晚八点
		一小时后
	`),
	"search": lines(`
		三月份的发票
		包含截止日期的文档
		老周发来的邮件
		关于太阳能的PDF
		上次的方案草稿
		去年夏天的照片
	`),
	"cmd": lines(`
		git status
		一下构建
		单元测试
		备份脚本
	`),
	"rtopic": lines(`
		我的过敏
		我的工作
		我去日本的旅行
		我的饮食
		我妹妹
		项目截止日期
		我的偏好
		我的车
		我的地址
		我的孩子
		我的健身计划
		我的咖啡口味
		我的生日
		我的病史
	`),
	"rthing": lines(`
		名字
		生日
		地址
		过敏源
		工作
		最爱的菜
		狗的名字
		咖啡口味
	`),
	"favthing": lines(`
		颜色
		食物
		乐队
		电影
		书
		饮料
	`),
	"role": lines(`
		海盗
		面试官
		我的老板
		导游
		福尔摩斯
		一只傲娇的猫
		难缠的客户
		古代的将军
		苏格拉底式的老师
		诸葛亮
	`),
	"greet": lines(`
		你好
		嗨
		早上好
		哈喽
		您好
		晚上好
	`),
	"small": lines(`
		最近怎么样？
		好久不见！
		今天忙吗？
		吃饭了吗？
		希望你一切都好
		最近还好吗
	`),
	"thanks": lines(`
		谢谢
		太感谢了
		多谢
		感谢
		谢啦
	`),
	"praise": lines(`
		你真厉害
		帮了大忙了
		正是我需要的
		你太靠谱了
		说得太好了
		真不错
	`),
	"mood": lines(`
		很好
		好累
		有点困
		特别开心
		一般般
		压力好大
		有点低落
	`),
	"chitobj": lines(`
		这个应用
		你
		跟你聊天
		你的回答
		这个笑话
		你说话的方式
	`),
	"bye": lines(`
		拜拜
		再见
		明天见
		回头见
		晚点聊
		下次再聊
		先这样吧
	`),
	"slang": lines(`
		666
		哈哈哈
		笑死
		绝了
		牛
		嘿嘿
		hhh
	`),
	"theme": lines(`
		秋天
		大海
		友情
		月亮
		咖啡
		家乡
		下雨天
	`),
	"brainstorm": lines(`
		咖啡店
		生日派对
		团建活动
		奇幻小说
		美食播客
	`),
	"myth": lines(`
		金鱼只有七秒记忆
		人只用了大脑的10%
		吃辣能减肥
		喝骨头汤能补钙
	`),
	"action": lines(`
		截个屏
		打开勿扰模式
		把通知静音
		锁屏
		清空回收站
		压缩{dir}
		把{file}复制到{dir}
		打印{file}
		检查一下更新
		看看CPU占用
		列出正在运行的进程
		看看还剩多少内存
		打开计算器
		暂停音乐
		把音量调大
		备份{dir}
	`),
	"when": lines(`
		今天
		明天
		周末
		今晚
		周六
		下午
	`),
	"myattr": lines(`
		鞋码是42
		血型是A型
		最喜欢的颜色是蓝色
		车是一辆白色的比亚迪
		狗叫旺财
		工号是5521
		老家在{city}
		母语是粤语
		今年的目标是跑完马拉松
		咖啡一般点拿铁
		手机是华为的
	`),
	"habit": lines(`
		早餐吃
		早上喝
		周末做
		上班穿
		睡前看
	`),
	"attrkey": lines(`
		鞋码
		血型
		工号
		老家
		母语
		最喜欢的颜色
		手机型号
	`),
	"state": lines(`
		回来了
		好无聊
		要下线了
		去睡了
		下班了
		好饿
		在摸鱼
		堵车了
		吃饱了
		刚起床
	`),
	"period": lines(`
		今天
		周末
		这周
		假期
		早上
	`),
	"okphrase": lines(`
		没事了
		没关系
		好吧算了
		都挺好
		没问题
		不用了
	`),
	"writing": lines(`
		一段自我介绍
		一封请假邮件
		一个团队口号
		一段生日祝福
		一份会议开场白
		一首打油诗
	`),
	"event": lines(`
		人类登月
		秦朝统一六国
		第一部iPhone发布
		柏林墙倒塌
		唐朝灭亡
		造纸术发明
	`),
	"choice": lines(`
		租房还是买房
		考研还是工作
		电车还是油车
		先学Python还是Java
		坐高铁还是坐飞机
	`),
	"chance": lines(`
		抛个硬币
		掷个骰子
		掷两个骰子
		随机选一个1到10的数
		抽一张牌
		决定正面还是反面
	`),
	"resource": lines(`
		硬盘空间
		内存
		电量
		存储空间
	`),
	"lifeevent": lines(`
		我六月份要结婚了
		我下个月要搬去{city}
		我下周开始做{job}了
		我春天要生宝宝了
		我刚领养了{pet}
		我上周辞职了
	`),
	"assistq": lines(`
		你叫什么名字？
		你几岁了？
		你住在哪里？
		你是真人吗？
		你有名字吗？
		你是谁？
		你会说中文吗？
		你喜欢你的工作吗？
	`),
	"holiday": lines(`
		新年快乐
		圣诞快乐
		中秋快乐
		端午安康
		国庆快乐
		元宵节快乐
		春节快乐
	`),
	"factq": lines(`
		光速
		日本的人口
		水的沸点
		珠穆朗玛峰的高度
		铁的熔点
		猫的平均寿命
		地球的周长
		地球到火星的距离
	`),
	"healthitem": lines(`
		喝咖啡
		吃红肉
		熬夜
		喝冰水
		空腹跑步
		吃糖
		喝苏打水
	`),
	"habitstmt": lines(`
		每天早上喝咖啡
		周末一般去爬山
		每周三去游泳
		晚上十一点睡觉
		骑自行车上班
		上班前会冥想
		晚饭基本在家做
	`),
	"fverb": lines(`
		删掉
		删除
		清除
		抹掉
		去掉
		移除
		清空
		丢掉
	`),
	"fobj": lines(`
		你存的关于我的东西
		我的地址
		关于{rtopic}的记忆
		我的{rthing}
		我所有的数据
		你对我的备注
	`),
	"ack": lines(`
		有道理
		明白了
		懂了
		原来如此
		好的收到
		了解
	`),
	"presence": lines(`
		在吗
		在不在
		有人吗
		你还在吗
		睡了吗
	`),
	"countq": lines(`
		太阳系的行星
		人体的骨头
		非洲的国家
		钢琴的琴键
		一支足球队的球员
		木星的卫星
	`),
	"country": lines(`
		巴西
		瑞士
		肯尼亚
		加拿大
		比利时
		秘鲁
		越南
	`),
	"timeq": lines(`
		几点了
		现在几点钟
		现在什么时间
		告诉我现在的时间
		看一下时间
		现在是几点几分
	`),
	"gadget": lines(`
		开始计时
		生成一个强密码
		开个{mins}分钟的倒计时
		生成一个16位的随机密码
		设个{time}的提醒
	`),
	"selfadj": lines(`
		吃素
		是素食主义者
		乳糖不耐受
		是左撇子
		有色弱
		对{food}过敏
		是{job}
		有糖尿病
		怀孕了
		退休了
		比较内向
		习惯早起
		近视很严重
	`),
	"doing": lines(`
		准备马拉松
		学{learn}
		存钱买房
		备考研究生
		写小说
		装修厨房
	`),
	"rverb": lines(`
		列出
		给我看看
		告诉我
		总结一下
		念一下
	`),
	"robj": lines(`
		你记得的关于我的事
		你知道的关于我的信息
		你存的关于我的记忆
		你记下的我的偏好
		你了解的我的情况
	`),
	"rq": lines(`
		住在哪
		是哪里人
		有几个孩子
		生日是几号
		几岁了
		在哪上班
		养的什么宠物
		对什么过敏
	`),
}
