import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import Composer from './Composer.svelte';

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
});
