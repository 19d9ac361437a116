package train

import (
	"math"

	"hermes/backend/intent/dataset"
	"hermes/backend/intent/feature"
)

// ECEBins is the number of equal-width confidence bins of the expected
// calibration error.
const ECEBins = 15

// ECE is the expected calibration error of predictions against examples:
// the confidence range [0, 1] is cut into ECEBins equal bins, and the gaps
// between the mean confidence and the accuracy of each bin are averaged,
// weighted by the bin's share of examples.
func ECE(examples []dataset.Example, preds []Prediction) float64 {
	var conf, acc [ECEBins]float64
	var n [ECEBins]int
	for i, p := range preds {
		b := min(int(p.Confidence*ECEBins), ECEBins-1)
		conf[b] += p.Confidence
		if p.Label == dataset.LabelIndex(examples[i].Label) {
			acc[b]++
		}
		n[b]++
	}
	var e float64
	for b := range n {
		if n[b] > 0 {
			e += math.Abs(acc[b]-conf[b]) / float64(len(preds))
		}
	}
	return e
}

// Calibration records the temperature scaling fitted on the development
// split. The temperature is folded into the model's weights (W/T, B/T), so
// ONNX Runtime applies it with no extra work at inference.
type Calibration struct {
	Split       string `json:"split"`
	Examples    int    `json:"examples"`
	Temperature R4     `json:"temperature"`
	NLLBefore   R4     `json:"nll_before"`
	NLLAfter    R4     `json:"nll_after"`
	ECEBefore   R4     `json:"ece_before"`
	ECEAfter    R4     `json:"ece_after"`
	// HeldOut ECE of the uncalibrated model (the calibrated one is in
	// heldout.ece).
	HeldOutECEBefore R4 `json:"heldout_ece_before"`
}

// rawLogits returns the logits (before softmax) of every example.
func rawLogits(m *Model, fz *feature.Featurizer, exs []dataset.Example) [][]float64 {
	out := make([][]float64, len(exs))
	for i, ex := range exs {
		out[i] = m.Logits(fz.Sparse(ex.Text))
	}
	return out
}

// nll is the mean negative log-likelihood of the true labels at
// temperature t.
func nll(logits [][]float64, ys []int, t float64) float64 {
	p := make([]float64, len(logits[0]))
	var s float64
	for i, z := range logits {
		for c := range z {
			p[c] = z[c] / t
		}
		softmax(p)
		s -= math.Log(max(p[ys[i]], 1e-300))
	}
	return s / float64(len(logits))
}

// FitTemperature finds the temperature in [0.05, 20] that minimizes the
// negative log-likelihood of the examples (a one-dimensional convex problem
// in log t), by golden-section search with a fixed number of steps, so it is
// deterministic.
func FitTemperature(m *Model, fz *feature.Featurizer, exs []dataset.Example) (t, before, after float64) {
	logits := rawLogits(m, fz, exs)
	ys := make([]int, len(exs))
	for i, ex := range exs {
		ys[i] = dataset.LabelIndex(ex.Label)
	}
	f := func(lt float64) float64 { return nll(logits, ys, math.Exp(lt)) }
	lo, hi := math.Log(0.05), math.Log(20)
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for range 60 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		}
	}
	t = math.Round(math.Exp((lo+hi)/2)*1e4) / 1e4
	return t, nll(logits, ys, 1), nll(logits, ys, t)
}

// Scaled returns a copy of m with its logits divided by t (the output
// layer's weights and bias divided by t; a hidden layer is shared).
func (m *Model) Scaled(t float64) *Model {
	s := &Model{Labels: m.Labels, D: m.D, L: m.L, H: m.H, W1: m.W1, B1: m.B1, W: make([]float32, len(m.W)), B: make([]float32, len(m.B))}
	for i, w := range m.W {
		s.W[i] = float32(float64(w) / t)
	}
	for i, b := range m.B {
		s.B[i] = float32(float64(b) / t)
	}
	return s
}
