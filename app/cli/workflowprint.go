package cli

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"hermes/app"
)

// How the workflow commands print runs: a list, one run with its steps, live progress.

// runSummary is a run without its steps' results and definition (a list row).
type runSummaryRow struct {
	ID         string     `json:"id"`
	Workflow   string     `json:"workflow"`
	Status     string     `json:"status"`
	SessionID  string     `json:"session_id,omitempty"`
	Error      string     `json:"error,omitempty"`
	Done       int        `json:"steps_done"`
	Steps      int        `json:"steps"`
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
}

func runSummary(r app.WorkflowRun) runSummaryRow {
	s := runSummaryRow{ID: r.ID, Workflow: r.Workflow, Status: string(r.Status), SessionID: r.SessionID, Error: r.Error,
		Steps: len(r.Steps), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, FinishedAt: r.FinishedAt}
	for _, st := range r.Steps {
		if st.Status == "done" {
			s.Done++
		}
	}
	return s
}

func printRuns(runs []app.WorkflowRun, g globals, env Env) error {
	if g.json {
		out := make([]runSummaryRow, 0, len(runs))
		for _, r := range runs {
			out = append(out, runSummary(r))
		}
		return printJSON(env.Stdout, out)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "RUN\tWORKFLOW\tSTATUS\tSTEPS\tSTARTED\tERROR")
	resumable := 0
	for _, r := range runs {
		s := runSummary(r)
		e := r.Error
		if rs := []rune(e); len(rs) > 60 {
			e = string(rs[:60]) + "…"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%s\n", r.ID, r.Workflow, r.Status, s.Done, s.Steps,
			r.CreatedAt.Local().Format("2006-01-02 15:04:05"), e)
		if r.Resumable() {
			resumable++
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if resumable > 0 {
		fmt.Fprintf(env.Stderr, "%d run(s) failed or were interrupted: `hermes workflow resume RUN` goes on where one stopped\n", resumable)
	}
	return nil
}

// printRun writes a run and its steps as text.
func printRun(w io.Writer, r app.WorkflowRun) {
	fmt.Fprintf(w, "run %s  workflow %s  %s", r.ID, r.Workflow, r.Status)
	if r.FinishedAt != nil {
		fmt.Fprintf(w, "  %s after it started", r.FinishedAt.Sub(r.CreatedAt).Round(time.Millisecond))
	}
	fmt.Fprintln(w)
	if r.Error != "" {
		fmt.Fprintf(w, "  %s\n", oneLine(errors.New(r.Error)))
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "  PHASE\tSTEP\tTOOL\tSTATUS\tTRIES\tRESULT OR ERROR")
	for _, st := range r.Steps {
		out := st.Error
		if st.Status == "done" {
			out = string(st.Result)
		}
		out = oneLine(errors.New(out))
		if rs := []rune(out); len(rs) > 80 {
			out = string(rs[:80]) + "…"
		}
		status := string(st.Status)
		if st.Interrupted {
			status += " (mid-way)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d\t%s\n", st.PhaseName, st.ID, st.Tool, status, st.Attempts, out)
	}
	tw.Flush()
}

// progress prints a run's changes on stderr, one line each.
type progress struct {
	mu sync.Mutex
	w  io.Writer
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

func (p *progress) event(e app.WorkflowEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Step == "" {
		if e.Status != "running" {
			fmt.Fprintf(p.w, "[%d/%d] run %s %s after %s\n", e.Done, e.Total, e.RunID, e.Status, e.Elapsed.Round(time.Millisecond))
		}
		return
	}
	line := fmt.Sprintf("[%d/%d] %s/%s (%s): %s", e.Done, e.Total, e.PhaseName, e.Step, e.Tool, e.Status)
	switch e.Status {
	case "running":
		if e.Attempt > 1 {
			line += fmt.Sprintf(" (try %d)", e.Attempt)
		}
	case "done":
		line += fmt.Sprintf(" in %s", e.Elapsed.Round(time.Millisecond))
	default:
		if e.Error != "" {
			line += ": " + oneLine(errors.New(e.Error))
		}
		if e.RetryIn > 0 {
			line += fmt.Sprintf(" (trying again in %s)", e.RetryIn)
		}
	}
	fmt.Fprintln(p.w, line)
}

// lockedWriter serialises writes from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
