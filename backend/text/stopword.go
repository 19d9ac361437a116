package text

// IsStopword reports whether w is a function word of English or a function
// character or word of Chinese: words that say little about what a text is about.
func IsStopword(w string) bool {
	_, ok := stopwords[w]
	return ok
}

// stopwords is read-only after initialization.
var stopwords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range []string{
		// English
		"a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as",
		"is", "am", "are", "was", "were", "be", "been", "being", "do", "does", "did", "done", "have", "has", "had",
		"i", "im", "ive", "id", "ill", "me", "my", "mine", "myself", "you", "your", "yours", "we", "our", "us",
		"he", "she", "it", "its", "they", "them", "their", "this", "that", "these", "those", "there", "here",
		"what", "whats", "which", "who", "whom", "whose", "when", "where", "why", "how",
		"can", "could", "would", "should", "will", "shall", "may", "might", "must",
		"so", "than", "then", "too", "very", "just", "also", "about", "into", "up", "out", "any", "some",
		"again", "tell", "know", "remember", "please", "ok", "okay", "yes", "hi", "hello", "thanks",
		"dont", "doesnt", "didnt",
		// Chinese
		"的", "了", "是", "我", "你", "他", "她", "它", "们", "在", "吗", "呢", "吧", "啊", "呀", "和", "与", "也",
		"就", "都", "而", "及", "这", "那", "么", "什", "个", "有", "请", "记", "得", "住", "一", "下", "我的", "你的",
		"什么", "怎么", "哪里", "哪个", "是什", "么名", "记得", "记住", "知道", "告诉",
	} {
		m[w] = struct{}{}
	}
	return m
}()
