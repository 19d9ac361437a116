import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import ConnectionForm from './ConnectionForm.svelte';
import type { OllamaCheck } from '../lib/backend';
import { checkLine } from '../lib/connection';
import { locale, t } from '../lib/i18n.svelte';

function result(over: Partial<OllamaCheck> = {}): OllamaCheck {
  return { host: 'http://192.168.1.5:11434', ok: true, version: '0.17.4', models: 3, remote: true, saved: false, code: '', params: null, problem: '', warning: '', ...over };
}

describe('ConnectionForm', () => {
  it('labels the field, checks an address and says what it found', async () => {
    const check = vi.fn(async () => result());
    const use = vi.fn(async () => result({ saved: true }));
    const r = render(ConnectionForm, { current: 'http://127.0.0.1:11434', testid: 'c', check, use });
    const input = r.getByLabelText('Ollama address') as HTMLInputElement;
    expect(input.value).toBe('http://127.0.0.1:11434');
    expect(input.getAttribute('aria-describedby')).toContain('-help');
    await fireEvent.input(input, { target: { value: '192.168.1.5' } });
    await fireEvent.click(r.getByTestId('c-check'));
    expect(check).toHaveBeenCalledWith('192.168.1.5');
    await waitFor(() => expect(r.getByTestId('c-result').textContent?.trim()).toBe('Ollama 0.17.4 at http://192.168.1.5:11434 · 3 models'));
    expect(use).not.toHaveBeenCalled();
    expect(r.queryByTestId('c-saved')).toBeNull();
  });

  it('saves with Check and use, and tells the parent', async () => {
    const onused = vi.fn();
    const use = vi.fn(async () => result({ saved: true }));
    const r = render(ConnectionForm, { current: '', testid: 'c', check: vi.fn(), use, onused });
    await fireEvent.input(r.getByTestId('c-url'), { target: { value: '192.168.1.5:11434' } });
    await fireEvent.submit(r.getByTestId('c'));
    expect(use).toHaveBeenCalledWith('192.168.1.5:11434', false);
    await waitFor(() => expect(r.getByTestId('c-saved').textContent).toContain('Hermes now uses http://192.168.1.5:11434'));
    expect(onused).toHaveBeenCalledTimes(1);
    expect((r.getByTestId('c-url') as HTMLInputElement).value).toBe('http://192.168.1.5:11434');
  });

  it('offers Use it anyway only when nothing answers, never for a refused address', async () => {
    const use = vi
      .fn()
      .mockResolvedValueOnce(result({ ok: false, code: 'no_answer', params: { host: 'http://10.0.0.9:11434' }, host: 'http://10.0.0.9:11434' }))
      .mockResolvedValueOnce(result({ ok: false, code: 'no_answer', saved: true, host: 'http://10.0.0.9:11434' }));
    const r = render(ConnectionForm, { current: '', testid: 'c', check: vi.fn(), use });
    await fireEvent.input(r.getByTestId('c-url'), { target: { value: '10.0.0.9' } });
    await fireEvent.submit(r.getByTestId('c'));
    await waitFor(() => expect(r.getByTestId('c-result').dataset.code).toBe('no_answer'));
    expect(r.getByTestId('c-result').textContent).toContain('Nothing answers at http://10.0.0.9:11434');
    expect((r.getByTestId('c-url') as HTMLInputElement).getAttribute('aria-invalid')).toBe('true');
    await fireEvent.click(r.getByTestId('c-anyway'));
    expect(use).toHaveBeenLastCalledWith('10.0.0.9', true);
    await waitFor(() => expect(r.getByTestId('c-saved').textContent).toContain('once Ollama answers there'));

    const refused = vi.fn(async () => result({ ok: false, code: 'needs_internet', host: 'http://8.8.8.8:11434' }));
    const r2 = render(ConnectionForm, { current: '', testid: 'd', check: vi.fn(), use: refused });
    await fireEvent.input(r2.getByTestId('d-url'), { target: { value: '8.8.8.8' } });
    await fireEvent.submit(r2.getByTestId('d'));
    await waitFor(() => expect(r2.getByTestId('d-result').dataset.code).toBe('needs_internet'));
    expect(r2.queryByTestId('d-anyway')).toBeNull();
  });

  it('words every problem code in both languages, the plain-http warning too', () => {
    for (const lang of ['en', 'zh'] as const) {
      locale.lang = lang;
      for (const code of ['bad_url', 'never', 'needs_internet', 'offline', 'no_answer', 'not_ollama', 'error']) {
        const line = checkLine(result({ ok: false, code, params: { host: 'http://h:1', value: 'x', detail: 'd' } }), t);
        expect(line, `${lang} ${code}`).not.toMatch(/\{|conn\.problem/);
      }
      expect(checkLine(result({ models: 1 }), t)).not.toContain('{');
    }
    locale.lang = 'en';
    expect(checkLine(result({ models: 1 }), t)).toBe('Ollama 0.17.4 at http://192.168.1.5:11434 · 1 model');
    expect(checkLine(result({ ok: false, code: 'odd', problem: 'English words' }), t)).toBe('English words');
  });
});
