package onnx

import (
	"errors"
	"slices"
	"testing"
)

func linear() Linear {
	return Linear{
		Inputs: 4, Outputs: 3,
		W:               []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
		B:               []float32{0.5, -0.5, 0},
		Metadata:        map[string]string{MetaLabels: "a,b,c", "z": "last"},
		ProducerVersion: "test",
	}
}

func TestEncodeInspect(t *testing.T) {
	b, err := linear().Encode()
	if err != nil {
		t.Fatal(err)
	}
	info, err := Inspect(b)
	if err != nil {
		t.Fatal(err)
	}
	if info.IRVersion != IRVersion || info.Opsets[""] != Opset {
		t.Fatalf("ir %d opsets %v", info.IRVersion, info.Opsets)
	}
	if len(info.Inputs) != 2 ||
		info.Inputs[0].Name != IndicesName || info.Inputs[0].ElemType != ElemInt64 || !slices.Equal(info.Inputs[0].Dims, []int64{-1, -1}) ||
		info.Inputs[1].Name != ValuesName || info.Inputs[1].ElemType != ElemFloat || !slices.Equal(info.Inputs[1].Dims, []int64{-1, -1}) {
		t.Fatalf("inputs %+v", info.Inputs)
	}
	if !slices.Equal(info.Initializers[TableName], []int64{4, 3}) || !slices.Equal(info.Initializers["B"], []int64{3}) {
		t.Fatalf("initializers %v", info.Initializers)
	}
	if len(info.Outputs) != 1 || info.Outputs[0].Name != OutputName || !slices.Equal(info.Outputs[0].Dims, []int64{-1, 3}) {
		t.Fatalf("outputs %+v", info.Outputs)
	}
	if info.Metadata[MetaLabels] != "a,b,c" || info.Metadata["z"] != "last" {
		t.Fatalf("metadata %v", info.Metadata)
	}
	again, _ := linear().Encode()
	if string(again) != string(b) {
		t.Fatal("encoding is not deterministic")
	}
}

func TestEncodeRejectsBadShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    func(*Linear)
	}{
		{"zero inputs", func(m *Linear) { m.Inputs = 0 }},
		{"short weights", func(m *Linear) { m.W = m.W[:5] }},
		{"long bias", func(m *Linear) { m.B = append(m.B, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := linear()
			tc.m(&m)
			if _, err := m.Encode(); err == nil {
				t.Fatal("Encode accepted a model that does not fit its shape")
			}
		})
	}
}

func TestInspectRejectsDamage(t *testing.T) {
	b, _ := linear().Encode()
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"half", b[:len(b)/2]},
		{"one byte short", b[:len(b)-1]},
		{"garbage", []byte("this is not a model at all, just text\n")},
		{"empty", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Inspect(tc.data); !errors.Is(err, ErrMalformed) {
				t.Fatalf("Inspect = %v, want ErrMalformed", err)
			}
		})
	}
}

func TestMLPSharesTheSparseInputs(t *testing.T) {
	b, err := MLP{
		Inputs: 4, Hidden: 2, Outputs: 3,
		W1: make([]float32, 8), B1: make([]float32, 2), W2: make([]float32, 6), B2: make([]float32, 3),
	}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	info, err := Inspect(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Inputs) != 2 || info.Inputs[0].Name != IndicesName || info.Inputs[1].Name != ValuesName {
		t.Fatalf("inputs %+v", info.Inputs)
	}
	if !slices.Equal(info.Initializers[TableName], []int64{4, 2}) || !slices.Equal(info.Initializers["W2"], []int64{2, 3}) {
		t.Fatalf("initializers %v", info.Initializers)
	}
}
