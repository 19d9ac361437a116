// Command fake-ollama runs the llmtest fake Ollama server as a process, for browser and
// desktop tests. It prints FAKE_OLLAMA_URL=http://127.0.0.1:PORT on its first line.
//
// With --script tools it scripts tool calls for the browser tests of the tools UI:
//   - a user message containing "shout": the first reply calls the tool `shout` with
//     {"text": <the user message>}; once a tool result is in the request, the reply is
//     "Done: <tool result>";
//   - a user message containing "loop": every reply says a few words and calls
//     `calculator` with {"expression":"1+1"} again, so the loop guard has to stop it;
//   - a user message containing "research": the first reply delegates to the researcher
//     sub-agent, calling `agent__researcher` with {"task": <the user message>} and a call id
//     ("call_N", unique in the process, as Ollama gives one); once its answer (the tool
//     result) is in the request, the reply is "Done: <tool result>";
//   - a request of the researcher sub-agent itself (a system message containing "Hermes'
//     researcher"): with no tool result yet it calls `session_search` with
//     {"query":"invoice"}; after that it streams "I found: " and the first 80 characters
//     of the tool result;
//   - anything else is echoed as without --script.
//
// With --which-tools (in either mode) a user message containing "which tools" is answered
// with "Tools: " and the comma-separated names of the tools offered in the request ("none"
// when there are none), so browser tests can see what the model was offered.
//
// With --echo-system (in either mode) a user message containing "what is your system
// prompt" is answered with "System: ", the first 80 characters of the request's first
// system message, and the request's model and options in brackets ("[model llama3.2,
// temperature 0.3, num_ctx 4096]"; "-" for an option not sent), so browser tests can see
// a chat's own settings reach the model.
//
// With --vision a vision model "gemma3" is installed; a request carrying images
// is answered with each image's size, format and length as received.
//
// With --thinking N a thinking model "qwen3" is installed, and every reply to it
// streams N words of reasoning (message.thinking) first, --think-delay apart,
// unless the request says think false; --load-delay makes a model not yet
// loaded take that long before its first chunk, as Ollama loads it.
//
// --models chooses the models installed at start; --pullable (a list, or "*")
// what /api/pull can pull, with --pull-steps progress lines --pull-delay apart.
//
// OLLAMA_MODELS, when set, is its models folder as it is Ollama's: it makes the
// blobs folder in it at start, and a blob whose file is there (sha256-HEX) is
// one it has (HEAD /api/blobs, create).
//
// With --extract (in either mode) memory extraction requests (a chat request whose format
// schema mentions "facts") are answered with scripted facts for the browser tests of the
// memory UI: a turn whose user text contains "allergic to peanuts" yields the stated health
// fact "I am allergic to peanuts" (key allergy.peanuts); "my favourite colour is X" yields the
// preference "My favourite colour is X" (key favourite.colour); anything else yields no facts.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	_ "image/jpeg" // the formats Hermes sends
	_ "image/png"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

func main() {
	o := parseFlags()
	fake := llmtest.New()
	if dir := os.Getenv("OLLAMA_MODELS"); dir != "" {
		if err := os.MkdirAll(filepath.Join(dir, "blobs"), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "fake-ollama:", err)
			os.Exit(1)
		}
		fake.Store = dir
	}
	o.install(fake)
	if err := o.behave(fake); err != nil {
		fmt.Fprintln(os.Stderr, "fake-ollama:", err)
		os.Exit(2)
	}
	fake.LoadDelay = o.loadDelay
	if err := serve(fake, o.addr); err != nil {
		fmt.Fprintln(os.Stderr, "fake-ollama:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	addr, script, models, pullable                                                 string
	delay, pullDelay, thinkDelay, loadDelay                                        time.Duration
	words, pullSteps, thinking                                                     int
	whichTools, echoSystem, echoDocuments, outOfMemory, extractFacts, vision, cite bool
	tokenRatio                                                                     float64
}

func parseFlags() options {
	var o options
	flag.StringVar(&o.addr, "addr", "127.0.0.1:0", "listen address (loopback)")
	flag.DurationVar(&o.delay, "token-delay", 0, "delay before each streamed word")
	flag.IntVar(&o.words, "extra-words", 40, "words added after the echo")
	flag.StringVar(&o.script, "script", "", `scripted replies: "" (echo) or "tools" (tool calls for "shout", "loop" and "research" messages)`)
	flag.BoolVar(&o.whichTools, "which-tools", false, `answer a message containing "which tools" with the names of the tools offered`)
	flag.BoolVar(&o.echoSystem, "echo-system", false, `answer a message containing "what is your system prompt" with the system prompt's start, the model and its options`)
	flag.BoolVar(&o.echoDocuments, "echo-documents", false, `answer a message containing "what does the document say" with the start of the attached document's text the request carries`)
	flag.BoolVar(&o.outOfMemory, "out-of-memory", false, `answer a message containing "too big" as Ollama answers for a model the free memory cannot hold (with its sizes when the message also says "sizes")`)
	flag.BoolVar(&o.extractFacts, "extract", false, `answer memory extraction requests with scripted facts ("allergic to peanuts", "my favourite colour is")`)
	flag.StringVar(&o.models, "models", "", `the models installed at start, comma-separated (of "llama3.2", "nomic-embed-text"); empty: both`)
	flag.StringVar(&o.pullable, "pullable", "", `names /api/pull can pull, comma-separated, or "*" for any (installed as chat models with tools)`)
	flag.IntVar(&o.pullSteps, "pull-steps", 20, "progress lines of a pull")
	flag.DurationVar(&o.pullDelay, "pull-delay", 50*time.Millisecond, "delay before each progress line of a pull")
	flag.IntVar(&o.thinking, "thinking", 0, `install a thinking model "qwen3" whose every reply streams this many reasoning words first (--think-delay apart)`)
	flag.DurationVar(&o.thinkDelay, "think-delay", 0, "delay before each reasoning word (--thinking)")
	flag.BoolVar(&o.vision, "vision", false, `install a vision model "gemma3"; a request carrying images is answered with each image's size and format as decoded`)
	flag.BoolVar(&o.cite, "cite", false, `answer a request carrying passages of the user's documents with "According to [1], " and passage 1's first sentence ("[9]" added when the message says "cite nine")`)
	flag.Float64Var(&o.tokenRatio, "token-ratio", 0, "count each prompt this many times as many tokens as plain (a tokenizer denser than Hermes's estimate); the count stops at num_ctx, as Ollama's does")
	flag.DurationVar(&o.loadDelay, "load-delay", 0, "time a model not yet loaded takes to load at its first chat (then /api/ps lists it)")
	flag.Parse()
	return o
}

// install keeps the models asked for and declares what a pull may fetch.
func (o options) install(fake *llmtest.Server) {
	if o.models != "" {
		keep := map[string]bool{}
		for _, m := range strings.Split(o.models, ",") {
			keep[strings.TrimSpace(m)] = true
		}
		var installed []llmtest.Model
		for _, m := range fake.Models {
			if keep[m.Name] {
				installed = append(installed, m)
			}
		}
		fake.Models = installed
	}
	if o.pullable != "" {
		fake.Pullable = map[string]llmtest.PullScript{}
		for _, name := range strings.Split(o.pullable, ",") {
			name = strings.TrimSpace(name)
			fake.Pullable[name] = llmtest.PullScript{Model: llmtest.Model{Name: name, ContextLength: 8192, Capabilities: []string{"completion", "tools"}},
				Size: 2 << 30, Steps: o.pullSteps, Delay: o.pullDelay}
		}
	}
}

// behave sets the replies: the script, then each behaviour asked for, in
// this order, around it.
func (o options) behave(fake *llmtest.Server) error {
	switch o.script {
	case "":
		fake.Chat = llmtest.Echo(o.words, o.delay)
	case "tools":
		fake.Chat = toolsScript(llmtest.Echo(o.words, o.delay), o.delay)
	default:
		return fmt.Errorf("unknown --script %q (want \"tools\" or nothing)", o.script)
	}
	if o.whichTools {
		fake.Chat = offeredTools(fake.Chat, o.delay)
	}
	if o.outOfMemory {
		fake.Chat = memoryError(fake.Chat)
	}
	if o.extractFacts {
		fake.Chat = extraction(fake.Chat)
	}
	if o.echoSystem {
		fake.Chat = systemEcho(fake.Chat, o.delay)
	}
	if o.echoDocuments {
		fake.Chat = documentEcho(fake.Chat, o.delay)
	}
	if o.thinking > 0 {
		fake.Models = append(fake.Models, llmtest.Model{Name: "qwen3", ContextLength: 8192, Capabilities: []string{"completion", "tools", "thinking"}})
		fake.Chat = reasoning(fake.Chat, o.thinking, o.thinkDelay)
	}
	if o.vision {
		fake.Models = append(fake.Models, llmtest.Model{Name: "gemma3", ContextLength: 8192, Capabilities: []string{"completion", "vision"}})
		fake.Chat = seeing(fake.Chat, o.delay)
	}
	if o.cite {
		fake.Chat = citing(fake.Chat, o.delay)
	}
	if o.tokenRatio > 0 {
		fake.Chat = denseTokens(fake.Chat, o.tokenRatio)
	}
	return nil
}

// serve listens on addr, prints the URL and serves until SIGINT or SIGTERM.
func serve(fake *llmtest.Server, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("FAKE_OLLAMA_URL=http://%s\n", ln.Addr())
	srv := &http.Server{Handler: fake}
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
		<-sig
		fake.Close()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		return err
	}
	return nil
}

// seeing answers a request that carries images with what it received: for
// each, "Image N: WxH FORMAT, B bytes" as Go decodes its header.
func seeing(next func(api.ChatRequest) llmtest.Reply, delay time.Duration) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		var seen []string
		for _, m := range req.Messages {
			for _, img := range m.Images {
				cfg, format, err := image.DecodeConfig(bytes.NewReader(img))
				if err != nil {
					seen = append(seen, fmt.Sprintf("Image %d: unreadable (%v), %d bytes.", len(seen)+1, err, len(img)))
					continue
				}
				seen = append(seen, fmt.Sprintf("Image %d: %dx%d %s, %d bytes.", len(seen)+1, cfg.Width, cfg.Height, format, len(img)))
			}
		}
		if len(seen) == 0 {
			return next(req)
		}
		return llmtest.Reply{Chunks: llmtest.Words(strings.Join(seen, " ")), Delay: delay}
	}
}

// reasoning adds words of reasoning before every reply (the fake streams
// them only for a model that can think, unless the request says think false).
// Each word waits delay; the answer's own words keep theirs.
func reasoning(next func(api.ChatRequest) llmtest.Reply, words int, delay time.Duration) func(api.ChatRequest) llmtest.Reply {
	const text = "The user asks something simple. I should weigh what they said, check it against what I know, and answer in a few plain words."
	pool := strings.Fields(text)
	return func(req api.ChatRequest) llmtest.Reply {
		r := next(req)
		if len(r.Chunks) == 0 || r.Status != 0 {
			return r
		}
		thoughts := make([]string, words)
		for i := range thoughts {
			thoughts[i] = pool[i%len(pool)] + " "
		}
		r.Thinking = thoughts
		if delay > 0 && r.Delay == 0 {
			r.Delay = delay
		}
		return r
	}
}

// memoryError answers "too big" with Ollama's 500 for a model that does not fit
// the free memory; the sizes are in it only when the message says "sizes".
func memoryError(next func(api.ChatRequest) llmtest.Reply) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		user, _, _ := round(req.Messages)
		text := strings.ToLower(user)
		switch {
		case !strings.Contains(text, "too big"):
			return next(req)
		case strings.Contains(text, "sizes"):
			return llmtest.Reply{Status: 500, Error: "model requires more system memory (5.6 GiB) than is available (3.1 GiB)"}
		}
		return llmtest.Reply{Status: 500, Error: "model requires more system memory than is available"}
	}
}

// documentEcho answers "what does the document say" with the first 80 characters
// of the attached document's text in the request (inside its fence, a user
// message), or "No document." when it carries none.
func documentEcho(next func(api.ChatRequest) llmtest.Reply, delay time.Duration) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		user, _, _ := round(req.Messages)
		if !strings.Contains(strings.ToLower(user), "what does the document say") {
			return next(req)
		}
		text := "No document."
		for _, m := range req.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, `<data kind="document"`) {
				_, body, _ := strings.Cut(strings.TrimSuffix(m.Content, "</data>"), "\n")
				if r := []rune(strings.Join(strings.Fields(body), " ")); len(r) > 80 {
					body = string(r[:80])
				} else {
					body = string(r)
				}
				text = "Document: " + body
				break
			}
		}
		return llmtest.Reply{Chunks: llmtest.Words(text), Delay: delay}
	}
}

// systemEcho answers "what is your system prompt" with the start of the system
// prompt the request carries, its model and the options it was sent with.
func systemEcho(next func(api.ChatRequest) llmtest.Reply, delay time.Duration) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		user, _, _ := round(req.Messages)
		if !strings.Contains(strings.ToLower(user), "what is your system prompt") {
			return next(req)
		}
		system := ""
		for _, m := range req.Messages {
			if m.Role == "system" {
				system = m.Content
				break
			}
		}
		if r := []rune(system); len(r) > 80 {
			system = string(r[:80])
		}
		opt := func(k string) string {
			if v, ok := req.Options[k]; ok {
				return fmt.Sprint(v)
			}
			return "-"
		}
		text := fmt.Sprintf("System: %s [model %s, temperature %s, num_ctx %s]", system, req.Model, opt("temperature"), opt("num_ctx"))
		return llmtest.Reply{Chunks: llmtest.Words(text), Delay: delay}
	}
}

// toolsScript answers "shout" and "loop" messages with tool calls and everything else
// with echo.
func toolsScript(echo func(api.ChatRequest) llmtest.Reply, delay time.Duration) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		user, tools, lastTool := round(req.Messages)
		text := strings.ToLower(user)
		switch {
		case isResearcher(req.Messages):
			if tools == 0 {
				return llmtest.Reply{ToolCalls: []api.ToolCall{withID(call("session_search", "query", "invoice"))}}
			}
			found := []rune(strings.TrimSpace(lastTool))
			if len(found) > 80 {
				found = found[:80]
			}
			return llmtest.Reply{Chunks: llmtest.Words("I found: " + string(found)), Delay: delay}
		case strings.Contains(text, "research"):
			if tools == 0 {
				return llmtest.Reply{ToolCalls: []api.ToolCall{withID(call("agent__researcher", "task", user))}}
			}
			return llmtest.Reply{Chunks: llmtest.Words("Done: " + strings.TrimSpace(lastTool)), Delay: delay}
		case strings.Contains(text, "shout"):
			if tools == 0 {
				return llmtest.Reply{ToolCalls: []api.ToolCall{call("shout", "text", user)}}
			}
			return llmtest.Reply{Chunks: llmtest.Words("Done: " + strings.TrimSpace(lastTool)), Delay: delay}
		case strings.Contains(text, "loop"):
			return llmtest.Reply{Chunks: []string{"Calculating", " 1+1", " again. "}, Delay: delay,
				ToolCalls: []api.ToolCall{call("calculator", "expression", "1+1")}}
		}
		return echo(req)
	}
}

var callIDs atomic.Int64

// withID gives a call an id, as Ollama does ("call_1", "call_2", … across the process), so a
// delegation's thread can be found by its call.
func withID(c api.ToolCall) api.ToolCall {
	c.ID = fmt.Sprintf("call_%d", callIDs.Add(1))
	return c
}

// isResearcher tells a request of the researcher sub-agent: one of its system messages
// contains "Hermes' researcher".
func isResearcher(msgs []api.Message) bool {
	for _, m := range msgs {
		if m.Role == "system" && strings.Contains(m.Content, "Hermes' researcher") {
			return true
		}
	}
	return false
}

// round finds the last user message, how many tool results follow it and the last
// of those results.
func round(msgs []api.Message) (user string, tools int, lastTool string) {
	last := -1
	for i, m := range msgs {
		if m.Role == "user" {
			last = i
		}
	}
	if last < 0 {
		return "", 0, ""
	}
	for _, m := range msgs[last+1:] {
		if m.Role == "tool" {
			tools++
			lastTool = inside(m.Content)
		}
	}
	return msgs[last].Content, tools, lastTool
}

// inside is what a fence holds (Hermes sends tool results as <data …>…</data>):
// what a model reads and answers from.
func inside(s string) string {
	head, body, ok := strings.Cut(s, "\n")
	if !ok || !strings.HasPrefix(head, "<data ") || !strings.HasSuffix(body, "</data>") {
		return s
	}
	return strings.TrimSuffix(body, "</data>")
}

func call(name, key string, value any) api.ToolCall {
	args := api.NewToolCallFunctionArguments()
	args.Set(key, value)
	return api.ToolCall{Function: api.ToolCallFunction{Name: name, Arguments: args}}
}

// offeredTools answers a user message containing "which tools" with the names of the
// tools in the request, sorted; any other message goes to next.
func offeredTools(next func(api.ChatRequest) llmtest.Reply, delay time.Duration) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		user, _, _ := round(req.Messages)
		if !strings.Contains(strings.ToLower(user), "which tools") {
			return next(req)
		}
		names := make([]string, 0, len(req.Tools))
		for _, t := range req.Tools {
			names = append(names, t.Function.Name)
		}
		sort.Strings(names)
		list := "none"
		if len(names) > 0 {
			list = strings.Join(names, ", ")
		}
		return llmtest.Reply{Chunks: []string{"Tools: ", list}, Delay: delay}
	}
}

type fact struct {
	Text       string  `json:"text"`
	Key        string  `json:"key"`
	Value      string  `json:"value"`
	Category   string  `json:"category"`
	Scope      string  `json:"scope"`
	Asserted   string  `json:"asserted"`
	Confidence float64 `json:"confidence"`
}

// extraction answers memory extraction requests (their format schema has "facts") with
// scripted facts; every other request goes to next.
func extraction(next func(api.ChatRequest) llmtest.Reply) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		if !strings.Contains(string(req.Format), `"facts"`) {
			return next(req)
		}
		// The user content is a JSON object whose "user" field is the turn's user text.
		user, _, _ := round(req.Messages)
		var in struct {
			User string `json:"user"`
		}
		if json.Unmarshal([]byte(user), &in) != nil || in.User == "" {
			in.User = user
		}
		text := strings.ToLower(in.User)
		facts := []fact{}
		if strings.Contains(text, "allergic to peanuts") {
			facts = append(facts, fact{Text: "I am allergic to peanuts", Key: "allergy.peanuts", Value: "peanuts",
				Category: "health", Scope: "lasting", Asserted: "stated", Confidence: 0.95})
		}
		const colour = "my favourite colour is "
		if i := strings.Index(text, colour); i >= 0 {
			v := strings.Trim(strings.Fields(in.User[i+len(colour):] + " x")[0], ".!,;")
			facts = append(facts, fact{Text: "My favourite colour is " + v, Key: "favourite.colour", Value: v,
				Category: "preference", Scope: "lasting", Asserted: "stated", Confidence: 0.95})
		}
		b, _ := json.Marshal(struct {
			Facts []fact `json:"facts"`
		}{facts})
		return llmtest.Reply{Chunks: []string{string(b)}}
	}
}

// citing answers a request that carries passages of the user's documents
// (<data kind="knowledge" … n="1" …>) with "According to [1], " and the first
// sentence of passage 1, and adds "[9]" (a citation of no passage) when the
// message says "cite nine".
func citing(next func(api.ChatRequest) llmtest.Reply, delay time.Duration) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		first := ""
		for _, m := range req.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, `<data kind="knowledge"`) && strings.Contains(m.Content, ` n="1"`) {
				_, body, _ := strings.Cut(strings.TrimSuffix(m.Content, "</data>"), "\n")
				first = firstSentence(body)
				break
			}
		}
		if first == "" {
			return next(req)
		}
		text := "According to [1], " + first
		if user, _, _ := round(req.Messages); strings.Contains(strings.ToLower(user), "cite nine") {
			text += " See also [9]."
		}
		return llmtest.Reply{Chunks: llmtest.Words(text), Delay: delay}
	}
}

// firstSentence is a passage's first sentence (its heading lines skipped).
func firstSentence(body string) string {
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.IndexAny(line, ".。!?"); i >= 0 {
			return line[:i+len(string([]rune(line[i:])[0]))]
		}
		return line
	}
	return ""
}

// denseTokens counts every prompt ratio times as many tokens as the plain
// count (a quarter of its characters and four a message).
func denseTokens(next func(api.ChatRequest) llmtest.Reply, ratio float64) func(api.ChatRequest) llmtest.Reply {
	return func(req api.ChatRequest) llmtest.Reply {
		r := next(req)
		n := 0
		for _, m := range req.Messages {
			n += len(m.Content)/4 + 4
		}
		r.PromptTokens = int(float64(n) * ratio)
		return r
	}
}
