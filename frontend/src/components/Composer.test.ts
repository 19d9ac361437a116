import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import Composer from './Composer.svelte';

describe('Composer long input', () => {
  const meter = { budget: 1000, used: 300, contextSize: 2048, model: 'llama3.2', maxMessageBytes: 256 * 1024 };

  it('shows what the next turn uses of the context, growing with the draft', async () => {
    const { getByTestId, rerender } = render(Composer, { value: 'hello there', streaming: false, onsend: vi.fn(), onstop: vi.fn(), meter });
    const m = getByTestId('context-meter');
    expect(m.textContent).toContain('≈ 303 / 1000 tokens');
    expect(m.classList.contains('over')).toBe(false);
    await rerender({ value: 'x'.repeat(3000) });
    expect(getByTestId('context-meter').textContent).toContain('≈ 1050 / 1000 tokens');
    expect(getByTestId('context-meter').classList.contains('over')).toBe(true);
  });

  it('offers a long paste as a document before it lands in the message', async () => {
    const onattachtext = vi.fn();
    const { getByTestId, queryByTestId } = render(Composer, { value: '', streaming: false, onsend: vi.fn(), onstop: vi.fn(), meter, onattachtext });
    const ta = getByTestId('composer') as HTMLTextAreaElement;
    const long = 'The pump manual, chapter one. '.repeat(200);
    await fireEvent.paste(ta, { clipboardData: { files: [], getData: (type: string) => (type === 'text/plain' ? long : '') } });
    const offer = getByTestId('long-input-offer');
    expect(offer.dataset.kind).toBe('paste');
    expect(offer.textContent).toContain('about 1500 tokens; about 700 fit');
    expect(ta.value).toBe('');
    await fireEvent.click(getByTestId('long-input-attach'));
    expect(onattachtext).toHaveBeenCalledWith(long);
    expect(queryByTestId('long-input-offer')).toBeNull();
  });

  it('asks before sending a draft that would be shortened, and sends it when told to', async () => {
    const onsend = vi.fn();
    const onattachtext = vi.fn();
    const { getByTestId, queryByTestId } = render(Composer, { value: 'y'.repeat(4000), streaming: false, onsend, onstop: vi.fn(), meter, onattachtext });
    await fireEvent.keyDown(getByTestId('composer'), { key: 'Enter' });
    expect(onsend).not.toHaveBeenCalled();
    expect(getByTestId('long-input-offer').dataset.kind).toBe('draft');
    await fireEvent.click(getByTestId('long-input-send'));
    expect(onsend).toHaveBeenCalledTimes(1);
    expect(queryByTestId('long-input-offer')).toBeNull();
  });

  it('sends a short message at once, and without a meter never holds one back', async () => {
    const onsend = vi.fn();
    const { getByTestId } = render(Composer, { value: 'short', streaming: false, onsend, onstop: vi.fn(), meter, onattachtext: vi.fn() });
    await fireEvent.keyDown(getByTestId('composer'), { key: 'Enter' });
    expect(onsend).toHaveBeenCalledTimes(1);
    const onsend2 = vi.fn();
    const r2 = render(Composer, { value: 'z'.repeat(100_000), streaming: false, onsend: onsend2, onstop: vi.fn(), meter: null, onattachtext: vi.fn() });
    await fireEvent.keyDown(r2.getAllByTestId('composer')[1], { key: 'Enter' });
    expect(onsend2).toHaveBeenCalledTimes(1);
  });
});

describe('Composer', () => {
  it('sends on Enter but not on Shift+Enter or while composing', async () => {
    const onsend = vi.fn();
    const { getByTestId } = render(Composer, { value: 'hi', streaming: false, onsend, onstop: vi.fn() });
    const ta = getByTestId('composer');
    await fireEvent.keyDown(ta, { key: 'Enter', shiftKey: true });
    await fireEvent.keyDown(ta, { key: 'Enter', isComposing: true });
    expect(onsend).not.toHaveBeenCalled();
    await fireEvent.keyDown(ta, { key: 'Enter' });
    expect(onsend).toHaveBeenCalledTimes(1);
  });

  it('shows stop instead of send while streaming and does not send on Enter', async () => {
    const onsend = vi.fn();
    const onstop = vi.fn();
    const { getByTestId, queryByTestId } = render(Composer, { value: 'hi', streaming: true, onsend, onstop });
    expect(queryByTestId('send')).toBeNull();
    await fireEvent.keyDown(getByTestId('composer'), { key: 'Enter' });
    expect(onsend).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('stop'));
    expect(onstop).toHaveBeenCalledTimes(1);
  });

  it('shows attached resources as chips that can be removed, and can send with only an attachment', async () => {
    const onsend = vi.fn();
    const ondetach = vi.fn();
    const doc = { server: 'everything', uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md', text: 'x'.repeat(1500) };
    const { getByTestId, getAllByTestId } = render(Composer, { value: '', streaming: false, onsend, onstop: vi.fn(), attachments: [doc], ondetach });
    const chip = getByTestId('attachment-chip');
    expect(chip.textContent).toContain('architecture.md');
    expect(chip.textContent).toContain('everything · 1.5k characters');
    expect(chip.getAttribute('title')).toBe(doc.uri);
    expect((getByTestId('send') as HTMLButtonElement).disabled).toBe(false);
    expect(getByTestId('composer').getAttribute('placeholder')).toBe('Ask about the attached resource…');
    const remove = getAllByTestId('attachment-remove')[0];
    expect(remove.getAttribute('aria-label')).toBe('Remove architecture.md from the message');
    await fireEvent.click(remove);
    expect(ondetach).toHaveBeenCalledWith(doc);
    await fireEvent.click(getByTestId('send'));
    expect(onsend).toHaveBeenCalledTimes(1);
  });

  it('disables send with neither text nor attachments', () => {
    const { getByTestId, queryByTestId } = render(Composer, { value: ' ', streaming: false, onsend: vi.fn(), onstop: vi.fn() });
    expect((getByTestId('send') as HTMLButtonElement).disabled).toBe(true);
    expect(queryByTestId('attachments')).toBeNull();
  });

  it('disables send with the reason (tooltip and text under the box) until a chat model is ready', async () => {
    const onsend = vi.fn();
    const reason = 'Send is off until a chat model is installed: pull or import one above.';
    const { getByTestId, queryByTestId, rerender } = render(Composer, { value: 'hi', streaming: false, onsend, onstop: vi.fn(), blocked: reason });
    const send = getByTestId('send') as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(send.title).toBe(reason);
    const note = getByTestId('send-blocked');
    expect(note.textContent).toBe(reason);
    expect(send.getAttribute('aria-describedby')).toBe(note.id);
    await fireEvent.keyDown(getByTestId('composer'), { key: 'Enter' });
    expect(onsend).not.toHaveBeenCalled();
    await rerender({ blocked: '' });
    expect((getByTestId('send') as HTMLButtonElement).disabled).toBe(false);
    expect(getByTestId('send').getAttribute('title')).toBeNull();
    expect(queryByTestId('send-blocked')).toBeNull();
    await fireEvent.keyDown(getByTestId('composer'), { key: 'Enter' });
    expect(onsend).toHaveBeenCalledTimes(1);
  });
});
