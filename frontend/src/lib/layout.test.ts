import { describe, expect, it } from 'vitest';
import { LayoutStore, NARROW, type LayoutStorage } from './layout.svelte';

function memStorage(init: Record<string, string> = {}): LayoutStorage & { data: Record<string, string> } {
  const data = { ...init };
  return {
    data,
    getItem: (k) => (k in data ? data[k] : null),
    setItem: (k, v) => {
      data[k] = v;
    },
  };
}

describe('LayoutStore', () => {
  it('shows the sidebar by default and remembers a collapse', () => {
    const storage = memStorage();
    const l = new LayoutStore({ storage, width: 1100 });
    expect(l.collapsed).toBe(false);
    expect(l.sidebarShown).toBe(true);
    l.toggleSidebar();
    expect(l.sidebarShown).toBe(false);
    expect(storage.data['hermes.sidebar']).toBe('collapsed');
    // A new window reads it back.
    const again = new LayoutStore({ storage, width: 1100 });
    expect(again.collapsed).toBe(true);
    again.toggleSidebar();
    expect(again.sidebarShown).toBe(true);
    expect(storage.data['hermes.sidebar']).toBe('shown');
  });

  it('is a drawer below the narrow width, closed at first and never remembered', () => {
    const storage = memStorage();
    const l = new LayoutStore({ storage, width: NARROW - 50 });
    expect(l.narrow).toBe(true);
    expect(l.sidebarShown).toBe(false);
    l.toggleSidebar();
    expect(l.drawerOpen).toBe(true);
    expect(l.sidebarShown).toBe(true);
    expect(l.collapsed).toBe(false);
    expect(storage.data).toEqual({});
    l.closeDrawer();
    expect(l.sidebarShown).toBe(false);
  });

  it('closes the drawer when the window widens, and keeps the collapse of the wide layout', () => {
    const l = new LayoutStore({ storage: memStorage({ 'hermes.sidebar': 'collapsed' }), width: 650 });
    l.toggleSidebar();
    expect(l.drawerOpen).toBe(true);
    l.setWidth(1200);
    expect(l.narrow).toBe(false);
    expect(l.drawerOpen).toBe(false);
    expect(l.sidebarShown).toBe(false);
    l.setWidth(NARROW);
    expect(l.narrow).toBe(false);
  });

  it('works without storage', () => {
    const broken: LayoutStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    const l = new LayoutStore({ storage: broken, width: 1000 });
    expect(l.collapsed).toBe(false);
    l.toggleSidebar();
    expect(l.collapsed).toBe(true);
    const none = new LayoutStore({ storage: undefined, width: 1000 });
    none.toggleSidebar();
    expect(none.collapsed).toBe(true);
  });
});
