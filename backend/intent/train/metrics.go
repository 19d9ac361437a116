package train

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"hermes/backend/intent/dataset"
)

// Prediction is a model's answer for one example.
type Prediction struct {
	Label      int     // index into dataset.Labels
	Confidence float64 // probability of Label
}

// R4 is a float written with four decimals, so metrics.json is stable.
type R4 float64

// MarshalJSON writes the value rounded to four decimals.
func (r R4) MarshalJSON() ([]byte, error) {
	v := math.Round(float64(r)*1e4) / 1e4
	return []byte(strconv.FormatFloat(v, 'f', 4, 64)), nil
}

// LabelMetrics are the held-out figures of one label.
type LabelMetrics struct {
	Label     string `json:"label"`
	Support   int    `json:"support"`
	Precision R4     `json:"precision"`
	Recall    R4     `json:"recall"`
	F1        R4     `json:"f1"`
	// Accuracy per language is the share of this label's examples in that
	// language that were classified correctly (recall within a language).
	AccuracyEN R4 `json:"accuracy_en"`
	AccuracyZH R4 `json:"accuracy_zh"`
}

// LangMetrics are the held-out figures of one language.
type LangMetrics struct {
	Lang     string `json:"lang"`
	Examples int    `json:"examples"`
	Accuracy R4     `json:"accuracy"`
	MacroF1  R4     `json:"macro_f1"`
}

// ThresholdRow says what a confidence threshold does on the held-out split:
// the share of messages that keep their label (coverage), the accuracy of
// those, and the share of all errors that become "unknown" instead.
type ThresholdRow struct {
	Threshold       R4  `json:"threshold"`
	Coverage        R4  `json:"coverage"`
	AccuracyCovered R4  `json:"accuracy_covered"`
	ErrorsCaught    int `json:"errors_caught"`
	Errors          int `json:"errors"`
}

// HeldOut is the evaluation on the held-out split.
type HeldOut struct {
	Split    string         `json:"split"`
	Examples int            `json:"examples"`
	Accuracy R4             `json:"accuracy"`
	MacroF1  R4             `json:"macro_f1"`
	PerLabel []LabelMetrics `json:"per_label"`
	PerLang  []LangMetrics  `json:"per_language"`
	// Confusion[i][j] counts examples of label i predicted as label j, in
	// the order of Labels.
	Labels     []string       `json:"labels"`
	Confusion  [][]int        `json:"confusion"`
	Thresholds []ThresholdRow `json:"thresholds"`
	// ECE is the expected calibration error (see ECE).
	ECE R4 `json:"ece"`
	// ConfidentErrors counts the errors made with confidence >= 0.9, and
	// ConfidentErrorRate is their share of all examples.
	ConfidentErrors    int `json:"confident_errors"`
	ConfidentErrorRate R4  `json:"confident_error_rate"`
}

// Training describes how the model was made.
type Training struct {
	Config        Config `json:"config"`
	Examples      int    `json:"examples"`
	TrainAccuracy R4     `json:"train_accuracy"`
	TrainSHA256   string `json:"train_sha256"`
	TestSHA256    string `json:"test_sha256"`
	DevSHA256     string `json:"dev_sha256"`
	ModelBytes    int    `json:"model_bytes"`
	ModelSHA256   string `json:"model_sha256"`
}

// Report is the content of metrics.json.
type Report struct {
	HeldOut HeldOut `json:"heldout"`
	// Dev is the development split's figures, by which the model's kind
	// and size are chosen (never by the held-out split or the challenge
	// set).
	Dev         HeldOut     `json:"dev"`
	Calibration Calibration `json:"calibration"`
	Training    Training    `json:"training"`
}

// Marshal encodes v as indented JSON with a trailing newline.
func Marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Thresholds are the confidence thresholds reported in metrics.json.
var Thresholds = []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// Evaluate scores predictions against examples.
func Evaluate(split string, examples []dataset.Example, preds []Prediction) HeldOut {
	L := len(dataset.Labels)
	h := HeldOut{Split: split, Examples: len(examples), Labels: append([]string(nil), dataset.Labels...)}
	h.Confusion = confusion(examples, preds, "")
	correct := 0
	for i := range examples {
		if preds[i].Label == dataset.LabelIndex(examples[i].Label) {
			correct++
		}
	}
	h.Accuracy = R4(ratio(correct, len(examples)))
	var f1sum float64
	byLang := map[string][][]int{}
	for _, lang := range dataset.Langs {
		byLang[lang] = confusion(examples, preds, lang)
	}
	for c := 0; c < L; c++ {
		p, r, f := prf(h.Confusion, c)
		f1sum += f
		h.PerLabel = append(h.PerLabel, LabelMetrics{
			Label: dataset.Labels[c], Support: rowSum(h.Confusion[c]),
			Precision: R4(p), Recall: R4(r), F1: R4(f),
			AccuracyEN: R4(ratio(byLang["en"][c][c], rowSum(byLang["en"][c]))),
			AccuracyZH: R4(ratio(byLang["zh"][c][c], rowSum(byLang["zh"][c]))),
		})
	}
	h.MacroF1 = R4(f1sum / float64(L))
	for _, lang := range dataset.Langs {
		cm := byLang[lang]
		n, ok, fs := 0, 0, 0.0
		for c := 0; c < L; c++ {
			n += rowSum(cm[c])
			ok += cm[c][c]
			_, _, f := prf(cm, c)
			fs += f
		}
		h.PerLang = append(h.PerLang, LangMetrics{Lang: lang, Examples: n, Accuracy: R4(ratio(ok, n)), MacroF1: R4(fs / float64(L))})
	}
	errs := len(examples) - correct
	h.ECE = R4(ECE(examples, preds))
	for i, p := range preds {
		if p.Confidence >= 0.9 && p.Label != dataset.LabelIndex(examples[i].Label) {
			h.ConfidentErrors++
		}
	}
	h.ConfidentErrorRate = R4(ratio(h.ConfidentErrors, len(examples)))
	for _, t := range Thresholds {
		covered, coveredOK, caught := 0, 0, 0
		for i, p := range preds {
			right := p.Label == dataset.LabelIndex(examples[i].Label)
			if p.Confidence >= t {
				covered++
				if right {
					coveredOK++
				}
			} else if !right {
				caught++
			}
		}
		h.Thresholds = append(h.Thresholds, ThresholdRow{
			Threshold: R4(t), Coverage: R4(ratio(covered, len(examples))),
			AccuracyCovered: R4(ratio(coveredOK, covered)), ErrorsCaught: caught, Errors: errs,
		})
	}
	return h
}

func confusion(examples []dataset.Example, preds []Prediction, lang string) [][]int {
	L := len(dataset.Labels)
	cm := make([][]int, L)
	for i := range cm {
		cm[i] = make([]int, L)
	}
	for i, ex := range examples {
		if lang != "" && ex.Lang != lang {
			continue
		}
		cm[dataset.LabelIndex(ex.Label)][preds[i].Label]++
	}
	return cm
}

func prf(cm [][]int, c int) (p, r, f float64) {
	tp := cm[c][c]
	col := 0
	for i := range cm {
		col += cm[i][c]
	}
	p = ratio(tp, col)
	r = ratio(tp, rowSum(cm[c]))
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}

func rowSum(row []int) int {
	s := 0
	for _, v := range row {
		s += v
	}
	return s
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
