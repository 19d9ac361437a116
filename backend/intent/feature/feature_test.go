package feature

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json")

func TestHashIsSeededFNV1a(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed uint32
		s    string
	}{
		{"empty", 0, ""},
		{"ascii", DefaultConfig().Seed, "w1:hello"},
		{"cjk", 42, "h:我对花"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := fnv.New32a()
			var seed [4]byte
			binary.LittleEndian.PutUint32(seed[:], tc.seed)
			h.Write(seed[:])
			h.Write([]byte(tc.s))
			if got, want := Hash(tc.seed, tc.s), h.Sum32(); got != want {
				t.Fatalf("Hash = %#x, hash/fnv gives %#x", got, want)
			}
			if got, want := Hash(tc.seed, tc.s[:len(tc.s)/2], tc.s[len(tc.s)/2:]), h.Sum32(); got != want {
				t.Fatalf("Hash of split parts = %#x, want %#x", got, want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"case", "Hello WORLD", "hello world"},
		{"curly apostrophe", "I’m here", "i'm here"},
		{"fullwidth", "ＡＢＣ？！", "abc?!"},
		{"digits", "call at 5:30 on 2024", "call at 0:00 on 0000"},
		{"chinese punctuation", "你好，世界？", "你好,世界?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Normalize(tc.in); got != tc.want {
				t.Fatalf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		words     []string
		cjkTokens []string
	}{
		{"english", "i'm allergic to peanuts!!", []string{"i'm", "allergic", "to", "peanuts", "!", "!"}, nil},
		{"apostrophe at edges", "'quoted' don't", []string{"quoted", "don't"}, nil},
		{"operators", "00*00 = ?", []string{"00", "*", "00", "=", "?"}, nil},
		{"chinese", "我对花生过敏?", []string{"?"}, []string{"我对花生过敏"}},
		{"mixed", "帮我 check 一下上海的weather", []string{"check", "weather"}, []string{"帮我", "一下上海的"}},
		{"kana and hangul", "ありがとう 감사", nil, []string{"ありがとう", "감사"}},
		{"empty", "", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, c := Tokens(tc.in)
			if !slices.Equal(w, tc.words) || !slices.Equal(c, tc.cjkTokens) {
				t.Fatalf("Tokens(%q) = %q, %q; want %q, %q", tc.in, w, c, tc.words, tc.cjkTokens)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	ok := DefaultConfig()
	for _, tc := range []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"default", func(*Config) {}, ""},
		{"version", func(c *Config) { c.Version = 3 }, "version 3"},
		{"version zero", func(c *Config) { c.Version = 0 }, "version 0"},
		{"cues need version 2", func(c *Config) { c.Version = 1 }, "cues need version 2"},
		{"version 1 without cues", func(c *Config) { c.Version, c.Cues = 1, false }, ""},
		{"dims zero", func(c *Config) { c.Dims = 0 }, "dims 0"},
		{"dims huge", func(c *Config) { c.Dims = MaxDims + 1 }, "out of range"},
		{"empty range", func(c *Config) { c.WordNgrams = [2]int{2, 1} }, "word_ngrams"},
		{"zero range", func(c *Config) { c.CJKCharNgrams = [2]int{0, 2} }, "cjk_char_ngrams"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.mutate(&c)
			err := c.Validate()
			if tc.want == "" && err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("Validate = %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"roundtrip", string(DefaultConfig().Marshal()), ""},
		{"unknown field", `{"version":1,"dims":8,"seed":1,"word_ngrams":[1,2],"latin_char_ngrams":[2,4],"cjk_char_ngrams":[1,3],"extra":1}`, "unknown field"},
		{"not json", `dims: 8`, "invalid character"},
		{"bad dims", `{"version":1,"dims":1,"seed":1,"word_ngrams":[1,2],"latin_char_ngrams":[2,4],"cjk_char_ngrams":[1,3]}`, "dims 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.in), "featurizer.json")
			if tc.want == "" {
				if err != nil || c != DefaultConfig() {
					t.Fatalf("Parse = %+v, %v", c, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "featurizer.json") {
				t.Fatalf("Parse error = %v, want one naming the file and %q", err, tc.want)
			}
		})
	}
}

// The committed featurizer.json is the default configuration.
func TestCommittedConfig(t *testing.T) {
	c, err := Load(filepath.Join("..", "..", "..", "models", "intent", "featurizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c != DefaultConfig() {
		t.Fatalf("models/intent/featurizer.json = %+v, DefaultConfig = %+v", c, DefaultConfig())
	}
}

func TestSparseIsUnitLengthAndSorted(t *testing.T) {
	f, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range goldenTexts {
		t.Run(text, func(t *testing.T) {
			s := f.Sparse(text)
			if !slices.IsSorted(s.Index) {
				t.Fatal("indices not sorted")
			}
			var sum float64
			for i, v := range s.Value {
				if i > 0 && s.Index[i] == s.Index[i-1] {
					t.Fatal("repeated index")
				}
				sum += float64(v) * float64(v)
			}
			if len(s.Index) > 0 && math.Abs(sum-1) > 1e-5 {
				t.Fatalf("squared norm %v, want 1", sum)
			}
			dense := make([]float32, f.Dims())
			dense[3] = 7 // overwritten
			if n := f.Dense(dense, text); n != len(s.Index) {
				t.Fatalf("Dense reported %d features, Sparse has %d", n, len(s.Index))
			}
			nz := 0
			for _, v := range dense {
				if v != 0 {
					nz++
				}
			}
			if nz != len(s.Index) {
				t.Fatalf("Dense has %d non-zeros, Sparse %d", nz, len(s.Index))
			}
		})
	}
}

func TestNoFeatures(t *testing.T) {
	f, _ := New(DefaultConfig())
	for _, text := range []string{"", "   ", "...", "，。"} {
		if s := f.Sparse(text); len(s.Index) != 0 {
			t.Errorf("Sparse(%q) has %d features, want none", text, len(s.Index))
		}
	}
}

var goldenTexts = []string{
	"I'm allergic to peanuts",
	"what time is it?",
	"my friend is allergic to peanuts",
	"我对花生过敏",
	"帮我 check 一下上海的天气",
	"Ｆｏｒｇｅｔ my allergy！！",
	"set a timer for 15 minutes",
	"",
}

type goldenVec struct {
	Text  string   `json:"text"`
	Index []int32  `json:"index"`
	Value []string `json:"value"` // float32 in shortest decimal form
}

// TestGolden pins the exact vectors of a few texts: any change to the
// featurizer that would silently invalidate the committed model fails here.
// Regenerate with: go test ./backend/intent/feature -run TestGolden -update
func TestGolden(t *testing.T) {
	f, _ := New(DefaultConfig())
	var got []goldenVec
	for _, text := range goldenTexts {
		s := f.Sparse(text)
		g := goldenVec{Text: text, Index: s.Index, Value: []string{}}
		if g.Index == nil {
			g.Index = []int32{}
		}
		for _, v := range s.Value {
			g.Value = append(g.Value, strconv.FormatFloat(float64(v), 'g', -1, 32))
		}
		got = append(got, g)
	}
	// One vector per line keeps diffs readable.
	b := []byte("[\n")
	for i, g := range got {
		line, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, line...)
		if i < len(got)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	b = append(b, "]\n"...)
	path := filepath.Join("testdata", "golden.json")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(want) {
		t.Fatalf("feature vectors differ from %s; if the change is intended, run with -update and retrain (go tool task model:intent)", path)
	}
}

func BenchmarkSparse(b *testing.B) {
	f, _ := New(DefaultConfig())
	for b.Loop() {
		f.Sparse("hey, could you remind me what I told you about my allergies last week?")
	}
}

// TestFeatureStrings checks the documented feature scheme by hand: the
// vector of a text is the normalized count of exactly these strings' buckets.
func TestFeatureStrings(t *testing.T) {
	cfg := DefaultConfig()
	f, _ := New(cfg)
	for _, tc := range []struct {
		text  string
		feats []string
	}{
		{"Hi!", []string{
			"w1:hi", "w1:!", "w2:<s> hi", "w2:hi !", "w2:! </s>",
			"c:<h", "c:hi", "c:i>", "c:<hi", "c:hi>", "c:<hi>",
			// "hi" is in the greeting cue class.
			"k1:greet", "k2:<s> #greet", "k2:#greet !",
		}},
		{"你好", []string{"h:你", "h:好", "h:^你", "h:你好", "h:好$", "h:^你好", "h:你好$",
			// 你好 is one greeting cue: the run rewritten to its marker.
			"k:\ue00a", "k:^\ue00a", "k:\ue00a$", "k:^\ue00a$"}},
		{"我妈对花生过敏", append(cjkGrams("h:", "我妈对花生过敏"),
			// 我 (self) and 妈 (someone else) become their markers.
			cjkGrams("k:", "\ue005\ue001对花生过敏")...)},
	} {
		t.Run(tc.text, func(t *testing.T) {
			counts := map[int32]float64{}
			for _, s := range tc.feats {
				counts[int32(Hash(cfg.Seed, s)%uint32(cfg.Dims))]++
			}
			var norm float64
			for _, c := range counts {
				norm += c * c
			}
			norm = math.Sqrt(norm)
			got := f.Sparse(tc.text)
			if len(got.Index) != len(counts) {
				t.Fatalf("%d features, want %d", len(got.Index), len(counts))
			}
			for i, idx := range got.Index {
				want := float32(counts[idx] / norm)
				if math.Abs(float64(got.Value[i]-want)) > 1e-6 {
					t.Fatalf("bucket %d = %v, want %v", idx, got.Value[i], want)
				}
			}
		})
	}
}

// cjkGrams lists the CJK character 1-3-grams of run padded with '^' and
// '$' (unigrams of the run itself), each with prefix.
func cjkGrams(prefix, run string) []string {
	p := []rune("^" + run + "$")
	var out []string
	for n := 1; n <= 3; n++ {
		lo, hi := 0, len(p)
		if n == 1 {
			lo, hi = 1, len(p)-1
		}
		for i := lo; i+n <= hi; i++ {
			out = append(out, prefix+string(p[i:i+n]))
		}
	}
	return out
}

func TestCueClasses(t *testing.T) {
	f, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// Two messages that differ only in a member of one class share their
	// cue features; v1 (no cues) shares none beyond the common n-grams.
	shared := func(a, b Sparse) int {
		n := 0
		for _, i := range a.Index {
			if slices.Contains(b.Index, i) {
				n++
			}
		}
		return n
	}
	v1 := DefaultConfig()
	v1.Version, v1.Cues = 1, false
	f1, err := New(v1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range [][2]string{{"我姑姑有高血压", "我舅舅有高血压"}, {"my aunt is diabetic", "my cousin is diabetic"}} {
		with := shared(f.Sparse(tc[0]), f.Sparse(tc[1]))
		without := shared(f1.Sparse(tc[0]), f1.Sparse(tc[1]))
		if with <= without {
			t.Errorf("%q and %q share %d buckets with cues, %d without; want more with cues", tc[0], tc[1], with, without)
		}
	}
	if lx := newCueLexicon(); lx.matchZh([]rune("女朋友说")).marker != '\ue001' || len(lx.matchZh([]rune("女朋友说")).word) != 3 {
		t.Errorf("longest match of 女朋友说 is not 女朋友")
	}
}
