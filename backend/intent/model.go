package intent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"hermes/backend/intent/feature"
	"hermes/backend/intent/onnx"
)

// Files of a model directory.
const (
	ModelFile      = "intent.onnx"
	LabelsFile     = "labels.json"
	FeaturizerFile = "featurizer.json"
)

// modelFiles is a model directory read and checked in Go, before ONNX Runtime
// sees it.
type modelFiles struct {
	onnx   []byte
	fcfg   feature.Config
	labels []string
}

// readModel reads intent.onnx, featurizer.json and labels.json from files
// (named under dir in messages) and checks that they belong together: the graph takes the sparse features
// ("indices" int64 and "values" float32, [N, K]) into a feature table of
// dims rows and gives "probabilities" [N, len(labels)], and the digest and labels the
// trainer recorded in the model match the two JSON files.
func readModel(files fs.FS, dir string) (*modelFiles, error) {
	read := func(name string) ([]byte, string, error) {
		p := filepath.Join(dir, name)
		if b, ok := inPlaceOf(files, name); ok {
			return b, p, nil
		}
		b, err := fs.ReadFile(files, name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, p, fmt.Errorf("load intent model: %w: %s is missing; %s", ErrNoModel, p, ModelHint)
		}
		if err != nil {
			return nil, p, fmt.Errorf("load intent model: %w", err)
		}
		return b, p, nil
	}
	modelBytes, modelPath, err := read(ModelFile)
	if err != nil {
		return nil, err
	}
	fb, fpath, err := read(FeaturizerFile)
	if err != nil {
		return nil, err
	}
	lb, lpath, err := read(LabelsFile)
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("load intent model: %w: %s; %s", ErrBadModel, fmt.Sprintf(format, args...), ModelHint)
	}

	fcfg, err := feature.Parse(fb, fpath)
	if err != nil {
		return nil, bad("%v", err)
	}
	var lj struct {
		Labels []string `json:"labels"`
	}
	if err := json.Unmarshal(lb, &lj); err != nil {
		return nil, bad("%s: %v", lpath, err)
	}
	if len(lj.Labels) < 2 {
		return nil, bad("%s: needs at least two labels", lpath)
	}
	for i, l := range lj.Labels {
		if l == "" || l == Unknown || slices.Contains(lj.Labels[:i], l) {
			return nil, bad("%s: label %q is empty, reserved or repeated", lpath, l)
		}
	}

	info, err := onnx.Inspect(modelBytes)
	if err != nil {
		return nil, bad("%s is not a valid ONNX model (truncated or corrupt?): %v", modelPath, err)
	}
	if len(info.Inputs) != 2 || info.Inputs[0].Name != onnx.IndicesName || info.Inputs[1].Name != onnx.ValuesName {
		return nil, bad("%s: want inputs %q and %q (sparse features), got %s", modelPath, onnx.IndicesName, onnx.ValuesName, describe(info.Inputs))
	}
	if len(info.Outputs) != 1 || info.Outputs[0].Name != onnx.OutputName {
		return nil, bad("%s: want one output %q, got %s", modelPath, onnx.OutputName, describe(info.Outputs))
	}
	idx, val, out := info.Inputs[0], info.Inputs[1], info.Outputs[0]
	if idx.ElemType != onnx.ElemInt64 || val.ElemType != onnx.ElemFloat || out.ElemType != onnx.ElemFloat {
		return nil, bad("%s: input %q must be int64, input %q and output %q float32", modelPath, idx.Name, val.Name, out.Name)
	}
	if len(idx.Dims) != 2 || len(val.Dims) != 2 {
		return nil, bad("%s: inputs %q and %q must have shape [N, K], got %v and %v", modelPath, idx.Name, val.Name, idx.Dims, val.Dims)
	}
	table, ok := info.Initializers[onnx.TableName]
	if !ok || len(table) != 2 || table[0] <= 0 {
		return nil, bad("%s: no feature table %q of shape [dims, width]", modelPath, onnx.TableName)
	}
	if table[0] != int64(fcfg.Dims) {
		return nil, bad("%s expects %d features but %s has dims %d", modelPath, table[0], fpath, fcfg.Dims)
	}
	if len(out.Dims) != 2 || out.Dims[1] != int64(len(lj.Labels)) {
		return nil, bad("%s: output %q has shape %v but %s lists %d labels", modelPath, out.Name, out.Dims, lpath, len(lj.Labels))
	}
	if d, ok := info.Metadata[onnx.MetaFeaturizer]; ok && d != fcfg.Digest() {
		return nil, bad("%s was trained with a different featurizer than %s", modelPath, fpath)
	}
	if l, ok := info.Metadata[onnx.MetaLabels]; ok && l != strings.Join(lj.Labels, ",") {
		return nil, bad("%s was trained with labels %s but %s lists %s", modelPath, l, lpath, strings.Join(lj.Labels, ","))
	}
	return &modelFiles{onnx: modelBytes, fcfg: fcfg, labels: lj.Labels}, nil
}

func describe(vs []onnx.Value) string {
	if len(vs) == 0 {
		return "none"
	}
	var parts []string
	for _, v := range vs {
		parts = append(parts, fmt.Sprintf("%q %v", v.Name, v.Dims))
	}
	return strings.Join(parts, ", ")
}
