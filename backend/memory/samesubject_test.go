package memory

import (
	"context"
	"strings"
	"testing"
)

func TestSameSubjectNewValue(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"My locker code is 4411", "My locker code is 9902", true},
		{"My locker code is 4411", "my locker code is 4411.", false},
		{"I have 2 cats", "I have 3 cats", true},
		{"Room 12 is on floor 3", "Room 12 is on floor 4", true},
		{"Room 12 is on floor 3", "Room 14 is on floor 3", false},
		{"My locker code is 4411", "My bike code is 9902", false},
		{"I like tea", "I like coffee", false},
		{"我的车险 6 月 15 日到期", "我的车险 7 月 15 日到期", false}, // the month is not the last value
		{"我的车险 6 月 15 日到期", "我的车险 6 月 20 日到期", true},
	}
	for _, c := range cases {
		if got := sameSubjectNewValue(c.a, c.b); got != c.want {
			t.Errorf("sameSubjectNewValue(%q, %q) = %v; want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestANewValueReplacesTheOld: `memory add "my locker code is 9902"` after
// "…4411" stores the new value and retires the old one; restating the same
// value reinforces it.
func TestANewValueReplacesTheOld(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	old := e.add("My locker code is 4411")
	again := e.add("My locker code is 4411.")
	if again.ID != old.ID {
		t.Fatalf("restating the same value made a new memory: %+v", again)
	}
	cur := e.add("My locker code is 9902")
	if cur.ID == old.ID || cur.Status != StatusActive {
		t.Fatalf("the new value = %+v", cur)
	}
	was, err := e.s.Get(ctx, old.ID)
	if err != nil || was.Status != StatusSuperseded || was.SupersededBy != cur.ID {
		t.Fatalf("the old value = %+v, %v", was, err)
	}
	active := e.list(Filter{Statuses: []Status{StatusActive}})
	if len(active) != 1 || active[0].Text != "My locker code is 9902" {
		t.Fatalf("active = %v", texts2(active))
	}
	other := e.add("Room 12 is on floor 3")
	if e.add("Room 14 is on floor 3").ID == other.ID {
		t.Error("another room merged into the first")
	}
	if m, _ := e.s.Get(ctx, other.ID); m.Status != StatusActive {
		t.Errorf("another room retired the first: %+v", m)
	}
}

// TestForgetSaysWhatItErased: forgetting a memory that replaced an older value
// erases both and says so.
func TestForgetSaysWhatItErased(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.add("My locker code is 4411")
	cur := e.add("My locker code is 9902")
	r, err := e.s.Forget(ctx, cur.ID)
	if err != nil || r.Count != 2 || r.OlderVersions != 1 || !strings.Contains(r.Summary(), "forgot 1 memory and 1 older version") {
		t.Fatalf("receipt = %+v (%s), %v", r, r.Summary(), err)
	}
}
