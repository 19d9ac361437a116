package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"hermes/app"
)

// contextCmd: hermes session context --session S --query Q --budget N | --batch FILE
func contextCmd(core *app.Core, g globals, args []string, env Env) error {
	fs := newFlags("session context")
	sid := fs.String("session", "", "session id or ref")
	query := fs.String("query", "", "the message to build the context for")
	budget := fs.Int("budget", 0, "prompt token budget")
	batch := fs.String("batch", "", "JSONL file of {\"id\",\"session\",\"query\",\"budget\"}")
	reply := fs.String("reply", "", "a stored reply (message id): what the model saw when it wrote it")
	channel := fs.String("channel", "", "a sub-agent's channel (or main): the window its next turn starts from")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *channel != "" {
		return channelContext(core, g, *sid, *channel, env)
	}
	if *reply != "" {
		rep, err := app.NewApp(core, nil).Chat.MessageContext(*reply)
		if app.IsNotFound(err) {
			return usagef("session context: no message %q; see `hermes session show ID --json`", *reply)
		}
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, rep)
		}
		if len(rep.Items) == 0 {
			fmt.Fprintf(env.Stderr, "reply %s kept no record of its context (not a reply, or written before Hermes kept them)\n", *reply)
			return nil
		}
		for _, it := range rep.Items {
			fmt.Fprintf(env.Stdout, "%-10s %5d  %-9s %s\n", it.Reason, it.Tokens, it.Role, firstLine(it.Preview, 60))
		}
		fmt.Fprintf(env.Stdout, "%d of %d tokens; intent %s\n", rep.Tokens, rep.Budget, rep.Intent)
		return nil
	}
	ctx := context.Background()
	type out struct {
		ID       json.RawMessage `json:"id,omitempty"`
		Included []string        `json:"included"`
		Tokens   int             `json:"tokens"`
	}
	build := func(s, q string, b int) (app.PromptContext, error) {
		if b <= 0 {
			return app.PromptContext{}, usagef("session context: --budget must be a positive number of tokens")
		}
		c, err := core.BuildContext(ctx, s, q, b)
		if app.IsNotFound(err) {
			return c, notFound("session context", s)
		}
		return c, err
	}
	if *batch == "" {
		if *sid == "" || *query == "" {
			return usagef("session context: give --session, --query and --budget, or --batch FILE")
		}
		c, err := build(*sid, *query, *budget)
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, struct {
				out
				Items []app.PromptItem `json:"items"`
			}{out{Included: nonNil(c.Refs()), Tokens: c.Tokens}, c.Items})
		}
		for _, it := range c.Items {
			ref := it.Ref
			if ref == "" {
				ref = it.MessageID
			}
			fmt.Fprintf(env.Stdout, "%-10s %5d  %-9s %s\n", it.Reason, it.Tokens, it.Role, ref)
		}
		fmt.Fprintf(env.Stdout, "%d of %d tokens; %d older messages left out\n", c.Tokens, c.Budget, c.Dropped)
		return nil
	}
	return eachLine("session context", *batch, env, func(n int, raw []byte, enc *json.Encoder) error {
		var l struct {
			ID      json.RawMessage `json:"id"`
			Session string          `json:"session"`
			Query   string          `json:"query"`
			Budget  int             `json:"budget"`
		}
		if err := json.Unmarshal(raw, &l); err != nil || l.Session == "" || l.Budget <= 0 {
			return usagef("session context: %s line %d: want {\"id\",\"session\",\"query\",\"budget\"}", *batch, n)
		}
		c, err := build(l.Session, l.Query, l.Budget)
		if err != nil {
			return fmt.Errorf("%s line %d: %w", *batch, n, err)
		}
		return enc.Encode(out{ID: l.ID, Included: nonNil(c.Refs()), Tokens: c.Tokens})
	})
}

// firstLine is the start of a text's first line, at most n runes.
func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// channelContext prints the window a channel's next turn would be built from.
func channelContext(core *app.Core, g globals, sid, channel string, env Env) error {
	if sid == "" {
		return usagef("session context --channel: give --session too")
	}
	c, err := core.ChannelContext(context.Background(), sid, channel)
	switch {
	case app.IsNotFound(err):
		return notFound("session context", sid)
	case err != nil:
		return agentErr(err)
	}
	if g.json {
		return printJSON(env.Stdout, c)
	}
	for _, it := range c.Items {
		fmt.Fprintf(env.Stdout, "%-10s %5d  %-9s %s\n", it.Reason, it.Tokens, it.Role, firstLine(it.Content, 60))
	}
	fmt.Fprintf(env.Stdout, "%d of %d tokens; channel %s\n", c.Tokens, c.Budget, channel)
	return nil
}
