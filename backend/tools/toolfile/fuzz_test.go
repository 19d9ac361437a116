package toolfile

import (
	"errors"
	"testing"
)

// FuzzParse feeds arbitrary text as tools.yaml: parsing never panics, every
// problem is an *Error, and a loaded tool has a name and a schema.
func FuzzParse(f *testing.F) {
	f.Add([]byte(validFile))
	f.Add([]byte("tools:\n  - &a {name: t, description: d, parameters: {type: object}, command: {argv: [echo]}}\n  - *a\n"))
	f.Add([]byte("tools:\n  - name: t\n    <<: {description: d}\n"))
	f.Add([]byte("tools: [[], {}, null, 1, {name: {x: y}}]\n"))
	f.Add([]byte("tools:\n  - name: t\n    description: d\n    parameters: {type: object, properties: {1: {type: string}}}\n    http: {url: 'http://[::1]:80/{{1}}'}\n"))
	opts := fakeEnv(map[string]string{"SET": "x"})
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, errs := Parse("tools.yaml", data, opts)
		for _, err := range errs {
			var e *Error
			if !errors.As(err, &e) || e.Error() == "" {
				t.Fatalf("error %T %v", err, err)
			}
		}
		for _, tool := range ts {
			if tool.Name() == "" || len(tool.Parameters()) == 0 || tool.run == nil {
				t.Fatalf("incomplete tool %+v", tool)
			}
		}
	})
}
