package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"hermes/backend/llm"
	"hermes/backend/memory/decay"
)

// errInvalidOutput marks model output that does not fit the extraction schema.
var errInvalidOutput = errors.New("invalid extraction output")

// maxCandidates is the most facts one turn may yield.
const maxCandidates = 8

// extractionSchema is the structured output the model must produce (Ollama's
// "format" field).
var extractionSchema = `{
  "type": "object",
  "properties": {
    "facts": {
      "type": "array",
      "maxItems": 8,
      "items": {
        "type": "object",
        "properties": {
          "text": {"type": "string", "minLength": 1, "maxLength": 300},
          "key": {"type": "string", "minLength": 1, "maxLength": 64},
          "value": {"type": "string", "maxLength": 200},
          "category": {"type": "string", "enum": ` + decay.CategoryEnum() + `},
          "scope": {"type": "string", "enum": ["lasting", "session"]},
          "asserted": {"type": "string", "enum": ["stated", "inferred"]},
          "confidence": {"type": "number", "minimum": 0, "maximum": 1},
          "valid_until": {"type": "string"},
          "supersedes": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["text", "key", "value", "category", "scope", "asserted", "confidence"],
        "additionalProperties": false
      }
    }
  },
  "required": ["facts"],
  "additionalProperties": false
}`

const extractionPrompt = `You maintain the memory of a private assistant. From one conversation turn, extract the facts worth remembering about the USER: who they are, what they prefer, have, do, plan, or must avoid.
Rules:
- Only facts about the user themselves, stated or clearly implied by the user. Never facts about other people, hypotheticals, role-play, examples, questions, or the assistant's own suggestions.
- "text": one short sentence in the user's language, written as the user would say it ("I am allergic to peanuts", "我住在上海").
- "key": a stable attribute name in lower-case English with dots, the same for every fact about that attribute (e.g. diet, allergy.peanuts, home.city, pet.dog.name, commute.mode). One value per key.
- "value": the value of the attribute, short.
- "scope": "session" if it only matters for this conversation, otherwise "lasting".
- "asserted": "stated" if the user said it, "inferred" if you deduced it.
- "confidence": how sure you are, 0 to 1.
- "valid_until": a date (YYYY-MM-DD) after which the fact stops being true, if the user said so; otherwise leave it out.
- "supersedes": ids of known facts (below) that this fact makes untrue, e.g. a new city replaces the old one.
Return {"facts": []} when there is nothing worth remembering.`

// candidate fact from the model; Supersedes hold memory ids once resolved.
type extracted struct {
	Text       string   `json:"text"`
	Key        string   `json:"key"`
	Value      string   `json:"value"`
	Category   string   `json:"category"`
	Scope      string   `json:"scope"`
	Asserted   string   `json:"asserted"`
	Confidence float64  `json:"confidence"`
	ValidUntil string   `json:"valid_until,omitempty"`
	Supersedes []string `json:"supersedes,omitempty"`
}

// knownFact is an existing memory shown to the model under a short alias.
type knownFact struct {
	Alias string `json:"id"`
	Key   string `json:"key,omitempty"`
	Text  string `json:"text"`
	id    string
}

// extract asks the model for the facts of a turn. Output that does not fit the
// schema is asked for once more, then dropped: the result is all valid or nothing.
// Transport errors are returned as they are (the job is retried later).
func (s *Store) extract(ctx context.Context, o observation, known []knownFact) ([]extracted, error) {
	models := s.cfg.Models()
	if len(models) == 0 {
		return nil, errors.New("extract facts: no model configured")
	}
	in, _ := json.Marshal(struct {
		Today     string      `json:"today"`
		User      string      `json:"user"`
		Assistant string      `json:"assistant,omitempty"`
		Known     []knownFact `json:"known_facts"`
	}{o.Day, o.UserText, o.AssistantText, known})
	req := llm.ChatRequest{
		Models:   models,
		Messages: []llm.Message{{Role: "system", Content: extractionPrompt}, {Role: "user", Content: string(in)}},
		Format:   json.RawMessage(extractionSchema),
		Options:  map[string]any{"temperature": 0},
		NoThink:  true, // structured output nobody reads the reasoning of
	}
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		reply, err := s.cfg.LLM.Chat(ctx, req, func(llm.Delta) error { return nil })
		if err != nil {
			return nil, fmt.Errorf("extract facts: %w", err)
		}
		facts, err := parseExtraction(reply.Content, known)
		if err == nil {
			return facts, nil
		}
		lastErr = err
		s.cfg.Logf("memory: extraction attempt %d: %v", attempt+1, err)
		req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: reply.Content},
			llm.Message{Role: "user", Content: "That answer was invalid (" + err.Error() + "). Answer again with only JSON that matches the schema."})
	}
	return nil, lastErr
}

// parseExtraction validates the whole answer before anything is used: one bad fact
// makes the answer invalid. Aliases of known facts become memory ids.
func parseExtraction(content string, known []knownFact) ([]extracted, error) {
	dec := json.NewDecoder(strings.NewReader(content))
	dec.DisallowUnknownFields()
	var out struct {
		Facts *[]extracted `json:"facts"`
	}
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("%w: %v", errInvalidOutput, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data after the JSON object", errInvalidOutput)
	}
	if out.Facts == nil {
		return nil, fmt.Errorf("%w: no \"facts\" array", errInvalidOutput)
	}
	facts := *out.Facts
	if len(facts) > maxCandidates {
		return nil, fmt.Errorf("%w: %d facts; at most %d", errInvalidOutput, len(facts), maxCandidates)
	}
	alias := map[string]string{}
	for _, k := range known {
		alias[k.Alias] = k.id
	}
	for i := range facts {
		f := &facts[i]
		f.Text, f.Key = strings.TrimSpace(f.Text), normKey(f.Key)
		bad := func(why string) error { return fmt.Errorf("%w: fact %d: %s", errInvalidOutput, i+1, why) }
		switch {
		case f.Text == "" || utf8.RuneCountInString(f.Text) > 300:
			return nil, bad("text must have 1 to 300 characters")
		case f.Key == "" || len(f.Key) > 64 || !validKey(f.Key):
			return nil, bad(fmt.Sprintf("key %q must be lower-case words joined by dots or underscores", f.Key))
		case utf8.RuneCountInString(f.Value) > 200:
			return nil, bad("value is too long")
		case !validCategory(f.Category):
			return nil, bad(fmt.Sprintf("unknown category %q", f.Category))
		case f.Scope != "lasting" && f.Scope != "session":
			return nil, bad(fmt.Sprintf("scope %q is not lasting or session", f.Scope))
		case f.Asserted != "stated" && f.Asserted != "inferred":
			return nil, bad(fmt.Sprintf("asserted %q is not stated or inferred", f.Asserted))
		case f.Confidence < 0 || f.Confidence > 1:
			return nil, bad("confidence is not between 0 and 1")
		}
		if f.ValidUntil != "" {
			if _, err := parseDay(f.ValidUntil); err != nil {
				return nil, bad(fmt.Sprintf("valid_until %q is not a date", f.ValidUntil))
			}
		}
		var ids []string
		for _, a := range f.Supersedes {
			if id, ok := alias[a]; ok {
				ids = append(ids, id)
			}
		}
		f.Supersedes = ids
	}
	return facts, nil
}

func validKey(k string) bool {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// parseDay reads a date or a timestamp.
func parseDay(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, err
	}
	return t.Add(24*time.Hour - time.Nanosecond), nil // valid through that day
}

// knownFacts are the existing facts most related to the turn, shown to the model so
// it can say which ones a new fact supersedes.
func (s *Store) knownFacts(ctx context.Context, o observation) []knownFact {
	cands, err := s.hybrid(ctx, o.Profile, o.UserText, 8)
	if err != nil {
		s.cfg.Logf("memory: known facts: %v", err)
		return nil
	}
	var out []knownFact
	for _, c := range cands {
		if c.Status != StatusActive || c.Layer == LayerWorking || c.Profile != o.Profile {
			continue
		}
		out = append(out, knownFact{Alias: fmt.Sprintf("k%d", len(out)+1), Key: c.Key, Text: c.Text, id: c.ID})
		if len(out) == 5 {
			break
		}
	}
	return out
}

// isInvalidOutput reports whether err is the model's answer being unusable.
func isInvalidOutput(err error) bool { return errors.Is(err, errInvalidOutput) }
