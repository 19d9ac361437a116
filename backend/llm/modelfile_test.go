package llm

import (
	"errors"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
)

func TestModelfileTheOllamaWay(t *testing.T) {
	text := strings.Join([]string{
		"# a comment",
		"FROM ./ignored.gguf",
		`PARAMETER stop "<|end|>"`,
		"PARAMETER stop User:",
		"PARAMETER temperature 0.2",
		"PARAMETER num_ctx 4096",
		"PARAMETER use_mmap false",
		`TEMPLATE """{{ if .System }}{{ .System }}`,
		`{{ end }}{{ .Prompt }}"""`,
		`SYSTEM "You are terse."`,
		"LICENSE MIT",
		`LICENSE """second licence"""`,
		"MESSAGE user Hello there",
		"MESSAGE assistant Hi.",
		"REQUIRES 0.5.5",
	}, "\r\n") // as a Modelfile saved on Windows
	req, err := parseModelfile(text)
	if err != nil {
		t.Fatal(err)
	}
	if stop, ok := req.Parameters["stop"].([]string); !ok || !reflect.DeepEqual(stop, []string{"<|end|>", "User:"}) {
		t.Errorf("stop = %#v, want both values as a list", req.Parameters["stop"])
	}
	// Typed as Ollama's api.Options types them: float32, int64, *bool.
	if v, ok := req.Parameters["temperature"].(float32); !ok || v != 0.2 {
		t.Errorf("temperature = %#v", req.Parameters["temperature"])
	}
	if v, ok := req.Parameters["num_ctx"].(int64); !ok || v != 4096 {
		t.Errorf("num_ctx = %#v", req.Parameters["num_ctx"])
	}
	if v, ok := req.Parameters["use_mmap"].(*bool); !ok || *v {
		t.Errorf("use_mmap = %#v", req.Parameters["use_mmap"])
	}
	if req.Template != "{{ if .System }}{{ .System }}\n{{ end }}{{ .Prompt }}" || req.System != "You are terse." {
		t.Errorf("template %q, system %q", req.Template, req.System)
	}
	if !reflect.DeepEqual(req.License, []string{"MIT", "second licence"}) {
		t.Errorf("license = %#v", req.License)
	}
	want := []api.Message{{Role: "user", Content: "Hello there"}, {Role: "assistant", Content: "Hi."}}
	if !reflect.DeepEqual(req.Messages, want) {
		t.Errorf("messages = %+v", req.Messages)
	}
	// FROM is the file being imported: nothing of the Modelfile's goes out.
	if req.From != "" || req.Files != nil || req.Adapters != nil || req.Requires != "0.5.5" {
		t.Errorf("from %q, files %v, adapters %v, requires %q", req.From, req.Files, req.Adapters, req.Requires)
	}
}

func TestModelfileWithoutFromOrText(t *testing.T) {
	req, err := parseModelfile("")
	if err != nil || req.Parameters != nil || req.System != "" {
		t.Fatalf("empty Modelfile: %+v, %v", req, err)
	}
	req, err = parseModelfile("SYSTEM hi")
	if err != nil || req.System != "hi" {
		t.Fatalf("a Modelfile without FROM: %+v, %v", req, err)
	}
}

// Ollama's parser drops deprecated parameters and prints a warning about each
// on standard output; Hermes drops them without a word there, where the
// command line writes its results.
func TestModelfileDropsDeprecatedQuietly(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	req, perr := parseModelfile("PARAMETER mirostat 2\nPARAMETER top_k 20")
	os.Stdout = stdout
	w.Close()
	printed, _ := io.ReadAll(r)
	if perr != nil || len(printed) != 0 {
		t.Fatalf("err %v, printed %q", perr, printed)
	}
	if _, ok := req.Parameters["mirostat"]; ok || req.Parameters["top_k"] != int64(20) {
		t.Fatalf("parameters = %#v", req.Parameters)
	}
}

func TestModelfileRefusals(t *testing.T) {
	for _, tc := range []struct {
		text, word, reason string
		line               int
		says               string // in the message
	}{
		{"# notes\nSYSTEM \"\"\"be terse\nand kind", "SYSTEM", ModelfileUnclosed, 2, `the """ opened for SYSTEM is never closed`},
		{"SYSTEM \"be terse\nPARAMETER top_k 20", "SYSTEM", ModelfileUnclosed, 1, `the " opened for SYSTEM`},
		{"PARAMETER stop \"a b", "PARAMETER", ModelfileUnclosed, 1, `opened for PARAMETER`},
		{"PARAMETER temperature 0.2\n\nPARAMETER num_ctx", "PARAMETER", ModelfileNoValue, 3, "PARAMETER needs a name and a value"},
		{"PARAMETER\nSYSTEM hi", "PARAMETER", ModelfileNoValue, 1, "PARAMETER needs a name and a value"},
		{"TEMPLATE {{ .Prompt }}\nadapter ./lora.gguf", "adapter", ModelfileNotDirective, 2, "adapter is not a directive"},
		{"SYSTEM \"\"\"one\ntwo\"\"\"\n\n# then\nQUANTIZE q4_0", "QUANTIZE", ModelfileNotDirective, 5, "QUANTIZE is not a directive"},
		{"PARAMETER temperature warm", "PARAMETER", ModelfileBadValue, 1, "temperature: invalid float value"},
		{"SYSTEM hi\nPARAMETER num_gpu_layers 3", "PARAMETER", ModelfileBadValue, 2, "unknown parameter 'num_gpu_layers'"},
		{"PARAMETER top-k 3", "PARAMETER", ModelfileBadValue, 1, "letters, digits and underscores"},
		{"MESSAGE robot hi", "MESSAGE", ModelfileBadValue, 1, `message role must be one of "system", "user", or "assistant"`},
		{"MESSAGE user\nSYSTEM hi", "MESSAGE", ModelfileBadValue, 1, "MESSAGE needs a role"},
		{"SYSTEM hi\nTEMPLATE", "TEMPLATE", ModelfileBadValue, 2, "TEMPLATE: a value is missing"},
		{"REQUIRES soon", "REQUIRES", ModelfileBadValue, 1, "valid semver"},
	} {
		_, err := parseModelfile(tc.text)
		var mf *ModelfileError
		if !errors.As(err, &mf) || !errors.Is(err, ErrModelfile) || mf.Line != tc.line || mf.Word != tc.word || mf.Reason != tc.reason ||
			!strings.HasPrefix(err.Error(), "Modelfile line "+strconv.Itoa(tc.line)+": ") || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: %v (%+v)", tc.text, err, mf)
		}
	}
}
