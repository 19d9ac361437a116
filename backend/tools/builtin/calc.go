package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"hermes/backend/tools"
)

// Calculator is the calculator tool.
type Calculator struct{}

func (Calculator) Name() string { return "calculator" }
func (Calculator) Description() string {
	return "Evaluate an arithmetic expression exactly as written: + - * / % ^, parentheses, " +
		"sqrt, abs, round(x, digits), min, max, floor, ceil, ln, log10, exp, and the constants pi and e. " +
		"Use it for any arithmetic instead of computing in your head."
}
func (Calculator) Annotations() tools.Annotations { return tools.Annotations{ReadOnly: true} }
func (Calculator) Parameters() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"expression":{"type":"string","minLength":1,"maxLength":1000,
		"description":"the expression, e.g. (17.5 * 3 - 2) / 4 or sqrt(2) ^ 2"}},"required":["expression"],"additionalProperties":false}`)
}
func (Calculator) ResultSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","required":["expression","result"],"properties":{"result":{"type":"number"}}}`)
}

// Execute evaluates the expression.
func (Calculator) Execute(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Expression string `json:"expression"`
	}
	if err := tools.ReadArgs("calculate", args, &in); err != nil {
		return nil, err
	}
	v, err := Eval(in.Expression)
	if err != nil {
		return nil, fmt.Errorf("calculate %q: %w", in.Expression, err)
	}
	return tools.JSONResult("calculate", struct {
		Expression string      `json:"expression"`
		Result     json.Number `json:"result"`
	}{in.Expression, json.Number(formatNumber(v))})
}

// formatNumber writes v without float noise where it is a whole number or nearly so.
func formatNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	// 12 significant digits hide binary rounding (0.1+0.2 -> 0.3) and keep the answer honest.
	s := strconv.FormatFloat(v, 'g', 12, 64)
	f, _ := strconv.ParseFloat(s, 64)
	return strconv.FormatFloat(f, 'g', -1, 64)
}
