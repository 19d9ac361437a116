import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import Sidebar from './Sidebar.svelte';
import type { SearchHit, SessionInfo } from '../lib/backend';

function s(id: string, p: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id,
    title: `Title ${id}`,
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    messageCount: 2,
    state: 'active',
    pinned: false,
    ...p,
  };
}

function props(over: Record<string, unknown> = {}) {
  return {
    sessions: [s('a', { pinned: true }), s('b'), s('c', { state: 'archived', title: 'Old trip' })],
    currentId: 'b',
    searchDelayMs: 0,
    onselect: vi.fn(),
    onnew: vi.fn(),
    onsearch: vi.fn(async (_q: string): Promise<SearchHit[]> => []),
    onopenhit: vi.fn(),
    onrename: vi.fn(async (_id: string, _t: string) => {}),
    onpin: vi.fn(async (_id: string, _p: boolean) => {}),
    onarchive: vi.fn(async (_id: string) => {}),
    ondelete: vi.fn(async (_id: string) => {}),
    onexport: vi.fn(async (_id: string, _f: string) => {}),
    ...over,
  };
}

interface Rendered {
  container: HTMLElement;
  getByTestId: (id: string) => HTMLElement;
}

async function openMenu(r: Rendered, id: string): Promise<HTMLElement> {
  const trigger = r.container.querySelector<HTMLElement>(`[data-menu-trigger="${id}"]`)!;
  await fireEvent.click(trigger);
  return r.getByTestId('session-menu-list');
}

function action(menu: HTMLElement, name: string): HTMLElement {
  return menu.querySelector<HTMLElement>(`[data-action="${name}"]`)!;
}

afterEach(() => vi.useRealTimers());

describe('Sidebar', () => {
  it('marks an incognito chat, with words for screen readers', () => {
    const r = render(Sidebar, props({ sessions: [s('a'), s('b', { incognito: true })] }));
    const items = r.getByTestId('session-list').querySelectorAll<HTMLElement>('[data-testid="session-item"]');
    expect(items[0].querySelector('[data-testid="session-incognito"]')).toBeNull();
    const mark = items[1].querySelector<HTMLElement>('[data-testid="session-incognito"]');
    expect(mark).not.toBeNull();
    expect(items[1].dataset.incognito).toBe('true');
    expect(mark!.textContent).toContain('erased when Hermes closes');
  });

  it('shows pinned sessions with a pin and archived ones in a collapsed section', async () => {
    const r = render(Sidebar, props());
    const live = r.getByTestId('session-list').querySelectorAll('[data-testid="session-item"]');
    expect([...live].map((e) => (e as HTMLElement).dataset.sessionId)).toEqual(['a', 'b']);
    expect(live[0].querySelector('[data-testid="session-pinned"]')).not.toBeNull();
    expect(live[1].querySelector('[data-testid="session-pinned"]')).toBeNull();
    expect(r.queryByTestId('archived-list')).toBeNull();
    const toggle = r.getByTestId('archived-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(toggle);
    expect(r.getByTestId('archived-list').textContent).toContain('Old trip');
  });

  it('deletes only after the user confirms, naming the session', async () => {
    const p = props();
    const r = render(Sidebar, p);
    let menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'delete'));
    const dialog = r.getByTestId('confirm-delete');
    expect(dialog.textContent).toContain('“Title b”');
    expect(p.ondelete).not.toHaveBeenCalled();
    // The safe choice has the focus.
    expect(document.activeElement).toBe(r.getByTestId('confirm-cancel'));

    await fireEvent.click(r.getByTestId('confirm-cancel'));
    expect(r.queryByTestId('confirm-delete')).toBeNull();
    expect(p.ondelete).not.toHaveBeenCalled();

    menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'delete'));
    await fireEvent.keyDown(r.getByTestId('confirm-delete'), { key: 'Escape' });
    expect(r.queryByTestId('confirm-delete')).toBeNull();
    expect(p.ondelete).not.toHaveBeenCalled();

    menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'delete'));
    await fireEvent.click(r.getByTestId('confirm-ok'));
    expect(p.ondelete).toHaveBeenCalledTimes(1);
    expect(p.ondelete).toHaveBeenCalledWith('b');
    await waitFor(() => expect(r.queryByTestId('confirm-delete')).toBeNull());
  });

  it('opens the confirmation with the Delete key too', async () => {
    const p = props();
    const r = render(Sidebar, p);
    const row = r.container.querySelector<HTMLElement>('[data-testid="session-item"][data-session-id="a"]')!;
    await fireEvent.keyDown(row, { key: 'Delete' });
    expect(r.getByTestId('confirm-delete').textContent).toContain('Title a');
    expect(p.ondelete).not.toHaveBeenCalled();
  });

  it('renames inline: Enter saves, Esc cancels', async () => {
    const p = props();
    const r = render(Sidebar, p);
    let menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'rename'));
    let input = (await r.findByTestId('session-rename-input')) as HTMLInputElement;
    expect(input.value).toBe('Title b');
    await fireEvent.input(input, { target: { value: 'Never saved' } });
    await fireEvent.keyDown(input, { key: 'Escape' });
    expect(r.queryByTestId('session-rename-input')).toBeNull();
    expect(p.onrename).not.toHaveBeenCalled();

    menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'rename'));
    input = (await r.findByTestId('session-rename-input')) as HTMLInputElement;
    await fireEvent.input(input, { target: { value: '  Trip plans ' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(p.onrename).toHaveBeenCalledWith('b', 'Trip plans');
  });

  it('pins, archives and exports from the menu', async () => {
    const p = props();
    const r = render(Sidebar, p);
    let menu = await openMenu(r, 'a');
    expect(action(menu, 'pin').textContent).toContain('Unpin');
    await fireEvent.click(action(menu, 'pin'));
    expect(p.onpin).toHaveBeenCalledWith('a', false);
    menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'archive'));
    expect(p.onarchive).toHaveBeenCalledWith('b');
    menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'export-json'));
    expect(p.onexport).toHaveBeenCalledWith('b', 'json');
    menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'export-md'));
    expect(p.onexport).toHaveBeenCalledWith('b', 'md');
    for (const f of ['html', 'pdf']) {
      menu = await openMenu(r, 'b');
      await fireEvent.click(action(menu, `export-${f}`));
      expect(p.onexport).toHaveBeenCalledWith('b', f);
    }
  });

  it('the menu is keyboard usable and Esc closes it', async () => {
    const r = render(Sidebar, props());
    const menu = await openMenu(r, 'b');
    const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    expect(document.activeElement).toBe(items[0]);
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    await fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement).toBe(items[items.length - 1]);
    await fireEvent.keyDown(menu, { key: 'Escape' });
    expect(r.queryByTestId('session-menu-list')).toBeNull();
  });

  it('shows an action error instead of failing silently', async () => {
    const p = props({ onpin: vi.fn(async () => Promise.reject(new Error('not found'))) });
    const r = render(Sidebar, p);
    const menu = await openMenu(r, 'b');
    await fireEvent.click(action(menu, 'pin'));
    expect((await r.findByTestId('session-action-error')).textContent).toContain('not found');
  });

  it('searches, shows hits and clears with Esc', async () => {
    const hits: SearchHit[] = [
      {
        sessionId: 'c',
        sessionTitle: 'Old trip',
        messageId: 'm1',
        role: 'user',
        snippet: [
          { text: 'my ', match: false },
          { text: 'zebra', match: true },
        ],
        score: 1,
        createdAt: '',
        state: 'archived',
      },
    ];
    const p = props({ onsearch: vi.fn(async () => hits) });
    const r = render(Sidebar, p);
    const box = r.getByTestId('session-search') as HTMLInputElement;
    await fireEvent.input(box, { target: { value: 'zebra' } });
    const hit = await r.findByTestId('search-hit');
    expect(p.onsearch).toHaveBeenCalledWith('zebra');
    expect(hit.querySelector('mark')!.textContent).toBe('zebra');
    expect(r.queryByTestId('session-list')).toBeNull();
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(p.onopenhit).toHaveBeenCalledWith(hits[0]);
    const esc = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    const windowEsc = vi.fn();
    window.addEventListener('keydown', windowEsc);
    box.dispatchEvent(esc);
    window.removeEventListener('keydown', windowEsc);
    // Esc clears the search and does not reach the window (where it would stop a reply).
    expect(windowEsc).not.toHaveBeenCalled();
    await waitFor(() => expect(r.queryByTestId('search-results')).toBeNull());
    expect(box.value).toBe('');
    expect(r.getByTestId('session-list')).toBeTruthy();
  });
});

describe('Sidebar date groups', () => {
  const now = new Date();
  const daysAgo = (n: number, h = 12) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - n, h).toISOString();

  it('groups the chats by Today, Yesterday, Previous 7 days and month, pinned first', async () => {
    const old = new Date(2023, 2, 10, 12).toISOString();
    const r = render(
      Sidebar,
      props({
        currentId: 't',
        sessions: [
          s('p', { pinned: true, updatedAt: old }),
          s('t', { updatedAt: daysAgo(0, 0) }),
          s('y', { updatedAt: daysAgo(1) }),
          s('w', { updatedAt: daysAgo(5) }),
          s('m', { updatedAt: old }),
          s('arch', { state: 'archived', updatedAt: daysAgo(0) }),
        ],
      }),
    );
    const groups = [...r.container.querySelectorAll<HTMLElement>('[data-testid="session-group"]')].map((g) => ({
      key: g.dataset.group,
      title: g.querySelector('h3')?.textContent,
      ids: [...g.querySelectorAll<HTMLElement>('[data-testid="session-item"]')].map((e) => e.dataset.sessionId),
    }));
    expect(groups).toEqual([
      { key: 'pinned', title: 'Pinned', ids: ['p'] },
      { key: 'today', title: 'Today', ids: ['t'] },
      { key: 'yesterday', title: 'Yesterday', ids: ['y'] },
      { key: 'week', title: 'Previous 7 days', ids: ['w'] },
      { key: 'month:2023-03', title: 'March 2023', ids: ['m'] },
    ]);
    // Archived chats stay in their own section, out of the date groups.
    expect(r.getByTestId('archived-toggle').textContent).toContain('Archived (1)');
    // Each group is a section named by its heading.
    const today = r.container.querySelector<HTMLElement>('[data-group="today"]')!;
    expect(document.getElementById(today.getAttribute('aria-labelledby')!)?.textContent).toBe('Today');
  });

  it('names the groups in Chinese', async () => {
    const { setLang } = await import('../lib/i18n.svelte');
    setLang('zh');
    try {
      const r = render(
        Sidebar,
        props({ sessions: [s('t', { updatedAt: daysAgo(0) }), s('y', { updatedAt: daysAgo(1) }), s('m', { updatedAt: new Date(2023, 2, 10).toISOString() })] }),
      );
      const titles = [...r.container.querySelectorAll('[data-testid="session-group"] h3')].map((h) => h.textContent);
      expect(titles).toEqual(['今天', '昨天', '2023年3月']);
    } finally {
      setLang('en');
    }
  });

  it('has a close button only as a drawer', async () => {
    const onclose = vi.fn();
    const r = render(Sidebar, props({ drawer: false, onclose }));
    expect(r.queryByTestId('drawer-close')).toBeNull();
    await r.rerender({ ...props({ drawer: true, onclose }) });
    const close = r.getByTestId('drawer-close');
    expect(close.getAttribute('aria-label')).toBe('Close the chat list (Esc)');
    await fireEvent.click(close);
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it('draws its icons as SVG, not font glyphs', () => {
    const r = render(Sidebar, props());
    expect(r.getByTestId('new-session').querySelector('svg')).not.toBeNull();
    expect(r.getByTestId('new-session').textContent?.trim()).toBe('New chat');
    for (const b of r.container.querySelectorAll('[data-testid="session-menu"]')) {
      expect(b.querySelector('svg')).not.toBeNull();
      expect(b.textContent?.trim()).toBe('');
    }
  });
});
