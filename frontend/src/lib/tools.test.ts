import { describe, expect, it, vi } from 'vitest';
import {
  ActivityStore,
  ApprovalStore,
  ToolsStore,
  codeDigits,
  codeIsProblem,
  codeText,
  activityArgs,
  activityEmptyScope,
  approvalReasons,
  latencyText,
  prettyJSON,
  statusIcon,
  statusKey,
  stopKey,
  toToolCall,
  toolNames,
} from './tools.svelte';
import { ConfirmError, type Activity, type ToolInfo } from './backend';
import { annotations } from './tools.fixture';
import { en, format } from './i18n.svelte';

describe('activity filters', () => {
  it('builds the ToolActivity arguments from the filter', () => {
    expect(activityArgs({ tool: '', status: '', currentOnly: false }, 's1')).toEqual(['', '', '', 200]);
    expect(activityArgs({ tool: ' shout ', status: 'denied', currentOnly: false }, 's1')).toEqual([
      'shout',
      'denied',
      '',
      200,
    ]);
    expect(activityArgs({ tool: '', status: 'ok', currentOnly: true }, 's1', 50)).toEqual(['', 'ok', 's1', 50]);
    // An unknown status is no filter rather than a filter that matches nothing.
    expect(activityArgs({ tool: '', status: 'bogus', currentOnly: false }, '')).toEqual(['', '', '', 200]);
    expect(activityArgs({ tool: '', status: '', currentOnly: false }, '', 0)[3]).toBe(1);
  });

  it('knows when "this conversation only" cannot match', () => {
    expect(activityEmptyScope({ tool: '', status: '', currentOnly: true }, '')).toBe(true);
    expect(activityEmptyScope({ tool: '', status: '', currentOnly: true }, 's1')).toBe(false);
    expect(activityEmptyScope({ tool: '', status: '', currentOnly: false }, '')).toBe(false);
  });

  it('lists tool names from the registry, the log and the selection', () => {
    expect(toolNames([{ name: 'shout' }, { name: 'calculator' }], [{ tool: 'gone' }, { tool: 'shout' }], 'picked')).toEqual([
      'calculator',
      'gone',
      'picked',
      'shout',
    ]);
  });
});

describe('tool helpers', () => {
  it('pretty-prints JSON and leaves other text alone', () => {
    expect(prettyJSON('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(prettyJSON({ text: '<b>x</b>' })).toBe('{\n  "text": "<b>x</b>"\n}');
    expect(prettyJSON('{not json')).toBe('{not json');
    expect(prettyJSON('plain')).toBe('plain');
    expect(prettyJSON(null)).toBe('');
    expect(prettyJSON('  ')).toBe('');
  });

  it('names statuses, stop kinds and approval reasons', () => {
    expect(statusKey('denied')).toBe('toolStatus.denied');
    expect(statusKey('weird')).toBe('toolStatus.error');
    expect(statusIcon('ok')).toBe('✓');
    expect(statusIcon('error')).toBe('✕');
    expect(stopKey('max_iterations')).toBe('loop.kind.max_iterations');
    expect(stopKey('new_kind')).toBe('loop.kind.other');
    expect(approvalReasons(annotations({ read_only: true }))).toEqual([]);
    expect(approvalReasons(annotations({ command: true, destructive: true, open_world: true }))).toEqual([
      'approval.why.destructive',
      'approval.why.open_world',
      'approval.why.command',
    ]);
  });

  it('formats latency', () => {
    expect(latencyText(0)).toBe('0 ms');
    expect(latencyText(850)).toBe('850 ms');
    expect(latencyText(1234)).toBe('1.2 s');
    expect(latencyText(12_345)).toBe('12 s');
    expect(latencyText(-1)).toBe('');
  });

  it('reads tool call payloads defensively', () => {
    expect(toToolCall(null)).toBeNull();
    expect(toToolCall({ status: 'ok' })).toBeNull();
    expect(toToolCall({ tool: 't', args: { a: 1 } })).toMatchObject({ tool: 't', args: '{\n  "a": 1\n}', status: 'error', latencyMs: -1 });
  });
});

describe('ApprovalStore', () => {
  function setup() {
    const handlers = new Map<string, (d: unknown) => void>();
    const on = vi.fn((name: string, cb: (d: unknown) => void) => {
      handlers.set(name, cb);
      return () => handlers.delete(name);
    });
    const api = { ResolveApproval: vi.fn(async (_id: string, _allow: boolean, _scope: string) => {}) };
    const store = new ApprovalStore(api);
    const off = store.listen(on);
    const emit = (n: string, d: unknown) => handlers.get(n)?.(d);
    return { store, api, emit, off, handlers };
  }
  const prompt = (id: string) => ({ id, tool: 'shout', description: 'd', args: { text: 'x' }, annotations: { command: true } });

  it('queues prompts, answers the first and closes those answered elsewhere', async () => {
    const h = setup();
    h.emit('approval:needed', prompt('a'));
    h.emit('approval:needed', prompt('a'));
    h.emit('approval:needed', prompt('b'));
    h.emit('approval:needed', { bogus: true });
    expect(h.store.queue.map((p) => p.id)).toEqual(['a', 'b']);
    expect(h.store.current?.id).toBe('a');
    await h.store.answer('a', true, 'session');
    expect(h.api.ResolveApproval).toHaveBeenCalledWith('a', true, 'session');
    expect(h.store.current?.id).toBe('b');
    h.emit('approval:done', { id: 'b' });
    expect(h.store.current).toBeNull();
    h.off();
    expect(h.handlers.size).toBe(0);
  });

  describe('web mode: allowing a tool that runs a program needs the one-time code', () => {
    function webSetup() {
      const h = setup();
      const api = {
        ResolveApproval: vi.fn(async (_id: string, _allow: boolean, _scope: string, _code?: string) => {}),
        needsCode: vi.fn(() => true),
      };
      const store = new ApprovalStore(api);
      store.listen((n, cb) => {
        h.handlers.set(n, cb);
        return () => h.handlers.delete(n);
      });
      return { ...h, api, store };
    }

    it('keeps the prompt open and asks for the code the server printed', async () => {
      const h = webSetup();
      h.emit('approval:needed', prompt('a'));
      expect(h.store.needsCode(h.store.current)).toBe(true);
      h.api.ResolveApproval.mockRejectedValueOnce(new ConfirmError('type it', 'required'));
      await h.store.answer('a', true, 'session');
      expect(h.api.ResolveApproval).toHaveBeenLastCalledWith('a', true, 'session', '');
      expect(h.store.current?.id).toBe('a');
      expect(h.store.code).toEqual({ id: 'a', scope: 'session', reason: 'required', triesLeft: null });
      expect(h.store.error).toBe('');

      h.api.ResolveApproval.mockRejectedValueOnce(new ConfirmError('not right', 'wrong', 2));
      await h.store.answer('a', true, 'session', '000000');
      expect(h.store.code).toEqual({ id: 'a', scope: 'session', reason: 'wrong', triesLeft: 2 });
      expect(h.store.current?.id).toBe('a');

      await h.store.answer('a', true, 'session', '482913');
      expect(h.api.ResolveApproval).toHaveBeenLastCalledWith('a', true, 'session', '482913');
      expect(h.store.current).toBeNull();
      expect(h.store.code).toBeNull();
      expect(h.store.busy).toBe(false);
    });

    it('denies without a code, and closes the code step when the prompt ends elsewhere', async () => {
      const h = webSetup();
      h.emit('approval:needed', prompt('a'));
      h.emit('approval:needed', prompt('b'));
      h.api.ResolveApproval.mockRejectedValueOnce(new ConfirmError('type it', 'required'));
      await h.store.answer('a', true, 'once');
      expect(h.store.code?.id).toBe('a');
      await h.store.answer('a', false, 'once');
      expect(h.api.ResolveApproval).toHaveBeenLastCalledWith('a', false, 'once');
      expect(h.store.code).toBeNull();
      h.api.ResolveApproval.mockRejectedValueOnce(new ConfirmError('type it', 'required'));
      await h.store.answer('b', true, 'once');
      h.emit('approval:done', { id: 'b' });
      expect(h.store.code).toBeNull();
      expect(h.store.queue).toEqual([]);
    });

    it('needs no code for a tool that runs no program, nor in the desktop window', async () => {
      const h = webSetup();
      h.emit('approval:needed', { ...prompt('a'), annotations: { destructive: true } });
      expect(h.store.needsCode(h.store.current)).toBe(false);
      await h.store.answer('a', true, 'once');
      expect(h.api.ResolveApproval).toHaveBeenLastCalledWith('a', true, 'once');
      const desk = setup();
      desk.emit('approval:needed', prompt('c'));
      expect(desk.store.needsCode(desk.store.current)).toBe(false);
    });

    it('reports any other failure and closes the prompt', async () => {
      const h = webSetup();
      h.emit('approval:needed', prompt('a'));
      h.api.ResolveApproval.mockRejectedValueOnce(new Error('no longer waiting'));
      await h.store.answer('a', true, 'once', '123456');
      expect(h.store.error).toBe('no longer waiting');
      expect(h.store.queue).toEqual([]);
      expect(h.store.code).toBeNull();
    });
  });

  it('reports an answer that did not arrive', async () => {
    const h = setup();
    h.api.ResolveApproval.mockRejectedValueOnce(new Error('no longer waiting'));
    h.emit('approval:needed', prompt('a'));
    await h.store.answer('a', false);
    expect(h.api.ResolveApproval).toHaveBeenCalledWith('a', false, 'once');
    expect(h.store.error).toBe('no longer waiting');
    expect(h.store.queue).toEqual([]);
  });
});

describe('one-time code texts', () => {
  const tEn = (k: keyof typeof en, p?: Record<string, string | number>) => format(en[k], p);
  it('says why the server wants a code', () => {
    expect(codeText({ reason: 'required', triesLeft: null }, tEn)).toContain('6-digit code');
    expect(codeText({ reason: 'expired', triesLeft: null }, tEn)).toContain('expired');
    expect(codeText({ reason: 'wrong', triesLeft: 1 }, tEn)).toContain('1 try left');
    expect(codeText({ reason: 'wrong', triesLeft: 2 }, tEn)).toContain('2 tries left');
    expect(codeText({ reason: 'wrong', triesLeft: null }, tEn)).toContain('can no longer be used');
    expect(codeText({ reason: 'locked', triesLeft: null }, tEn)).toContain('locked');
    expect(codeText({ reason: 'busy', triesLeft: null }, tEn)).toContain('Wait a few minutes');
    expect(codeIsProblem({ reason: 'required', triesLeft: null })).toBe(false);
    expect(codeIsProblem({ reason: 'wrong', triesLeft: 2 })).toBe(true);
  });
  it('keeps only the digits typed', () => {
    expect(codeDigits(' 482 913 ')).toBe('482913');
    expect(codeDigits('482-913')).toBe('482913');
    expect(codeDigits('abc')).toBe('');
  });
});

describe('ActivityStore', () => {
  const row = (id: number, tool = 'shout'): Activity => ({
    id,
    requestId: 'r',
    tool,
    arguments: '{}',
    status: 'ok',
    latencyMs: 1,
    createdAt: '2025-01-01T00:00:00Z',
  });

  it('loads rows with the filter and skips the call when no conversation is open', async () => {
    const api = { ToolActivity: vi.fn(async () => [row(2), row(1)]) };
    const s = new ActivityStore(api);
    s.filter.tool = 'shout';
    s.filter.currentOnly = true;
    await s.load('s1');
    expect(api.ToolActivity).toHaveBeenCalledWith('shout', '', 's1', 200);
    expect(s.rows.map((r) => r.id)).toEqual([2, 1]);
    await s.load('');
    expect(api.ToolActivity).toHaveBeenCalledTimes(1);
    expect(s.rows).toEqual([]);
    s.toggle(2);
    expect(s.expanded[2]).toBe(true);
  });

  it('keeps only the newest answer and shows errors', async () => {
    let release!: (v: Activity[]) => void;
    const api = {
      ToolActivity: vi
        .fn()
        .mockImplementationOnce(() => new Promise<Activity[]>((r) => (release = r)))
        .mockResolvedValueOnce([row(9)])
        .mockRejectedValueOnce(new Error('db locked')),
    };
    const s = new ActivityStore(api);
    const first = s.load('');
    await s.load('');
    release([row(1)]);
    await first;
    expect(s.rows.map((r) => r.id)).toEqual([9]);
    await s.load('');
    expect(s.error).toBe('db locked');
    expect(s.loading).toBe(false);
  });
});

describe('ToolsStore', () => {
  const tool = (name: string, p: Partial<ToolInfo> = {}): ToolInfo => ({
    name,
    description: '',
    annotations: annotations(),
    groups: ['task'],
    enabled: true,
    breaker: 'closed',
    ...p,
  });

  it('lists tools sorted, toggles them and resets breakers', async () => {
    const api = {
      ListTools: vi.fn(async () => [tool('shout', { breaker: 'open', openUntil: '2030-01-01T00:00:00Z' }), tool('calculator')]),
      SetToolEnabled: vi.fn(async () => {}),
      ResetBreaker: vi.fn(async () => {}),
    };
    const s = new ToolsStore(api);
    await s.load();
    expect(s.tools.map((t) => t.name)).toEqual(['calculator', 'shout']);
    await s.setEnabled('calculator', false);
    expect(api.SetToolEnabled).toHaveBeenCalledWith('calculator', false);
    await s.reset('shout');
    expect(api.ResetBreaker).toHaveBeenCalledWith('shout');
  });

  it('keeps a per-tool error and reloads on breaker and tools.yaml events', async () => {
    const handlers = new Map<string, (d: unknown) => void>();
    const api = {
      ListTools: vi.fn(async () => [tool('shout')]),
      SetToolEnabled: vi.fn(async () => {
        throw new Error('unknown tool');
      }),
      ResetBreaker: vi.fn(async () => {}),
    };
    const s = new ToolsStore(api);
    s.listen((n, cb) => {
      handlers.set(n, cb);
      return () => handlers.delete(n);
    });
    handlers.get('tool:breaker')?.({ tool: 'shout', from: 'closed', to: 'open' });
    expect(api.ListTools).not.toHaveBeenCalled(); // nothing shown yet
    await s.load();
    await s.setEnabled('shout', false);
    expect(s.errors.shout).toBe('unknown tool');
    expect(s.tools[0].enabled).toBe(true);
    handlers.get('tool:breaker')?.({ tool: 'shout', from: 'closed', to: 'open' });
    expect(api.ListTools).toHaveBeenCalledTimes(2);
    // tools.yaml changed on disk: the list is read again.
    handlers.get('tools:changed')?.(null);
    expect(api.ListTools).toHaveBeenCalledTimes(3);
  });
});

describe('a tool that runs a shell', () => {
  it('gives the shell warning as its own reason', () => {
    expect(approvalReasons(annotations({ command: true, shell: true }))).toEqual(['approval.why.command', 'approval.why.shell']);
    expect(approvalReasons(annotations({ command: true }))).not.toContain('approval.why.shell');
  });
});
