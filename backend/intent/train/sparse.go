package train

import "hermes/backend/intent/feature"

// sparseGrad is the gradient of a D×width weight matrix whose input is sparse:
// a batch touches only the rows of the features it holds, and lazy Adam moves
// only those rows (with their L2 term). Both trainers' first layer use it.
type sparseGrad struct {
	width   int
	g       []float64 // D×width, zero outside the touched rows
	touched []bool
	rows    []int32 // the touched rows, in the order first touched
}

func newSparseGrad(d, width int) *sparseGrad {
	return &sparseGrad{width: width, g: make([]float64, d*width), touched: make([]bool, d)}
}

// add accumulates x ⊗ delta: row idx gets value·delta for each feature of x.
func (s *sparseGrad) add(x feature.Sparse, delta []float64) {
	for k, idx := range x.Index {
		if !s.touched[idx] {
			s.touched[idx] = true
			s.rows = append(s.rows, idx)
		}
		xv := float64(x.Value[k])
		row := int(idx) * s.width
		for j := 0; j < s.width; j++ {
			s.g[row+j] += float64(xv * delta[j])
		}
	}
}

// step applies lazy Adam to the touched rows of w (moments m, v) and starts
// the next batch.
func (s *sparseGrad) step(opt *adam, w, m, v []float64, l2 float64) {
	for _, idx := range s.rows {
		lo, hi := int(idx)*s.width, int(idx)*s.width+s.width
		for i := lo; i < hi; i++ {
			s.g[i] += float64(l2 * w[i])
		}
		opt.update(w[lo:hi], s.g[lo:hi], m[lo:hi], v[lo:hi])
		clear(s.g[lo:hi])
		s.touched[idx] = false
	}
	s.rows = s.rows[:0]
}
