// Workflow data for the unit tests (shaped as app/workflow.go sends it).
import { vi } from 'vitest';
import type { Workflow, WorkflowInfo, WorkflowRun, WorkflowStatus, WorkflowStepState } from './backend';
import type { WorkflowsApi } from './workflows.svelte';

export const resetPassword: WorkflowInfo = {
  name: 'reset_password',
  description: 'Reset a password after checking the phone number.',
  inputs: {
    type: 'object',
    properties: {
      phone: { type: 'string', title: 'Phone number', description: 'With the country code.', minLength: 3 },
      attempts: { type: 'integer', minimum: 1, maximum: 5 },
      channel: { enum: ['sms', 'voice'] },
      urgent: { type: 'boolean' },
      extra: { type: 'object' },
    },
    required: ['phone', 'channel'],
  },
  deadline: '5m0s',
  tool: 'workflow__reset_password',
  phases: [
    { name: 'pre_check', mode: 'sequence', steps: ['check (check_phone)'] },
    { name: 'action', mode: 'first', steps: ['sms (send_sms)', 'captcha (make_captcha)'] },
    { name: 'post_update', mode: 'sequence', steps: ['verify (verify_code)'] },
  ],
  line: 3,
};

export const noInputs: WorkflowInfo = {
  name: 'tidy',
  description: 'Tidy up.',
  inputs: { type: 'object' },
  deadline: '10m0s',
  tool: 'workflow__tidy',
  phases: [{ name: 'only', mode: 'sequence', steps: ['a (echo)'] }],
  line: 20,
};

const definition: Workflow = {
  name: 'reset_password',
  description: 'Reset a password after checking the phone number.',
  inputs: resetPassword.inputs,
  phases: [
    { name: 'pre_check', mode: 'sequence', steps: [{ id: 'check', tool: 'check_phone', args: {} }] },
    {
      name: 'action',
      mode: 'first',
      steps: [
        { id: 'sms', tool: 'send_sms', args: {} },
        { id: 'captcha', tool: 'make_captcha', args: {}, idempotent: true },
      ],
    },
    { name: 'post_update', mode: 'sequence', steps: [{ id: 'verify', tool: 'verify_code', args: {} }] },
  ],
};

/** A run of reset_password; status and steps as given (the rest pending). */
export function makeRun(
  id: string,
  status: WorkflowStatus,
  steps: Record<string, Partial<WorkflowStepState>> = {},
  extra: Partial<WorkflowRun> = {},
): WorkflowRun {
  const base = [
    { id: 'check', phase: 0, phase_name: 'pre_check', tool: 'check_phone' },
    { id: 'sms', phase: 1, phase_name: 'action', tool: 'send_sms' },
    { id: 'captcha', phase: 1, phase_name: 'action', tool: 'make_captcha' },
    { id: 'verify', phase: 2, phase_name: 'post_update', tool: 'verify_code' },
  ];
  return {
    id,
    workflow: 'reset_password',
    kind: 'declared',
    status,
    inputs: { phone: '555-0100' },
    steps: base.map((b) => ({ status: 'pending', attempts: 0, ...b, ...(steps[b.id] ?? {}) })),
    created_at: '2026-01-02T10:00:00Z',
    updated_at: '2026-01-02T10:00:05Z',
    definition,
    ...extra,
  };
}

export const doneRun = makeRun(
  'wr_aaaaaa000001',
  'done',
  {
    check: { status: 'done', attempts: 1, args: '{"phone":"555-0100"}', result: { ok: true }, started_at: '2026-01-02T10:00:00Z', finished_at: '2026-01-02T10:00:00.400Z' },
    sms: { status: 'done', attempts: 1, result: { code: '1234' }, started_at: '2026-01-02T10:00:01Z', finished_at: '2026-01-02T10:00:02Z' },
    captcha: { status: 'cancelled', attempts: 1, error: 'not needed: step sms finished first' },
    verify: { status: 'done', attempts: 2, result: 'x'.repeat(5000), started_at: '2026-01-02T10:00:02Z', finished_at: '2026-01-02T10:00:04Z' },
  },
  { finished_at: '2026-01-02T10:00:04Z' },
);

/** Failed with sms stopped mid-way (not idempotent): a resume asks first. */
export const interruptedRun = makeRun(
  'wr_bbbbbb000002',
  'interrupted',
  {
    check: { status: 'done', attempts: 1, result: { ok: true } },
    sms: { status: 'cancelled', attempts: 1, interrupted: true, error: 'stopped: the run was interrupted (Hermes is closing)' },
    captcha: { status: 'cancelled', attempts: 1, interrupted: true },
  },
  { error: 'the run was interrupted', created_at: '2026-01-02T11:00:00Z', finished_at: '2026-01-02T11:00:03Z' },
);

export const failedRun = makeRun(
  'wr_cccccc000003',
  'failed',
  {
    check: { status: 'failed', attempts: 1, error: 'exit status 1: number unknown', error_kind: 'error' },
    sms: { status: 'skipped' },
    captcha: { status: 'skipped' },
    verify: { status: 'skipped' },
  },
  { error: 'phase pre_check: step check: exit status 1: number unknown', created_at: '2026-01-02T09:00:00Z', finished_at: '2026-01-02T09:00:01Z' },
);

export function fakeApi(over: Partial<WorkflowsApi> = {}) {
  const api = {
    ListWorkflows: vi.fn(async () => [resetPassword, noInputs]),
    WorkflowProblems: vi.fn(async () => [
      '/data/workflows.yaml:14: workflow broken: phase p: step s: tool: unknown tool "nope" (see `hermes tools list`)',
    ]),
    WorkflowRuns: vi.fn(async () => [interruptedRun, doneRun, failedRun]),
    GetWorkflowRun: vi.fn(async (id: string) => {
      const r = [doneRun, interruptedRun, failedRun].find((x) => x.id === id);
      if (!r) throw new Error(`no such workflow run ${id}`);
      return structuredClone(r);
    }),
    RunWorkflow: vi.fn(async () => structuredClone(doneRun)),
    ResumeWorkflow: vi.fn(async (id: string): Promise<WorkflowRun> => ({ ...structuredClone(interruptedRun), id, status: 'done' })),
    CancelWorkflow: vi.fn(async (id: string): Promise<WorkflowRun> => ({ ...structuredClone(interruptedRun), id, status: 'cancelled' })),
  };
  return Object.assign(api, over) as typeof api;
}
