import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import LazyFailed from './LazyFailed.svelte';

describe('LazyFailed', () => {
  it('says the panel could not be loaded, takes the focus, and closes on Close and on Esc', async () => {
    const onclose = vi.fn();
    const { getByRole } = render(LazyFailed, { onclose, dialog: true });
    const button = getByRole('button');
    expect(getByRole('alert').textContent).toContain('could not be loaded');
    expect(document.activeElement).toBe(button);
    await fireEvent.click(button);
    await fireEvent.keyDown(button, { key: 'Escape' });
    expect(onclose).toHaveBeenCalledTimes(2);
  });
});
