//go:build desktop

package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// checkBound is the desktop smoke's look at the window's side of the
// boundary (build/test/desktop-smoke.sh): the page is asked whether every
// method of every bound service (App and the domain services) is a function
// at window.go.app.<service>.<method>, and to call one domain service's read
// (KBList) through Wails' IPC; the answer is printed as "HERMES_BOUND ok" or
// "HERMES_BOUND missing=… call=…".
func checkBound(ctx context.Context, app *App, log io.Writer) {
	want := map[string][]string{}
	for _, svc := range app.boundServices() {
		t := reflect.TypeOf(svc)
		for i := range t.NumMethod() {
			want[t.Elem().Name()] = append(want[t.Elem().Name()], t.Method(i).Name)
		}
	}
	runtime.EventsOnce(ctx, "smoke:bound", func(data ...any) {
		var got struct {
			Missing []string `json:"missing"`
			Call    string   `json:"call"`
		}
		if len(data) == 1 {
			s, _ := data[0].(string)
			_ = json.Unmarshal([]byte(s), &got)
		}
		if len(data) == 1 && len(got.Missing) == 0 && got.Call == "ok" {
			fmt.Fprintln(log, "HERMES_BOUND ok")
			return
		}
		fmt.Fprintf(log, "HERMES_BOUND missing=%v call=%q\n", got.Missing, got.Call)
	})
	names, _ := json.Marshal(want)
	runtime.WindowExecJS(ctx, `(async () => {
  const want = `+string(names)+`, missing = [];
  for (const [s, ms] of Object.entries(want))
    for (const m of ms) if (typeof window.go?.app?.[s]?.[m] !== 'function') missing.push(s + '.' + m);
  let call = 'ok';
  try { await window.go.app.KnowledgeService.KBList(); } catch (e) { call = String(e?.error ?? e); }
  window.runtime.EventsEmit('smoke:bound', JSON.stringify({ missing, call }));
})();`)
}
