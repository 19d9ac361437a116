package realollama

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/ollama/ollama/fs/ggml"
)

// The tiny model's shape: one llama block small enough to load and answer in
// milliseconds on a laptop CPU, large enough for llama.cpp's kernels.
const (
	tinyEmbed   = 32  // llama.embedding_length
	tinyHeads   = 4   // llama.attention.head_count (and _kv): head size 8
	tinyFFN     = 64  // llama.feed_forward_length
	tinyContext = 512 // llama.context_length: Ollama caps num_ctx at it
)

// Special tokens of the tiny vocabulary (tokenizer.ggml.*_token_id).
const (
	tokUnknown = 0
	tokBOS     = 1
	tokEOS     = 2
	firstByte  = 3 // <0x00>; byte b is token firstByte+b
)

// tinyWords are whole-word pieces after the byte tokens, so that ordinary
// prompts tokenize into a few pieces rather than one per byte.
var tinyWords = []string{"▁hello", "▁world", "▁the", "▁a", "▁is", "▁say", "▁hi", "▁Hermes", "▁yes", "▁no"}

// llama.cpp's token types (tokenizer.ggml.token_type).
const (
	typeNormal  = 1
	typeUnknown = 2
	typeControl = 3
	typeByte    = 6
)

// WriteTinyModel writes a GGUF file of a one-block llama model with random
// weights (seeded: the same bytes every time) and a SentencePiece vocabulary
// of three special tokens, the 256 byte tokens and a few words: a model the
// real Ollama loads on a CPU and answers with (gibberish, over the real wire
// format) in well under a second.
func WriteTinyModel(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write tiny model: %w", err)
	}
	tokens, scores, types := tinyVocab()
	kv := ggml.KV{
		"general.architecture":                   "llama",
		"general.name":                           "hermes-tiny",
		"general.file_type":                      uint32(ggml.FileTypeF32),
		"llama.block_count":                      uint32(1),
		"llama.context_length":                   uint32(tinyContext),
		"llama.embedding_length":                 uint32(tinyEmbed),
		"llama.feed_forward_length":              uint32(tinyFFN),
		"llama.attention.head_count":             uint32(tinyHeads),
		"llama.attention.head_count_kv":          uint32(tinyHeads),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
		"llama.rope.freq_base":                   float32(10000),
		"tokenizer.ggml.model":                   "llama",
		"tokenizer.ggml.tokens":                  tokens,
		"tokenizer.ggml.scores":                  scores,
		"tokenizer.ggml.token_type":              types,
		"tokenizer.ggml.unknown_token_id":        uint32(tokUnknown),
		"tokenizer.ggml.bos_token_id":            uint32(tokBOS),
		"tokenizer.ggml.eos_token_id":            uint32(tokEOS),
		"tokenizer.ggml.add_bos_token":           true,
		"tokenizer.ggml.add_eos_token":           false,
	}
	err = ggml.WriteGGUF(f, kv, tinyTensors(len(tokens)))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write tiny model %s: %w", path, err)
	}
	return nil
}

// tinyVocab is the tokenizer: <unk>, <s>, </s>, <0x00>…<0xFF>, then tinyWords.
func tinyVocab() (tokens []string, scores []float32, types []int32) {
	tokens = []string{"<unk>", "<s>", "</s>"}
	types = []int32{typeUnknown, typeControl, typeControl}
	for b := range 256 {
		tokens = append(tokens, fmt.Sprintf("<0x%02X>", b))
		types = append(types, typeByte)
	}
	for _, w := range tinyWords {
		tokens = append(tokens, w)
		types = append(types, typeNormal)
	}
	scores = make([]float32, len(tokens))
	for i := range tinyWords {
		scores[len(tokens)-len(tinyWords)+i] = -float32(i + 1) // SentencePiece prefers higher scores
	}
	return tokens, scores, types
}

// tinyTensors are the F32 tensors of one llama block (the output projection is
// tied to the token embedding, tokenEmbedding); norms are ones, the rest small
// random values.
func tinyTensors(vocab int) []*ggml.Tensor {
	rng := rand.New(rand.NewPCG(30, 4))
	e, ff, v := uint64(tinyEmbed), uint64(tinyFFN), uint64(vocab)
	out := []*ggml.Tensor{{Name: "token_embd.weight", Kind: uint32(ggml.TensorTypeF32), Shape: []uint64{e, v},
		WriterTo: bytes.NewReader(tokenEmbedding(rng, vocab))}}
	shapes := []struct {
		name  string
		shape []uint64
		ones  bool
	}{
		{"output_norm.weight", []uint64{e}, true},
		{"blk.0.attn_norm.weight", []uint64{e}, true},
		{"blk.0.attn_q.weight", []uint64{e, e}, false},
		{"blk.0.attn_k.weight", []uint64{e, e}, false},
		{"blk.0.attn_v.weight", []uint64{e, e}, false},
		{"blk.0.attn_output.weight", []uint64{e, e}, false},
		{"blk.0.ffn_norm.weight", []uint64{e}, true},
		{"blk.0.ffn_gate.weight", []uint64{e, ff}, false},
		{"blk.0.ffn_up.weight", []uint64{e, ff}, false},
		{"blk.0.ffn_down.weight", []uint64{ff, e}, false},
	}
	for _, s := range shapes {
		n := uint64(1)
		for _, d := range s.shape {
			n *= d
		}
		out = append(out, &ggml.Tensor{Name: s.name, Kind: uint32(ggml.TensorTypeF32), Shape: s.shape,
			WriterTo: bytes.NewReader(f32s(rng, n, s.ones))})
	}
	return out
}

// tokenEmbedding is the embedding (and, tied, the output projection). The
// rows of the words are large, so a greedy reply is words (text in every
// streamed piece) that does not end before num_predict. The rows of </s> and
// of the whitespace bytes are zero: their scores tie at 0, and a greedy pick
// takes the first, </s>, so a reply held to a JSON schema ends as soon as its
// value is complete rather than trailing whitespace up to num_predict.
func tokenEmbedding(rng *rand.Rand, vocab int) []byte {
	vals := make([]float32, tinyEmbed*vocab)
	firstWord := vocab - len(tinyWords)
	for tok := range vocab {
		scale := float32(0.2)
		switch {
		case tok == tokEOS || isSpaceByte(tok):
			scale = 0
		case tok >= firstWord:
			scale = 4
		}
		for i := range tinyEmbed {
			vals[tok*tinyEmbed+i] = scale * (rng.Float32() - 0.5)
		}
	}
	return le(vals)
}

// isSpaceByte reports whether tok is the byte token of JSON whitespace.
func isSpaceByte(tok int) bool {
	switch tok - firstByte {
	case ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// f32s is n little-endian float32 values: ones, or uniform in [-0.5, 0.5).
func f32s(rng *rand.Rand, n uint64, ones bool) []byte {
	vals := make([]float32, n)
	for i := range vals {
		if ones {
			vals[i] = 1
		} else {
			vals[i] = rng.Float32() - 0.5
		}
	}
	return le(vals)
}

// le is vals as little-endian bytes.
func le(vals []float32) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, vals) // a bytes.Buffer does not fail
	return b.Bytes()
}
