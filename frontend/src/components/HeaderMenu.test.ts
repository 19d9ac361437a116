import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import HeaderMenu from './HeaderMenu.svelte';

function setup() {
  const picked: string[] = [];
  const items = ['language-toggle', 'settings-button', 'shortcuts-button'].map((id) => ({
    id,
    label: id,
    icon: 'globe' as const,
    onselect: vi.fn(() => picked.push(id)),
  }));
  const r = render(HeaderMenu, { label: 'More', items });
  const trigger = r.getByTestId('header-menu');
  const focused = () => (document.activeElement as HTMLElement | null)?.dataset.testid;
  return { r, trigger, items, picked, focused };
}

describe('HeaderMenu', () => {
  it('is a labelled menu button, closed at first', () => {
    const { r, trigger } = setup();
    expect(trigger.getAttribute('aria-label')).toBe('More');
    expect(trigger.getAttribute('title')).toBe('More');
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(r.queryByTestId('header-menu-list')).toBeNull();
    // Its icon is an inline SVG, not a glyph.
    expect(trigger.querySelector('svg')).not.toBeNull();
    expect(trigger.textContent?.trim()).toBe('');
  });

  it('opens with a click on the first item; arrows, Home and End move, wrapping around', async () => {
    const { r, trigger, focused } = setup();
    await fireEvent.click(trigger);
    const menu = r.getByTestId('header-menu-list');
    expect(menu.getAttribute('role')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    expect(focused()).toBe('language-toggle');
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(focused()).toBe('settings-button');
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(focused()).toBe('language-toggle');
    await fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(focused()).toBe('shortcuts-button');
    await fireEvent.keyDown(menu, { key: 'Home' });
    expect(focused()).toBe('language-toggle');
    await fireEvent.keyDown(menu, { key: 'End' });
    expect(focused()).toBe('shortcuts-button');
  });

  it('opens from the keyboard: ↓ on the first item, ↑ on the last', async () => {
    const { r, trigger, focused } = setup();
    trigger.focus();
    await fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    expect(focused()).toBe('language-toggle');
    await fireEvent.keyDown(r.getByTestId('header-menu-list'), { key: 'Escape' });
    await fireEvent.keyDown(trigger, { key: 'ArrowUp' });
    expect(focused()).toBe('shortcuts-button');
  });

  it('closes with Esc, giving the focus back, and does not let Esc reach the window', async () => {
    const { r, trigger, focused } = setup();
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    await fireEvent.click(trigger);
    await fireEvent.keyDown(r.getByTestId('header-menu-list'), { key: 'Escape' });
    window.removeEventListener('keydown', onWindowKey);
    expect(r.queryByTestId('header-menu-list')).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(focused()).toBe('header-menu');
    expect(onWindowKey).not.toHaveBeenCalled();
  });

  it('runs the chosen item and closes; Tab and a click outside close it too', async () => {
    const { r, trigger, picked, focused } = setup();
    await fireEvent.click(trigger);
    const menu = r.getByTestId('header-menu-list');
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    await fireEvent.click(document.activeElement as HTMLElement);
    expect(picked).toEqual(['settings-button']);
    expect(r.queryByTestId('header-menu-list')).toBeNull();
    expect(focused()).toBe('header-menu');

    await fireEvent.click(trigger);
    await fireEvent.keyDown(r.getByTestId('header-menu-list'), { key: 'Tab' });
    expect(r.queryByTestId('header-menu-list')).toBeNull();

    await fireEvent.click(trigger);
    await fireEvent.pointerDown(document.body);
    expect(r.queryByTestId('header-menu-list')).toBeNull();
    expect(picked).toEqual(['settings-button']);
  });
});
