package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"hermes/backend/tools"
)

// Converter is the convert_units tool.
type Converter struct{}

func (Converter) Name() string { return "convert_units" }
func (Converter) Description() string {
	return "Convert a value between units of length, mass, temperature, volume, speed or data size " +
		"(e.g. km to mi, lb to kg, °F to °C, gal to L, mph to km/h, GiB to MB)."
}
func (Converter) Annotations() tools.Annotations { return tools.Annotations{ReadOnly: true} }
func (Converter) Parameters() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{
		"value":{"type":"number","description":"the amount to convert"},
		"from":{"type":"string","minLength":1,"maxLength":32,"description":"the unit of value, e.g. km, lb, F, L, mph, GiB"},
		"to":{"type":"string","minLength":1,"maxLength":32,"description":"the unit wanted"}},
		"required":["value","from","to"],"additionalProperties":false}`)
}
func (Converter) ResultSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","required":["value","from","to","result","category"]}`)
}

// unit is a unit of one quantity: base = value*factor + offset.
type unit struct {
	category string
	name     string // canonical symbol
	factor   float64
	offset   float64
}

// units maps every accepted spelling to its unit. Built per call: no shared state.
func units() map[string]unit {
	m := map[string]unit{}
	add := func(category, name string, factor, offset float64, aliases ...string) {
		u := unit{category, name, factor, offset}
		for _, a := range append([]string{name}, aliases...) {
			m[a] = u
		}
	}
	// length, base metre
	add("length", "m", 1, 0, "meter", "meters", "metre", "metres", "米")
	add("length", "km", 1000, 0, "kilometer", "kilometers", "kilometre", "kilometres", "公里", "千米")
	add("length", "cm", 0.01, 0, "centimeter", "centimeters", "centimetre", "centimetres", "厘米")
	add("length", "mm", 0.001, 0, "millimeter", "millimeters", "millimetre", "millimetres", "毫米")
	add("length", "µm", 1e-6, 0, "um", "micrometer", "micrometers", "micron", "microns")
	add("length", "mi", 1609.344, 0, "mile", "miles", "英里")
	add("length", "yd", 0.9144, 0, "yard", "yards")
	add("length", "ft", 0.3048, 0, "foot", "feet", "'", "英尺")
	add("length", "in", 0.0254, 0, "inch", "inches", "\"", "英寸")
	add("length", "nmi", 1852, 0, "nautical mile", "nautical miles")
	// mass, base kilogram
	add("mass", "kg", 1, 0, "kilogram", "kilograms", "kilo", "kilos", "公斤", "千克")
	add("mass", "g", 0.001, 0, "gram", "grams", "克")
	add("mass", "mg", 1e-6, 0, "milligram", "milligrams", "毫克")
	add("mass", "t", 1000, 0, "tonne", "tonnes", "metric ton", "metric tons", "吨")
	add("mass", "lb", 0.45359237, 0, "lbs", "pound", "pounds", "磅")
	add("mass", "oz", 0.028349523125, 0, "ounce", "ounces", "盎司")
	add("mass", "st", 6.35029318, 0, "stone", "stones")
	add("mass", "斤", 0.5, 0, "jin")
	// temperature, base kelvin
	add("temperature", "K", 1, 0, "kelvin", "kelvins")
	add("temperature", "°C", 1, 273.15, "C", "celsius", "degC", "摄氏度")
	add("temperature", "°F", 5.0/9, 273.15-32*5.0/9, "F", "fahrenheit", "degF", "华氏度")
	// volume, base litre
	add("volume", "L", 1, 0, "l", "liter", "liters", "litre", "litres", "升")
	add("volume", "mL", 0.001, 0, "ml", "milliliter", "milliliters", "millilitre", "millilitres", "毫升")
	add("volume", "m³", 1000, 0, "m3", "cubic meter", "cubic meters", "cubic metre", "cubic metres")
	add("volume", "gal", 3.785411784, 0, "gallon", "gallons", "us gallon", "us gallons")
	add("volume", "imp gal", 4.54609, 0, "imperial gallon", "imperial gallons")
	add("volume", "qt", 0.946352946, 0, "quart", "quarts")
	add("volume", "pt", 0.473176473, 0, "pint", "pints")
	add("volume", "cup", 0.2365882365, 0, "cups")
	add("volume", "fl oz", 0.0295735295625, 0, "floz", "fluid ounce", "fluid ounces")
	add("volume", "tbsp", 0.01478676478125, 0, "tablespoon", "tablespoons")
	add("volume", "tsp", 0.00492892159375, 0, "teaspoon", "teaspoons")
	// speed, base metre per second
	add("speed", "m/s", 1, 0, "mps", "meters per second", "metres per second")
	add("speed", "km/h", 1/3.6, 0, "kmh", "kph", "kmph", "kilometers per hour", "kilometres per hour")
	add("speed", "mph", 0.44704, 0, "mi/h", "miles per hour")
	add("speed", "kn", 1852/3600.0, 0, "knot", "knots", "kt")
	add("speed", "ft/s", 0.3048, 0, "fps", "feet per second")
	// data size, base byte; decimal (kB, MB) and binary (KiB, MiB) prefixes
	add("data size", "B", 1, 0, "byte", "bytes")
	add("data size", "bit", 0.125, 0, "bits")
	for i, p := range []string{"k", "M", "G", "T", "P"} {
		dec, bin := math.Pow(1000, float64(i+1)), math.Pow(1024, float64(i+1))
		long := []string{"kilo", "mega", "giga", "tera", "peta"}[i]
		binLong := []string{"kibi", "mebi", "gibi", "tebi", "pebi"}[i]
		up := strings.ToUpper(p)
		add("data size", p+"B", dec, 0, up+"B", long+"byte", long+"bytes")
		add("data size", up+"iB", bin, 0, binLong+"byte", binLong+"bytes")
		add("data size", p+"bit", dec/8, 0, up+"bit", long+"bit", long+"bits")
	}
	return m
}

// lookup finds a unit by its spelling, exactly first, then ignoring case and a
// trailing period where that is unambiguous.
func lookup(all map[string]unit, s string) (unit, bool) {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if u, ok := all[s]; ok {
		return u, true
	}
	var found []unit
	for k, u := range all {
		if strings.EqualFold(k, s) {
			found = append(found, u)
		}
	}
	if len(found) == 0 {
		return unit{}, false
	}
	for _, u := range found[1:] {
		if u != found[0] {
			return unit{}, false // e.g. "mb": megabyte or megabit
		}
	}
	return found[0], true
}

// Execute converts.
func (Converter) Execute(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Value float64 `json:"value"`
		From  string  `json:"from"`
		To    string  `json:"to"`
	}
	if err := tools.ReadArgs("convert units", args, &in); err != nil {
		return nil, err
	}
	r, err := Convert(in.Value, in.From, in.To)
	if err != nil {
		return nil, err
	}
	return tools.JSONResult("convert units", r)
}

// Conversion is a converted value.
type Conversion struct {
	Value    float64     `json:"value"`
	From     string      `json:"from"`
	To       string      `json:"to"`
	Result   json.Number `json:"result"`
	Category string      `json:"category"`
}

// Convert converts value from one unit to another of the same quantity.
func Convert(value float64, from, to string) (Conversion, error) {
	all := units()
	f, ok := lookup(all, from)
	if !ok {
		return Conversion{}, fmt.Errorf("convert units: unknown unit %q; %s", from, known(all, ""))
	}
	t, ok := lookup(all, to)
	if !ok {
		return Conversion{}, fmt.Errorf("convert units: unknown unit %q; %s", to, known(all, f.category))
	}
	if f.category != t.category {
		return Conversion{}, fmt.Errorf("convert units: cannot convert %s (%s) to %s (%s)", f.category, f.name, t.category, t.name)
	}
	base := value*f.factor + f.offset
	if f.category == "temperature" && base < 0 {
		return Conversion{}, fmt.Errorf("convert units: %g %s is below absolute zero", value, f.name)
	}
	res := (base - t.offset) / t.factor
	if math.IsInf(res, 0) || math.IsNaN(res) {
		return Conversion{}, fmt.Errorf("convert units: the result is too large")
	}
	return Conversion{Value: value, From: f.name, To: t.name, Result: json.Number(formatNumber(res)), Category: f.category}, nil
}

// known lists the canonical units, of one category or all, for an error message.
func known(all map[string]unit, category string) string {
	byCat := map[string][]string{}
	seen := map[string]bool{}
	for _, u := range all {
		if (category == "" || u.category == category) && !seen[u.name] {
			seen[u.name] = true
			byCat[u.category] = append(byCat[u.category], u.name)
		}
	}
	var cats []string
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var parts []string
	for _, c := range cats {
		sort.Strings(byCat[c])
		parts = append(parts, c+": "+strings.Join(byCat[c], ", "))
	}
	return "known units — " + strings.Join(parts, "; ")
}
