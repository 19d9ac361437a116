package tools

import "testing"

func TestClaimsUnexecutedAction(t *testing.T) {
	tests := []struct {
		name      string
		reply     string
		succeeded []string
		want      bool
	}{
		{"I've saved", "I've saved your note to notes.txt.", nil, true},
		{"I have created", "Sure! I have created the event for Friday.", nil, true},
		{"curly apostrophe", "I’ve sent the email to Bob.", nil, true},
		{"we deleted", "We deleted the old backups.", nil, true},
		{"passive", "Your reminder has been scheduled for 9am.", nil, true},
		{"sentence start", "Done! Created notes.txt with your list.", nil, true},
		{"Chinese saved", "好的，已保存到笔记中。", nil, true},
		{"Chinese created", "我已经创建了提醒。", nil, true},
		{"Chinese sent", "邮件已发送。", nil, true},
		{"Chinese deleted", "文件已删除", nil, true},
		{"Chinese success suffix", "保存成功！", nil, true},
		{"a tool succeeded", "I've saved your note.", []string{"notes_write"}, false},
		{"no claim", "The capital of France is Paris.", nil, false},
		{"offer", "Would you like me to create a reminder?", nil, false},
		{"future", "I will save it once you confirm.", nil, false},
		{"conditional", "Once I've saved it, you can open it.", nil, false},
		{"negation", "I haven't saved anything yet.", nil, false},
		{"negated passive", "The file was not deleted.", nil, false},
		{"question", "Have I sent it already?", nil, false},
		{"Chinese negation", "我没有保存任何内容。", nil, false},
		{"Chinese question", "要我帮您保存吗？", nil, false},
		{"Chinese conditional", "如果已保存，请告诉我。", nil, false},
		{"unrelated use of a verb", "Paris was founded in the 3rd century BC.", nil, false},
		{"a description, not a claim", "Your conversation is stored in one SQLite file on this computer.", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ClaimsUnexecutedAction(tt.reply, tt.succeeded); got != tt.want {
				t.Fatalf("ClaimsUnexecutedAction(%q) = %v; want %v", tt.reply, got, tt.want)
			}
		})
	}
}
