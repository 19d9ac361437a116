import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/svelte';
import ContextInspector from './ContextInspector.svelte';
import type { ContextReport } from '../lib/backend';
import { setLang } from '../lib/i18n.svelte';

afterEach(() => setLang('en'));

const base: ContextReport = {
  sessionId: 's1',
  tokens: 100,
  budget: 3072,
  dropped: 0,
  intent: 'question',
  plan: { intent: 'question', confidence: 0.9, recall: false, recallK: 0, mayWriteMemory: false, toolGroup: 'none' },
  items: [{ reason: 'system', role: 'system', preview: 'You are a pirate.', tokens: 10 }],
};

describe('ContextInspector chat settings', () => {
  it('shows the chat’s own system prompt, model, temperature and context size', () => {
    const r = render(ContextInspector, {
      report: { ...base, settings: { system: 'You are a pirate.', custom: true, model: 'qwen2.5', temperature: 0.3, numCtx: 4096 } },
      sessionId: 's1',
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    expect(r.getByTestId('context-settings-model').textContent).toBe('qwen2.5');
    expect(r.getByTestId('context-settings-temperature').textContent).toBe('0.3');
    expect(r.getByTestId('context-settings-context').textContent).toBe('4096');
    expect(r.getByTestId('context-settings-system').textContent).toBe('You are a pirate.');
    expect(r.getByTestId('context-settings-source').textContent).toContain('this chat');
  });

  it('says when the defaults were used, in Chinese too', () => {
    setLang('zh');
    const r = render(ContextInspector, {
      report: { ...base, settings: { system: 'You are Hermes.', custom: false, model: 'llama3.2', temperature: null, numCtx: 8192 } },
      sessionId: 's1',
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    expect(r.getByTestId('context-settings-temperature').textContent).toBe('模型默认');
    expect(r.getByTestId('context-settings-source').textContent).toContain('默认');
    expect(r.getByTestId('context-settings').getAttribute('aria-label')).toBe('生效的设置');
  });

  it('shows nothing for a report without settings (an older backend)', () => {
    const r = render(ContextInspector, { report: base, sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn() });
    expect(r.queryByTestId('context-settings')).toBeNull();
  });
});
