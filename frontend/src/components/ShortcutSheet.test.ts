import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import ShortcutSheet from './ShortcutSheet.svelte';
import { setLang } from '../lib/i18n.svelte';

afterEach(() => setLang('en'));

describe('ShortcutSheet', () => {
  it('lists the shortcuts in a dialog that Esc and Close close', async () => {
    const onclose = vi.fn();
    const r = render(ShortcutSheet, { onclose });
    const dialog = r.getByTestId('shortcut-sheet');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.textContent).toContain('Keyboard shortcuts');
    const rows = r.getAllByTestId('shortcut-row').map((e) => e.textContent ?? '');
    expect(rows.some((t) => t.includes('Ctrl+B') && t.includes('Show or hide the chat list'))).toBe(true);
    expect(rows.some((t) => t.includes('?'))).toBe(true);
    expect(document.activeElement).toBe(r.getByTestId('shortcut-sheet-close'));
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    await fireEvent.click(r.getByTestId('shortcut-sheet-close'));
    expect(onclose).toHaveBeenCalledTimes(2);
  });

  it('speaks Chinese', () => {
    setLang('zh');
    const r = render(ShortcutSheet, { onclose: () => {} });
    expect(r.getByTestId('shortcut-sheet').textContent).toContain('键盘快捷键');
    expect(r.getByTestId('shortcut-sheet').textContent).toContain('显示或隐藏对话列表');
  });
});
