// The window's layout state: the sidebar shown or collapsed (remembered), and below NARROW px a
// drawer over the chat instead (closed by default, never remembered).

export const NARROW = 700;
const STORAGE_KEY = 'hermes.sidebar';

export interface LayoutStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function defaultStorage(): LayoutStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export class LayoutStore {
  /** The user collapsed the sidebar (wide windows). */
  collapsed = $state(false);
  /** The drawer is open (narrow windows). */
  drawerOpen = $state(false);
  /** The window's width in CSS pixels. */
  width = $state(1280);

  #storage: LayoutStorage | undefined;

  constructor(opts: { storage?: LayoutStorage; width?: number } = {}) {
    this.#storage = 'storage' in opts ? opts.storage : defaultStorage();
    this.width = opts.width ?? globalThis.innerWidth ?? 1280;
    try {
      this.collapsed = this.#storage?.getItem(STORAGE_KEY) === 'collapsed';
    } catch {
      this.collapsed = false;
    }
  }

  /** Below NARROW px the sidebar is a drawer. */
  get narrow(): boolean {
    return this.width < NARROW;
  }

  /** Whether the chat list is on screen now. */
  get sidebarShown(): boolean {
    return this.narrow ? this.drawerOpen : !this.collapsed;
  }

  /** Ctrl+B and the header's button: the drawer on a narrow window, else the sidebar itself. */
  toggleSidebar(): void {
    if (this.narrow) {
      this.drawerOpen = !this.drawerOpen;
      return;
    }
    this.setCollapsed(!this.collapsed);
  }

  setCollapsed(collapsed: boolean): void {
    this.collapsed = collapsed;
    try {
      this.#storage?.setItem(STORAGE_KEY, collapsed ? 'collapsed' : 'shown');
    } catch {
      // storage unavailable: the choice lasts for this run
    }
  }

  closeDrawer(): void {
    this.drawerOpen = false;
  }

  setWidth(width: number): void {
    this.width = width;
    // Leaving the narrow layout closes the drawer, so it is not open when the window narrows again.
    if (!this.narrow) this.drawerOpen = false;
  }
}
