package memory

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestObserveWritesStatedFacts(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	d := e.observe("Remember that I'm allergic to peanuts", facts(extracted{Text: "I am allergic to peanuts", Key: "allergy.peanuts", Value: "yes", Category: "health"}))
	if !d.Allowed || !d.Explicit {
		t.Fatalf("gate = %+v", d)
	}
	ms := e.list(Filter{})
	if len(ms) != 1 {
		t.Fatalf("stored %d memories", len(ms))
	}
	m := ms[0]
	if m.Status != StatusActive || m.AssertedBy != AssertedByUser || m.Origin != OriginChat || m.Layer != LayerFact ||
		m.SessionID != "s1" || len(m.SourceMessageIDs) != 1 || m.Key != "allergy.peanuts" || m.Category != "health" {
		t.Errorf("memory = %+v", m)
	}
	reqs := e.fake.ChatRequests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Format), `"facts"`) {
		t.Fatalf("extraction request did not carry the JSON schema: %d requests", len(reqs))
	}
	if q, _ := e.s.Queue(ctx); q.Observe != 0 {
		t.Errorf("finished job left in the queue: %+v", q)
	}
	if len(e.changes) == 0 || e.changes[0].Kind != "added" || e.changes[0].MessageID == "" {
		t.Errorf("changes = %+v", e.changes)
	}
}

func TestGateStopsBeforeTheQueue(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	cases := []struct {
		name string
		turn Turn
	}{
		{"hypothetical", Turn{Intent: "hypothetical", UserText: "Remember: if I were rich I'd buy 3 boats"}},
		{"chitchat", Turn{Intent: "chitchat", UserText: "I'm so happy today!"}},
		{"question", Turn{Intent: "question", UserText: "Why don't 2 magnets stick?"}},
		{"incognito", Turn{Intent: "remember", MayWriteMemory: true, Incognito: true, UserText: "Remember that I'm vegan"}},
		{"not a key fact", Turn{Intent: "task", UserText: "My dog is called Rex"}},
		{"a question about oneself", Turn{Intent: "remember", MayWriteMemory: true, UserText: "Am I allergic to anything?"}},
		{"another person's fact", Turn{Intent: "remember", MayWriteMemory: true, UserText: "My friend is allergic to shellfish"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := e.s.Observe(ctx, tc.turn)
			if err != nil || d.Allowed {
				t.Fatalf("Observe = %+v, %v", d, err)
			}
			if q, _ := e.s.Queue(ctx); q.Observe != 0 {
				t.Fatalf("queued %d jobs", q.Observe)
			}
		})
	}
	if e.chatCalls() != 0 {
		t.Errorf("the model was asked %d times", e.chatCalls())
	}
}

func TestDedupAndConflicts(t *testing.T) {
	t.Run("exact restatement reinforces", func(t *testing.T) {
		e := newEnv(t, nil)
		e.observe("Remember I live in Berlin", facts(extracted{Text: "I live in Berlin", Key: "home.city", Value: "Berlin", Confidence: 0.7}))
		e.clock.Advance(10 * 3600e9)
		e.observe("Remember: I live in Berlin!", facts(extracted{Text: "I live in berlin.", Key: "home.city", Value: "Berlin", Confidence: 0.7}))
		ms := e.list(Filter{})
		if len(ms) != 1 || ms[0].Confidence < 0.79 || !ms[0].LastConfirmedAt.Equal(e.clock.Now()) || len(ms[0].SourceMessageIDs) != 1 {
			t.Fatalf("memories = %+v", ms)
		}
	})
	t.Run("same key and value reinforces", func(t *testing.T) {
		e := newEnv(t, nil)
		e.observe("Remember I live in Berlin", facts(extracted{Text: "I live in Berlin", Key: "home.city", Value: "Berlin"}))
		e.observe("Remember my home is Berlin", facts(extracted{Text: "My home city is Berlin", Key: "home.city", Value: "berlin"}))
		if ms := e.list(Filter{}); len(ms) != 1 {
			t.Fatalf("memories = %+v", ms)
		}
	})
	t.Run("near duplicate reinforces", func(t *testing.T) {
		e := newEnv(t, nil)
		e.observe("Remember I love spicy Thai food", facts(extracted{Text: "I really love spicy Thai food", Key: "food.favorite", Value: "Thai"}))
		e.observe("Remember I love spicy Thai food", facts(extracted{Text: "I love spicy Thai food really", Key: "", Value: ""}))
		if ms := e.list(Filter{}); len(ms) != 1 {
			t.Fatalf("memories = %+v", texts2(ms))
		}
	})
	t.Run("a new value supersedes the old one", func(t *testing.T) {
		e := newEnv(t, nil)
		e.observe("Remember I prefer driving to work", facts(extracted{Text: "I prefer driving to work", Key: "commute.mode", Value: "car"}))
		old := e.list(Filter{})[0]
		e.clock.Advance(3600e9)
		e.observe("Remember I sold my car, I take the subway now", facts(extracted{Text: "I sold my car and take the subway now", Key: "commute.mode", Value: "subway"}))
		now := e.list(Filter{Statuses: []Status{StatusActive}})
		if len(now) != 1 || now[0].Value != "subway" {
			t.Fatalf("active = %+v", texts2(now))
		}
		got, _ := e.s.Get(context.Background(), old.ID)
		if got.Status != StatusSuperseded || got.SupersededBy != now[0].ID || !got.ValidUntil.Equal(e.clock.Now()) {
			t.Fatalf("old = %+v", got)
		}
		if rs := e.recall(Query{Text: "how do I commute by car?"}); len(rs) != 1 || rs[0].Memory.ID != now[0].ID {
			t.Fatalf("recall offered %v", texts(rs))
		}
		d, _ := e.s.Show(context.Background(), now[0].ID)
		if len(d.Supersedes) != 1 || d.Supersedes[0].ID != old.ID {
			t.Errorf("detail supersedes = %+v", d.Supersedes)
		}
	})
	t.Run("the model names the fact a new one replaces", func(t *testing.T) {
		e := newEnv(t, nil)
		e.observe("Remember I prefer driving to work", facts(extracted{Text: "I prefer driving to work", Key: "commute.preference", Value: "driving"}))
		old := e.list(Filter{})[0]
		// known facts are offered as k1..; the answer names k1.
		e.observe("Remember I sold my car, I take the subway now", facts(extracted{Text: "I take the subway to work", Key: "commute.mode", Value: "subway", Supersedes: []string{"k1", "k9"}}))
		got, _ := e.s.Get(context.Background(), old.ID)
		if got.Status != StatusSuperseded {
			t.Fatalf("old = %+v", got)
		}
		req := e.fake.ChatRequests()[1]
		if !strings.Contains(req.Messages[1].Content, `"id":"k1"`) {
			t.Errorf("known facts not shown to the model: %s", req.Messages[1].Content)
		}
	})
}

func texts2(ms []Memory) []string {
	var out []string
	for _, m := range ms {
		out = append(out, string(m.Status)+": "+m.Text)
	}
	return out
}

func TestStatusRules(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name     string
		policy   Policy
		fact     extracted
		status   Status
		contains string
	}{
		{"stated is active", Policy{}, extracted{Text: "I am vegan", Key: "diet"}, StatusActive, "I am vegan"},
		{"inferred waits", Policy{}, extracted{Text: "I probably like animals", Key: "pref.animals", Asserted: "inferred"}, StatusPending, "animals"},
		{"sensitive is masked and waits", Policy{}, extracted{Text: "My phone number is +44 20 7946 0958", Key: "contact.phone"}, StatusPending, maskPhone},
		{"sensitive allowed stays but waits", Policy{AllowSensitive: true}, extracted{Text: "My phone number is +44 20 7946 0958", Key: "contact.phone"}, StatusPending, "7946"},
		{"auto-accept activates inferred", Policy{AutoAccept: true}, extracted{Text: "I probably like animals", Key: "pref.animals", Asserted: "inferred"}, StatusActive, "animals"},
		{"auto-accept activates sensitive", Policy{AutoAccept: true}, extracted{Text: "Email me at a@b.org", Key: "contact.email"}, StatusActive, maskEmail},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, func(c *Config) { c.Policy = tc.policy })
			e.observe("Remember this about me", facts(tc.fact))
			ms := e.list(Filter{})
			if len(ms) != 1 || ms[0].Status != tc.status || !strings.Contains(ms[0].Text, tc.contains) {
				t.Fatalf("memories = %+v", texts2(ms))
			}
			if tc.status == StatusPending {
				if ms[0].Note == "" {
					t.Error("pending memory has no note")
				}
				want := map[bool]PendingReason{true: ReasonInferred, false: ReasonSensitive}[tc.fact.Asserted == "inferred"]
				if ms[0].Reason != want {
					t.Errorf("reason = %q; want %q", ms[0].Reason, want)
				}
				if rs := e.recall(Query{Text: ms[0].Text}); len(rs) != 0 {
					t.Errorf("pending memory offered: %v", texts(rs))
				}
				if err := e.s.Approve(ctx, ms[0].ID); err != nil {
					t.Fatal(err)
				}
				if rs := e.recall(Query{Text: ms[0].Text}); len(rs) != 1 {
					t.Errorf("approved memory not offered: %v", texts(rs))
				}
			}
		})
	}
}

func TestPendingSupersedesOnlyOnApproval(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.observe("Remember I live in Berlin", facts(extracted{Text: "I live in Berlin", Key: "home.city", Value: "Berlin"}))
	e.observe("Remember this", facts(extracted{Text: "I seem to live in Munich now", Key: "home.city", Value: "Munich", Asserted: "inferred"}))
	active := e.list(Filter{Statuses: []Status{StatusActive}})
	pending := e.list(Filter{Statuses: []Status{StatusPending}})
	if len(active) != 1 || active[0].Value != "Berlin" || len(pending) != 1 || len(pending[0].Replaces) != 1 {
		t.Fatalf("active %v pending %+v", texts2(active), pending)
	}
	if err := e.s.Approve(ctx, pending[0].ID); err != nil {
		t.Fatal(err)
	}
	active = e.list(Filter{Statuses: []Status{StatusActive}})
	if len(active) != 1 || active[0].Value != "Munich" {
		t.Fatalf("active after approval = %v", texts2(active))
	}
	if err := e.s.Approve(ctx, pending[0].ID); !errors.Is(err, ErrConflict) {
		t.Errorf("approving twice: %v", err)
	}
}

func TestVerifiers(t *testing.T) {
	cases := []struct {
		name   string
		ok     bool
		err    error
		key    string
		status Status
		reason PendingReason
		detail string
	}{
		{"verified", true, nil, "health.allergy", StatusActive, "", ""},
		{"refuted", false, nil, "health.allergy", StatusPending, ReasonRejected, "the record says otherwise"},
		{"verifier failed", false, errors.New("tool down"), "health.allergy", StatusPending, ReasonUnverifiable, "tool down"},
		{"other prefix not verified", false, nil, "food.likes", StatusActive, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			e := newEnv(t, func(c *Config) {
				c.Verifiers = VerifierMap{"health.": VerifierFunc(func(ctx context.Context, m Memory) (bool, string, error) {
					calls++
					return tc.ok, "the record says otherwise", tc.err
				})}
			})
			e.observe("Remember this", facts(extracted{Text: "I am allergic to penicillin", Key: tc.key}))
			ms := e.list(Filter{})
			if len(ms) != 1 || ms[0].Status != tc.status {
				t.Fatalf("memories = %+v", texts2(ms))
			}
			if ms[0].Reason != tc.reason || ms[0].ReasonDetail != tc.detail {
				t.Errorf("reason = %q (%q); want %q (%q)", ms[0].Reason, ms[0].ReasonDetail, tc.reason, tc.detail)
			}
			if want := map[bool]int{true: 1, false: 0}[strings.HasPrefix(tc.key, "health.")]; calls != want {
				t.Errorf("verifier called %d times; want %d", calls, want)
			}
		})
	}
}

func TestWorkingMemoryEndsWithItsSession(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.observe("Remember I'm in a meeting until 3pm today", facts(
		extracted{Text: "I am in a meeting until 3pm today", Key: "status.meeting", Scope: "session"},
		extracted{Text: "I work at Acme", Key: "work.employer"}))
	work := e.list(Filter{Layer: LayerWorking})
	if len(work) != 1 || work[0].SessionID != "s1" {
		t.Fatalf("working = %+v", work)
	}
	if rs := e.recall(Query{Text: "am I in a meeting?", SessionID: "s1"}); len(rs) != 1 {
		t.Fatalf("in its session: %v", texts(rs))
	}
	if rs := e.recall(Query{Text: "am I in a meeting?", SessionID: "s2"}); len(rs) != 0 {
		t.Fatalf("in another session: %v", texts(rs))
	}
	r, err := e.s.EndSession(ctx, "s1")
	if err != nil || r.Count != 1 {
		t.Fatalf("EndSession = %+v, %v", r, err)
	}
	if ms := e.list(Filter{}); len(ms) != 1 || ms[0].Layer != LayerFact {
		t.Fatalf("left = %v", texts2(ms))
	}
}

func TestInvalidExtraction(t *testing.T) {
	good := facts(extracted{Text: "I am vegan", Key: "diet"})
	cases := []struct {
		name    string
		answers []string
		stored  int
		calls   int
	}{
		{"valid first time", []string{good}, 1, 1},
		{"retried once", []string{`{"facts": [{"text": "I am vegan"}]}`, good}, 1, 2},
		{"not JSON, then valid", []string{`Sure! Here you go`, good}, 1, 2},
		{"invalid twice is dropped", []string{`{"facts": "none"}`, `{"facts": [{"text": "I am vegan", "key": "Diet Type!", "value": "", "category": "health", "scope": "lasting", "asserted": "stated", "confidence": 1}]}`}, 0, 2},
		{"one bad fact spoils the answer", []string{
			`{"facts": [{"text": "I am vegan", "key": "diet", "value": "", "category": "health", "scope": "lasting", "asserted": "stated", "confidence": 1},
			            {"text": "I like tea", "key": "drink", "value": "tea", "category": "beverages", "scope": "lasting", "asserted": "stated", "confidence": 1}]}`,
			`{"facts": [{"text": "I am vegan", "key": "diet", "value": "", "category": "health", "scope": "lasting", "asserted": "stated", "confidence": 2}]}`}, 0, 2},
		{"unknown field is invalid", []string{`{"facts": [], "note": "x"}`, `{"facts": []}`}, 0, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.script(tc.answers...)
			e.observe("Remember that I'm vegan", "")
			if n := len(e.list(Filter{})); n != tc.stored {
				t.Errorf("stored %d; want %d", n, tc.stored)
			}
			if e.chatCalls() != tc.calls {
				t.Errorf("asked the model %d times; want %d", e.chatCalls(), tc.calls)
			}
			if q, _ := e.s.Queue(context.Background()); q.Observe != 0 {
				t.Errorf("job left in the queue")
			}
		})
	}
}

func TestModelUnavailableRetriesLater(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.script("!503")
	e.observe("Remember that I'm vegan", "")
	if q, _ := e.s.Queue(ctx); q.Observe != 1 {
		t.Fatalf("job not kept for later: %+v", q)
	}
	if n, _ := e.s.RunJobs(ctx); n != 0 {
		t.Fatalf("job ran again before its delay")
	}
	e.script(facts(extracted{Text: "I am vegan", Key: "diet"}))
	e.clock.Advance(3600e9)
	if n, err := e.s.RunJobs(ctx); n != 1 || err != nil {
		t.Fatalf("RunJobs = %d, %v", n, err)
	}
	if ms := e.list(Filter{}); len(ms) != 1 {
		t.Fatalf("memories = %v", texts2(ms))
	}
}

// TestCrashDuringExtraction: the process dies after the first of three facts is
// written. On restart the job resumes from the stored extraction: the model is not
// asked again, and nothing is written twice.
func TestCrashDuringExtraction(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	e.script(facts(
		extracted{Text: "I am vegan", Key: "diet"},
		extracted{Text: "I live in Porto", Key: "home.city"},
		extracted{Text: "I have two cats", Key: "pets.cats"}))
	if _, err := e.s.Observe(ctx, Turn{SessionID: "s1", UserText: "Remember: I'm vegan, I live in Porto and have two cats", Intent: "remember", MayWriteMemory: true}); err != nil {
		t.Fatal(err)
	}
	crash := errors.New("power cut")
	crashCtx, cancel := context.WithCancel(ctx)
	e.s.afterCandidate = func(job int64, i int) error {
		if i == 0 {
			cancel() // the process dies here: the job stays "running"
			return crash
		}
		return nil
	}
	if _, err := e.s.RunJobs(crashCtx); !errors.Is(err, context.Canceled) {
		t.Fatalf("RunJobs = %v", err)
	}
	if n := len(e.list(Filter{})); n != 1 {
		t.Fatalf("before the restart %d memories", n)
	}
	var state string
	e.db.QueryRow(`SELECT state FROM memory_jobs`).Scan(&state)
	if state != "running" {
		t.Fatalf("job state after the crash = %q", state)
	}
	// Restart: a new Store on the same file.
	e.db.Close()
	e.open(nil)
	if n, err := e.s.RunJobs(ctx); n != 1 || err != nil {
		t.Fatalf("resumed RunJobs = %d, %v", n, err)
	}
	ms := e.list(Filter{})
	if len(ms) != 3 {
		t.Fatalf("after resuming: %v", texts2(ms))
	}
	if e.chatCalls() != 1 {
		t.Errorf("the model was asked %d times; want 1 (the extraction is kept with the job)", e.chatCalls())
	}
	// Running the same job's candidates again writes nothing (idempotent keys).
	var jobs, keys int
	e.db.QueryRow(`SELECT COUNT(*) FROM memory_jobs`).Scan(&jobs)
	e.db.QueryRow(`SELECT COUNT(*) FROM memory_job_writes`).Scan(&keys)
	if jobs != 0 || keys != 0 {
		t.Errorf("finished job left %d jobs and %d keys", jobs, keys)
	}
}

func TestIdempotentCandidate(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	f := fact{Text: "I am vegan", Key: "diet", AssertedBy: AssertedByUser, Origin: OriginChat}
	k := &idemKey{job: 7, candidate: 0}
	w1, err := e.s.write(ctx, f, k)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := e.s.write(ctx, f, k)
	if err != nil {
		t.Fatal(err)
	}
	if w1.Action != "added" || w2.Action != "skipped" || w2.Memory.ID != w1.Memory.ID {
		t.Fatalf("writes = %s, %s", w1.Action, w2.Action)
	}
	if ms := e.list(Filter{}); len(ms) != 1 || ms[0].Confidence != 1 {
		t.Fatalf("memories = %+v", ms)
	}
}

func TestWorkerRuns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e := newEnv(t, nil)
	w := e.s.Worker()
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	e.script(facts(extracted{Text: "I am vegan", Key: "diet"}))
	if _, err := e.s.Observe(ctx, Turn{UserText: "Remember that I'm vegan", Intent: "remember", MayWriteMemory: true}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(e.list(Filter{})) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the worker did not process the observed turn")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v", err)
	}
}
