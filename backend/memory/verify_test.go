package memory

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The verifiers check the inbox: an inferred fact with a verifier is approved when
// confirmed (superseding the older value), keeps waiting with the verifier's words
// when refuted (and is not asked again), and waits with the error when the
// verifier fails, to be tried again; sensitive items and facts without a verifier
// are left to the user.
func TestVerifyPending(t *testing.T) {
	ctx := context.Background()
	answers := map[string]struct {
		ok  bool
		err error
	}{}
	var asked []string
	e := newEnv(t, func(c *Config) {
		c.Verifiers = VerifierMap{"work.": VerifierFunc(func(ctx context.Context, m Memory) (bool, string, error) {
			asked = append(asked, m.Text)
			a := answers[m.Text]
			return a.ok, "the HR record lists another employer", a.err
		})}
	})
	answers["I work at Initech"] = struct {
		ok  bool
		err error
	}{true, nil} // confirmed when written
	old := e.add("I work at Initech", func(in *AddInput) { in.Key, in.Value = "work.employer", "Initech" })
	e.observe("I think I moved jobs", facts(
		extracted{Text: "I work at Acme", Key: "work.employer", Value: "Acme", Asserted: "inferred"},
		extracted{Text: "My manager is Bob", Key: "work.manager", Value: "Bob", Asserted: "inferred"},
		extracted{Text: "My desk is on floor 3", Key: "work.desk", Value: "3", Asserted: "inferred"},
		extracted{Text: "I like green tea", Key: "food.tea", Asserted: "inferred"},
		extracted{Text: "My work phone is +44 20 7946 0958", Key: "work.phone"}))
	pending := map[string]Memory{}
	for _, m := range e.list(Filter{Statuses: []Status{StatusPending}}) {
		pending[m.Text] = m
	}
	if old.Status != StatusActive || len(pending) != 5 || pending["I work at Acme"].Reason != ReasonInferred {
		t.Fatalf("pending before verifying: %+v", pending)
	}
	answers["I work at Acme"] = struct {
		ok  bool
		err error
	}{true, nil}
	answers["My desk is on floor 3"] = struct {
		ok  bool
		err error
	}{false, errors.New("the directory is offline")}
	got, err := e.s.VerifyPending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Approved) != 1 || got.Approved[0] != pending["I work at Acme"].ID || len(got.Refuted) != 1 || len(got.Failed) != 1 {
		t.Fatalf("verified = %+v", got)
	}
	if asked = asked[1:]; len(asked) != 3 { // [0] was the write-time check of the Initech fact
		t.Errorf("the verifier was asked about %v; want the three work facts, not the tea nor the sensitive phone", asked)
	}
	status := func(text string) Memory {
		t.Helper()
		for _, m := range e.list(Filter{Statuses: []Status{StatusActive, StatusPending, StatusSuperseded}}) {
			if m.Text == text {
				return m
			}
		}
		t.Fatalf("%q is gone", text)
		return Memory{}
	}
	if m := status("I work at Acme"); m.Status != StatusActive {
		t.Errorf("the confirmed fact is %s", m.Status)
	}
	if m := status(old.Text); m.Status != StatusSuperseded {
		t.Errorf("the older employer is %s; want superseded by the verified one", m.Status)
	}
	if m := status("My manager is Bob"); m.Status != StatusPending || m.Reason != ReasonRejected || m.ReasonDetail != "the HR record lists another employer" {
		t.Errorf("the refuted fact: %s %q %q", m.Status, m.Reason, m.ReasonDetail)
	}
	if m := status("My desk is on floor 3"); m.Status != StatusPending || m.Reason != ReasonUnverifiable || m.ReasonDetail != "the directory is offline" {
		t.Errorf("the unverifiable fact: %s %q %q", m.Status, m.Reason, m.ReasonDetail)
	}
	if m := status("My work phone is [phone]"); m.Status != StatusPending || m.Reason != ReasonSensitive {
		t.Errorf("the sensitive fact: %s %q", m.Status, m.Reason)
	}
	// A pass soon after asks nobody again: a failed verifier waits VerifyRetry.
	asked = nil
	if got, err := e.s.VerifyPending(ctx); err != nil || len(asked) != 0 || len(got.Failed) != 0 {
		t.Fatalf("a pass right after: %+v %v, asked %v", got, err, asked)
	}
	// Next pass after the wait: only the unverifiable one is asked again; now it is confirmed.
	e.clock.Advance(VerifyRetry)
	asked = nil
	answers["My desk is on floor 3"] = struct {
		ok  bool
		err error
	}{true, nil}
	got, err = e.s.VerifyPending(ctx)
	if err != nil || len(got.Approved) != 1 || len(asked) != 1 || asked[0] != "My desk is on floor 3" {
		t.Fatalf("second pass: %+v %v, asked %v", got, err, asked)
	}
	if m := status("My desk is on floor 3"); m.Status != StatusActive {
		t.Errorf("the desk fact is %s after its verifier confirmed it", m.Status)
	}
}

// Without verifiers nothing in the inbox is touched.
func TestVerifyPendingWithoutVerifiers(t *testing.T) {
	e := newEnv(t, nil)
	e.observe("I think I moved jobs", facts(extracted{Text: "I work at Acme", Key: "work.employer", Asserted: "inferred"}))
	got, err := e.s.VerifyPending(context.Background())
	if err != nil || len(got.Approved)+len(got.Refuted)+len(got.Failed) != 0 {
		t.Fatalf("verified = %+v, %v", got, err)
	}
	if ms := e.list(Filter{Statuses: []Status{StatusPending}}); len(ms) != 1 || ms[0].Reason != ReasonInferred {
		t.Fatalf("pending = %+v", ms)
	}
}

// The worker runs the verifiers by itself after the jobs that wrote memories.
func TestWorkerVerifiesNewPendingMemories(t *testing.T) {
	e := newEnv(t, func(c *Config) {
		c.Verifiers = VerifierMap{"work.": VerifierFunc(func(context.Context, Memory) (bool, string, error) { return true, "", nil })}
	})
	e.script(facts(extracted{Text: "I work at Acme", Key: "work.employer", Asserted: "inferred"}))
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := e.s.Observe(ctx, Turn{SessionID: "s1", UserMessageID: "m1", UserText: "I think I moved jobs", Intent: "remember", MayWriteMemory: true}); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- e.s.Worker().Run(ctx) }()
	defer func() { cancel(); <-stopped }()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ms := e.list(Filter{}); len(ms) == 1 && ms[0].Status == StatusActive {
			return // active: extracted as inferred, then approved by its verifier
		}
	}
	t.Fatalf("the inferred fact was not approved by its verifier: %+v", e.list(Filter{Statuses: []Status{StatusPending}}))
}
