// Package onnx writes the intent model as an ONNX ModelProto and reads back
// the parts of a model the runtime checks before handing it to ONNX Runtime
// (input and output names and shapes, metadata). It hand-encodes the few
// message fields it needs with protowire, following onnx/onnx.proto (proto2
// field numbers), so it needs no generated code.
package onnx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// Versions written into the model. IR version 8 with opset 13 is read by
// ONNX Runtime 1.24 (which accepts IR versions up to 11).
const (
	IRVersion = 8
	Opset     = 13
)

// Tensor element types in onnx.TensorProto.DataType.
const (
	ElemFloat = 1 // float32
	ElemInt64 = 7
)

// AttributeProto.AttributeType INT.
const attrInt = 2

// Names of the graph's inputs, output and feature table.
//
// The graph reads the feature vectors sparsely, padded to the longest
// message of a batch: IndicesName is int64 [N, K], the bucket indices of each
// message's non-zero features, ValuesName is float32 [N, K], their values;
// padding entries have index 0 and value 0, so they add nothing. TableName is
// the initializer [dims, width] whose rows the indices select, so a message
// costs K rows whatever the number of buckets (an EmbeddingBag: Gather, Mul,
// ReduceSum), where a dense [N, dims] input cost a full MatMul.
const (
	IndicesName = "indices"
	ValuesName  = "values"
	OutputName  = "probabilities"
	TableName   = "W"
)

// Metadata keys the trainer writes into ModelProto.metadata_props.
const (
	// MetaLabels is the comma-separated label list, in output order.
	MetaLabels = "hermes.labels"
	// MetaFeaturizer is the digest of the featurizer configuration the
	// model was trained with (feature.Config.Digest).
	MetaFeaturizer = "hermes.featurizer_sha256"
	// MetaFeaturizerDims is the featurizer's dims, in decimal.
	MetaFeaturizerDims = "hermes.featurizer_dims"
	// MetaTrainSHA is the SHA-256 of the train.jsonl the model was fit on.
	MetaTrainSHA = "hermes.train_sha256"
	// MetaTemperature is the calibration temperature, already folded into
	// the weights (informational: never apply it again).
	MetaTemperature = "hermes.temperature"
)

// Linear is a softmax regression: probabilities = softmax(features·W + B),
// the product taken over the sparse features (see IndicesName).
type Linear struct {
	Inputs  int       // D, the featurizer's dims
	Outputs int       // L, the number of labels
	W       []float32 // D×L, row-major
	B       []float32 // L
	// Metadata is stored in ModelProto.metadata_props, sorted by key.
	Metadata map[string]string
	// ProducerVersion names the trainer.
	ProducerVersion string
}

// Encode returns the ONNX ModelProto bytes of m. The encoding is
// deterministic.
func (m Linear) Encode() ([]byte, error) {
	if m.Inputs <= 0 || m.Outputs <= 0 {
		return nil, fmt.Errorf("encode onnx model: bad shape %dx%d", m.Inputs, m.Outputs)
	}
	if len(m.W) != m.Inputs*m.Outputs || len(m.B) != m.Outputs {
		return nil, fmt.Errorf("encode onnx model: weights %d and bias %d do not fit %dx%d", len(m.W), len(m.B), m.Inputs, m.Outputs)
	}
	var g []byte
	// node (1): the sparse product, Add, Softmax.
	g = appendSparseProduct(g, "logits_raw")
	g = appendMsg(g, 1, node("add", "Add", []string{"logits_raw", "B"}, []string{"logits"}, nil))
	g = appendMsg(g, 1, node("softmax", "Softmax", []string{"logits"}, []string{OutputName}, intAttr("axis", -1)))
	// name (2)
	g = protowire.AppendTag(g, 2, protowire.BytesType)
	g = protowire.AppendString(g, "hermes_intent")
	// initializer (5)
	g = appendMsg(g, 5, floatTensor(TableName, []int64{int64(m.Inputs), int64(m.Outputs)}, m.W))
	g = appendMsg(g, 5, floatTensor("B", []int64{int64(m.Outputs)}, m.B))
	g = appendSparseAxes(g)
	// input (11), output (12)
	g = appendSparseInputs(g)
	g = appendMsg(g, 12, valueInfo(OutputName, ElemFloat, []dim{{param: "N"}, {value: int64(m.Outputs)}}))
	return wrap(g, m.ProducerVersion, m.Metadata), nil
}

// MLP is a perceptron with one hidden layer of ReLU units:
// probabilities = softmax(relu(features·W1 + B1)·W2 + B2).
type MLP struct {
	Inputs  int       // D, the featurizer's dims
	Hidden  int       // H, the hidden units
	Outputs int       // L, the number of labels
	W1      []float32 // D×H, row-major
	B1      []float32 // H
	W2      []float32 // H×L, row-major
	B2      []float32 // L
	// Metadata is stored in ModelProto.metadata_props, sorted by key.
	Metadata map[string]string
	// ProducerVersion names the trainer.
	ProducerVersion string
}

// Encode returns the ONNX ModelProto bytes of m (the sparse product with
// W1, Add, Relu, MatMul, Add, Softmax). The encoding is deterministic.
func (m MLP) Encode() ([]byte, error) {
	if m.Inputs <= 0 || m.Hidden <= 0 || m.Outputs <= 0 {
		return nil, fmt.Errorf("encode onnx model: bad shape %dx%dx%d", m.Inputs, m.Hidden, m.Outputs)
	}
	if len(m.W1) != m.Inputs*m.Hidden || len(m.B1) != m.Hidden || len(m.W2) != m.Hidden*m.Outputs || len(m.B2) != m.Outputs {
		return nil, fmt.Errorf("encode onnx model: weights %d, %d, %d, %d do not fit %dx%dx%d", len(m.W1), len(m.B1), len(m.W2), len(m.B2), m.Inputs, m.Hidden, m.Outputs)
	}
	var g []byte
	g = appendSparseProduct(g, "hidden_raw")
	g = appendMsg(g, 1, node("add1", "Add", []string{"hidden_raw", "B1"}, []string{"hidden_pre"}, nil))
	g = appendMsg(g, 1, node("relu", "Relu", []string{"hidden_pre"}, []string{"hidden"}, nil))
	g = appendMsg(g, 1, node("matmul2", "MatMul", []string{"hidden", "W2"}, []string{"logits_raw"}, nil))
	g = appendMsg(g, 1, node("add2", "Add", []string{"logits_raw", "B2"}, []string{"logits"}, nil))
	g = appendMsg(g, 1, node("softmax", "Softmax", []string{"logits"}, []string{OutputName}, intAttr("axis", -1)))
	g = protowire.AppendTag(g, 2, protowire.BytesType)
	g = protowire.AppendString(g, "hermes_intent")
	g = appendMsg(g, 5, floatTensor(TableName, []int64{int64(m.Inputs), int64(m.Hidden)}, m.W1))
	g = appendMsg(g, 5, floatTensor("B1", []int64{int64(m.Hidden)}, m.B1))
	g = appendMsg(g, 5, floatTensor("W2", []int64{int64(m.Hidden), int64(m.Outputs)}, m.W2))
	g = appendMsg(g, 5, floatTensor("B2", []int64{int64(m.Outputs)}, m.B2))
	g = appendSparseAxes(g)
	g = appendSparseInputs(g)
	g = appendMsg(g, 12, valueInfo(OutputName, ElemFloat, []dim{{param: "N"}, {value: int64(m.Outputs)}}))
	return wrap(g, m.ProducerVersion, m.Metadata), nil
}

// appendSparseProduct appends the nodes that compute out [N, width] =
// sum over k of values[n, k] * TableName[indices[n, k], :]: Gather the rows
// [N, K, width], scale each by its value (Unsqueeze to [N, K, 1], Mul) and sum
// over K (ReduceSum, keepdims 0).
func appendSparseProduct(g []byte, out string) []byte {
	g = appendMsg(g, 1, node("gather", "Gather", []string{TableName, IndicesName}, []string{"rows"}, intAttr("axis", 0)))
	g = appendMsg(g, 1, node("unsqueeze", "Unsqueeze", []string{ValuesName, "axis_last"}, []string{"scale"}, nil))
	g = appendMsg(g, 1, node("mul", "Mul", []string{"rows", "scale"}, []string{"scaled"}, nil))
	return appendMsg(g, 1, node("sum", "ReduceSum", []string{"scaled", "axis_k"}, []string{out}, intAttr("keepdims", 0)))
}

// appendSparseAxes appends the axes initializers of appendSparseProduct
// (opset 13 takes Unsqueeze's and ReduceSum's axes as inputs).
func appendSparseAxes(g []byte) []byte {
	g = appendMsg(g, 5, int64Tensor("axis_last", []int64{2}))
	return appendMsg(g, 5, int64Tensor("axis_k", []int64{1}))
}

// appendSparseInputs appends the graph inputs IndicesName and ValuesName,
// both [N, K].
func appendSparseInputs(g []byte) []byte {
	g = appendMsg(g, 11, valueInfo(IndicesName, ElemInt64, []dim{{param: "N"}, {param: "K"}}))
	return appendMsg(g, 11, valueInfo(ValuesName, ElemFloat, []dim{{param: "N"}, {param: "K"}}))
}

// wrap returns the ModelProto around graph g.
func wrap(g []byte, producerVersion string, metadata map[string]string) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType) // ir_version
	b = protowire.AppendVarint(b, IRVersion)
	b = protowire.AppendTag(b, 2, protowire.BytesType) // producer_name
	b = protowire.AppendString(b, "hermes-intent-train")
	if producerVersion != "" {
		b = protowire.AppendTag(b, 3, protowire.BytesType) // producer_version
		b = protowire.AppendString(b, producerVersion)
	}
	b = protowire.AppendTag(b, 5, protowire.VarintType) // model_version
	b = protowire.AppendVarint(b, 1)
	b = appendMsg(b, 7, g) // graph
	var op []byte
	op = protowire.AppendTag(op, 1, protowire.BytesType) // domain ""
	op = protowire.AppendString(op, "")
	op = protowire.AppendTag(op, 2, protowire.VarintType) // version
	op = protowire.AppendVarint(op, Opset)
	b = appendMsg(b, 8, op) // opset_import
	keys := make([]string, 0, len(metadata))
	for k := range metadata {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		var e []byte
		e = protowire.AppendTag(e, 1, protowire.BytesType)
		e = protowire.AppendString(e, k)
		e = protowire.AppendTag(e, 2, protowire.BytesType)
		e = protowire.AppendString(e, metadata[k])
		b = appendMsg(b, 14, e) // metadata_props
	}
	return b
}

func appendMsg(b []byte, num protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}

func node(name, op string, in, out []string, attr []byte) []byte {
	var b []byte
	for _, s := range in {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	for _, s := range out {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendString(b, name)
	b = protowire.AppendTag(b, 4, protowire.BytesType)
	b = protowire.AppendString(b, op)
	if attr != nil {
		b = appendMsg(b, 5, attr)
	}
	return b
}

func intAttr(name string, v int64) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, name)
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(v))
	b = protowire.AppendTag(b, 20, protowire.VarintType)
	b = protowire.AppendVarint(b, attrInt)
	return b
}

func floatTensor(name string, dims []int64, data []float32) []byte {
	var b []byte
	for _, d := range dims {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, ElemFloat)
	b = protowire.AppendTag(b, 8, protowire.BytesType)
	b = protowire.AppendString(b, name)
	raw := make([]byte, 4*len(data))
	for i, f := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(f))
	}
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	b = protowire.AppendBytes(b, raw)
	return b
}

// int64Tensor is a one-dimensional int64 initializer.
func int64Tensor(name string, data []int64) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(len(data)))
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, ElemInt64)
	b = protowire.AppendTag(b, 8, protowire.BytesType)
	b = protowire.AppendString(b, name)
	raw := make([]byte, 8*len(data))
	for i, v := range data {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
	}
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	b = protowire.AppendBytes(b, raw)
	return b
}

type dim struct {
	value int64
	param string
}

func valueInfo(name string, elem int, dims []dim) []byte {
	var shape []byte
	for _, d := range dims {
		var db []byte
		if d.param != "" {
			db = protowire.AppendTag(db, 2, protowire.BytesType)
			db = protowire.AppendString(db, d.param)
		} else {
			db = protowire.AppendTag(db, 1, protowire.VarintType)
			db = protowire.AppendVarint(db, uint64(d.value))
		}
		shape = appendMsg(shape, 1, db)
	}
	var tt []byte
	tt = protowire.AppendTag(tt, 1, protowire.VarintType)
	tt = protowire.AppendVarint(tt, uint64(elem))
	tt = appendMsg(tt, 2, shape)
	var typ []byte
	typ = appendMsg(typ, 1, tt) // tensor_type
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, name)
	b = appendMsg(b, 2, typ)
	return b
}

// Value describes a graph input or output. Dims holds -1 for a symbolic or
// unknown dimension.
type Value struct {
	Name     string
	ElemType int
	Dims     []int64
}

// Info is what Inspect reads from a model.
type Info struct {
	IRVersion int64
	Opsets    map[string]int64
	Inputs    []Value
	Outputs   []Value
	// Initializers holds the dims of each graph initializer, by name.
	Initializers map[string][]int64
	Metadata     map[string]string
}

// ErrMalformed is wrapped by every Inspect error about the bytes themselves.
var ErrMalformed = errors.New("malformed ONNX protobuf")

// Inspect decodes the model's graph inputs, outputs, opsets and metadata.
// Truncated or corrupt bytes give an error wrapping ErrMalformed.
func Inspect(data []byte) (Info, error) {
	info := Info{Opsets: map[string]int64{}, Initializers: map[string][]int64{}, Metadata: map[string]string{}}
	sawGraph := false
	err := fields(data, func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			info.IRVersion = int64(v)
		case num == 7 && typ == protowire.BytesType:
			sawGraph = true
			return fields(b, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
				if typ == protowire.BytesType && num == 5 {
					name, dims, err := readTensorShape(b)
					if err != nil {
						return err
					}
					info.Initializers[name] = dims
					return nil
				}
				if typ != protowire.BytesType || (num != 11 && num != 12) {
					return nil
				}
				val, err := readValueInfo(b)
				if err != nil {
					return err
				}
				if num == 11 {
					info.Inputs = append(info.Inputs, val)
				} else {
					info.Outputs = append(info.Outputs, val)
				}
				return nil
			})
		case num == 8 && typ == protowire.BytesType:
			var domain string
			var version int64
			if err := fields(b, func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error {
				if num == 1 && typ == protowire.BytesType {
					domain = string(b)
				}
				if num == 2 && typ == protowire.VarintType {
					version = int64(v)
				}
				return nil
			}); err != nil {
				return err
			}
			info.Opsets[domain] = version
		case num == 14 && typ == protowire.BytesType:
			var k, val string
			if err := fields(b, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
				if typ == protowire.BytesType && num == 1 {
					k = string(b)
				}
				if typ == protowire.BytesType && num == 2 {
					val = string(b)
				}
				return nil
			}); err != nil {
				return err
			}
			info.Metadata[k] = val
		}
		return nil
	})
	if err != nil {
		return Info{}, err
	}
	if !sawGraph {
		return Info{}, fmt.Errorf("%w: no graph", ErrMalformed)
	}
	return info, nil
}

// readTensorShape reads a TensorProto's name and dims (packed or not),
// skipping its data.
func readTensorShape(b []byte) (string, []int64, error) {
	var name string
	var dims []int64
	err := fields(b, func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			dims = append(dims, int64(v))
		case num == 1 && typ == protowire.BytesType:
			for len(b) > 0 {
				x, n := protowire.ConsumeVarint(b)
				if n < 0 {
					return fmt.Errorf("%w: tensor dims: %v", ErrMalformed, protowire.ParseError(n))
				}
				dims = append(dims, int64(x))
				b = b[n:]
			}
		case num == 8 && typ == protowire.BytesType:
			name = string(b)
		}
		return nil
	})
	return name, dims, err
}

func readValueInfo(b []byte) (Value, error) {
	var v Value
	err := fields(b, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			v.Name = string(b)
		case num == 2 && typ == protowire.BytesType: // TypeProto
			return fields(b, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
				if num != 1 || typ != protowire.BytesType { // tensor_type
					return nil
				}
				return fields(b, func(num protowire.Number, typ protowire.Type, x uint64, b []byte) error {
					switch {
					case num == 1 && typ == protowire.VarintType:
						v.ElemType = int(x)
					case num == 2 && typ == protowire.BytesType: // shape
						return fields(b, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
							if num != 1 || typ != protowire.BytesType {
								return nil
							}
							d := int64(-1)
							if err := fields(b, func(num protowire.Number, typ protowire.Type, x uint64, _ []byte) error {
								if num == 1 && typ == protowire.VarintType {
									d = int64(x)
								}
								return nil
							}); err != nil {
								return err
							}
							v.Dims = append(v.Dims, d)
							return nil
						})
					}
					return nil
				})
			})
		}
		return nil
	})
	return v, err
}

// fields walks the top-level fields of one message. For varints fn gets the
// value in v; for length-delimited fields the bytes in b. Other wire types
// are skipped.
func fields(data []byte, fn func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error) error {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return fmt.Errorf("%w: %v", ErrMalformed, protowire.ParseError(n))
		}
		data = data[n:]
		var v uint64
		var b []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(data)
		case protowire.BytesType:
			b, n = protowire.ConsumeBytes(data)
		default:
			n = protowire.ConsumeFieldValue(num, typ, data)
		}
		if n < 0 {
			return fmt.Errorf("%w: field %d: %v", ErrMalformed, num, protowire.ParseError(n))
		}
		data = data[n:]
		if err := fn(num, typ, v, b); err != nil {
			return err
		}
	}
	return nil
}
