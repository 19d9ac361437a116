package workflow

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hermes/backend/procid"
	"hermes/backend/store"
)

// snapshots keeps runs and their steps in SQLite; every change is one short
// transaction.
type snapshots struct {
	db *store.DB
}

const timeFormat = time.RFC3339Nano

func stamp(t time.Time) string { return t.UTC().Format(timeFormat) }

func stampPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return stamp(*t)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// create writes a new run and its steps, pending (or done: see StartOptions.Reuse).
func (s snapshots) create(ctx context.Context, r *Run, owner string) error {
	def, err := json.Marshal(r.Definition)
	if err != nil {
		return fmt.Errorf("create workflow run: encode definition: %w", err)
	}
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO workflow_runs(id, workflow, kind, session_id, status, inputs, definition, owner,
			created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.Workflow, r.Kind, nullable(r.SessionID), string(r.Status), string(r.Inputs), string(def), owner,
			stamp(r.CreatedAt), stamp(r.UpdatedAt)); err != nil {
			return fmt.Errorf("create workflow run: %w", err)
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO workflow_steps(run_id, step_id, position, phase, phase_name, tool, status)
			VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("create workflow run: %w", err)
		}
		defer stmt.Close()
		for i, st := range r.Steps {
			if _, err := stmt.ExecContext(ctx, r.ID, st.ID, i, st.Phase, st.PhaseName, st.Tool, string(st.Status)); err != nil {
				return fmt.Errorf("create workflow run: step %s: %w", st.ID, err)
			}
			if st.Status != StepPending { // kept from an earlier run: its result and times too
				up, err := s.db.TxStmt(ctx, tx, updateStepSQL)
				if err == nil {
					err = execStep(ctx, up, r.ID, &st)
				}
				if err != nil {
					return fmt.Errorf("create workflow run: step %s: %w", st.ID, err)
				}
			}
		}
		return nil
	})
}

const updateStepSQL = `UPDATE workflow_steps SET status = ?, attempts = ?, args = ?, result = ?, error = ?, error_kind = ?,
	interrupted = ?, started_at = ?, finished_at = ? WHERE run_id = ? AND step_id = ?`

const touchRunSQL = `UPDATE workflow_runs SET updated_at = ? WHERE id = ?`

func execStep(ctx context.Context, stmt *sql.Stmt, runID string, st *StepState) error {
	var result any
	if len(st.Result) > 0 {
		result = string(st.Result)
	}
	_, err := stmt.ExecContext(ctx, string(st.Status), st.Attempts, st.Args, result, st.Error, st.ErrorKind, st.Interrupted,
		stampPtr(st.StartedAt), stampPtr(st.FinishedAt), runID, st.ID)
	return err
}

// saveStep commits one step's state.
func (s snapshots) saveStep(ctx context.Context, runID string, st StepState, at time.Time) error {
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		up, err := s.db.TxStmt(ctx, tx, updateStepSQL)
		if err != nil {
			return err
		}
		if err := execStep(ctx, up, runID, &st); err != nil {
			return err
		}
		touch, err := s.db.TxStmt(ctx, tx, touchRunSQL)
		if err != nil {
			return err
		}
		_, err = touch.ExecContext(ctx, stamp(at), runID)
		return err
	})
	if err != nil {
		return fmt.Errorf("save workflow step %s of run %s: %w", st.ID, runID, err)
	}
	return nil
}

// finish commits the run's status and the given steps together.
func (s snapshots) finish(ctx context.Context, r *Run, steps []StepState) error {
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if len(steps) > 0 {
			up, err := s.db.TxStmt(ctx, tx, updateStepSQL)
			if err != nil {
				return err
			}
			for i := range steps {
				if err := execStep(ctx, up, r.ID, &steps[i]); err != nil {
					return err
				}
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE workflow_runs SET status = ?, error = ?, updated_at = ?, finished_at = ?,
			cancel_requested = 0 WHERE id = ?`, string(r.Status), r.Error, stamp(r.UpdatedAt), stampPtr(r.FinishedAt), r.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("save workflow run %s: %w", r.ID, err)
	}
	return nil
}

// claim makes a resumable run this process's running run; false when another
// process got there first or the run is not resumable any more.
func (s snapshots) claim(ctx context.Context, id, owner string, at time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE workflow_runs SET status = 'running', owner = ?, error = '', cancel_requested = 0,
		updated_at = ?, finished_at = NULL WHERE id = ? AND status IN ('failed', 'interrupted')`, owner, stamp(at), id)
	if err != nil {
		return false, fmt.Errorf("resume workflow run %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// cancelRequested reports whether another process asked to cancel the run.
func (s snapshots) cancelRequested(ctx context.Context, id string) bool {
	stmt, err := s.db.Stmt(ctx, `SELECT cancel_requested FROM workflow_runs WHERE id = ?`)
	if err != nil {
		return false
	}
	var v int
	return stmt.QueryRowContext(ctx, id).Scan(&v) == nil && v == 1
}

func (s snapshots) requestCancel(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE workflow_runs SET cancel_requested = 1 WHERE id = ? AND status = 'running'`, id); err != nil {
		return fmt.Errorf("cancel workflow run %s: %w", id, err)
	}
	return nil
}

const runColumns = `id, workflow, kind, COALESCE(session_id, ''), status, inputs, error, created_at, updated_at, finished_at`

type scanner interface{ Scan(dest ...any) error }

func scanRun(sc scanner, owner *string, def *string) (Run, error) {
	var r Run
	var status, inputs, created, updated string
	var finished sql.NullString
	dest := []any{&r.ID, &r.Workflow, &r.Kind, &r.SessionID, &status, &inputs, &r.Error, &created, &updated, &finished}
	if owner != nil {
		dest = append(dest, owner)
	}
	if def != nil {
		dest = append(dest, def)
	}
	if err := sc.Scan(dest...); err != nil {
		return r, err
	}
	r.Status, r.Inputs = Status(status), json.RawMessage(inputs)
	r.CreatedAt, _ = time.Parse(timeFormat, created)
	r.UpdatedAt, _ = time.Parse(timeFormat, updated)
	if finished.Valid {
		t, _ := time.Parse(timeFormat, finished.String)
		r.FinishedAt = &t
	}
	return r, nil
}

// get reads a run with its steps and definition; owner is the process that
// last ran it.
func (s snapshots) get(ctx context.Context, id string) (Run, string, error) {
	var owner, def string
	row := s.db.QueryRowContext(ctx, `SELECT `+runColumns+`, owner, definition FROM workflow_runs WHERE id = ?`, id)
	r, err := scanRun(row, &owner, &def)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, "", kindErrorf(ErrNotFound, "there is no workflow run %q (see `hermes workflow runs`)", id)
	}
	if err != nil {
		return Run{}, "", fmt.Errorf("read workflow run %s: %w", id, err)
	}
	r.Definition = &Workflow{}
	if err := json.Unmarshal([]byte(def), r.Definition); err != nil {
		return Run{}, "", fmt.Errorf("read workflow run %s: its definition: %w", id, err)
	}
	steps, err := s.steps(ctx, []string{id})
	if err != nil {
		return Run{}, "", err
	}
	r.Steps = steps[id]
	return r, owner, nil
}

// steps reads the steps of runs, in definition order.
func (s snapshots) steps(ctx context.Context, ids []string) (map[string][]StepState, error) {
	out := map[string][]StepState{}
	if len(ids) == 0 {
		return out, nil
	}
	q := `SELECT run_id, step_id, phase, phase_name, tool, status, attempts, args, result, error, error_kind, interrupted,
		started_at, finished_at FROM workflow_steps WHERE run_id IN (?` + strings.Repeat(",?", len(ids)-1) + `) ORDER BY run_id, position`
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read workflow steps: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var runID, status string
		var st StepState
		var result, started, finished sql.NullString
		if err := rows.Scan(&runID, &st.ID, &st.Phase, &st.PhaseName, &st.Tool, &status, &st.Attempts, &st.Args, &result,
			&st.Error, &st.ErrorKind, &st.Interrupted, &started, &finished); err != nil {
			return nil, fmt.Errorf("read workflow steps: %w", err)
		}
		st.Status = StepStatus(status)
		if result.Valid {
			st.Result = json.RawMessage(result.String)
		}
		st.StartedAt, st.FinishedAt = parseTime(started), parseTime(finished)
		out[runID] = append(out[runID], st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read workflow steps: %w", err)
	}
	return out, nil
}

func parseTime(s sql.NullString) *time.Time {
	if !s.Valid {
		return nil
	}
	t, err := time.Parse(timeFormat, s.String)
	if err != nil {
		return nil
	}
	return &t
}

// Filter selects runs; zero fields match all.
type Filter struct {
	SessionID string
	Status    Status
	Limit     int // default 50, at most 1000
}

// list returns runs, newest first, with their steps.
func (s snapshots) list(ctx context.Context, f Filter) ([]Run, error) {
	var where []string
	var args []any
	if f.SessionID != "" {
		where, args = append(where, "session_id = ?"), append(args, f.SessionID)
	}
	if f.Status != "" {
		where, args = append(where, "status = ?"), append(args, string(f.Status))
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	q := `SELECT ` + runColumns + ` FROM workflow_runs`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += ` ORDER BY created_at DESC, rowid DESC LIMIT ?`
	args = append(args, min(limit, 1000))
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list workflow runs: %w", err)
	}
	var out []Run
	var ids []string
	for rows.Next() {
		r, err := scanRun(rows, nil, nil)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("list workflow runs: %w", err)
		}
		out = append(out, r)
		ids = append(ids, r.ID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list workflow runs: %w", err)
	}
	steps, err := s.steps(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Steps = steps[out[i].ID]
		if out[i].Steps == nil {
			out[i].Steps = []StepState{}
		}
	}
	return out, nil
}

// interruptDead marks the running runs whose process is gone as interrupted.
func (s snapshots) interruptDead(ctx context.Context, self string, at time.Time) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, owner FROM workflow_runs WHERE status = 'running'`)
	if err != nil {
		return nil, fmt.Errorf("find interrupted workflow runs: %w", err)
	}
	var dead []string
	for rows.Next() {
		var id, owner string
		if err := rows.Scan(&id, &owner); err != nil {
			rows.Close()
			return nil, fmt.Errorf("find interrupted workflow runs: %w", err)
		}
		if owner != self && !ownerAlive(owner) {
			dead = append(dead, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find interrupted workflow runs: %w", err)
	}
	for _, id := range dead {
		if _, err := s.db.ExecContext(ctx, `UPDATE workflow_runs SET status = 'interrupted', error = ?, updated_at = ?,
			cancel_requested = 0 WHERE id = ? AND status = 'running'`, interruptedMessage, stamp(at), id); err != nil {
			return nil, fmt.Errorf("mark workflow run %s interrupted: %w", id, err)
		}
	}
	return dead, nil
}

const interruptedMessage = "the process running it stopped (closed, killed or crashed); resume it to go on"

func ownerAlive(owner string) bool {
	id, ok := procid.Parse(owner)
	return ok && id.Alive()
}
