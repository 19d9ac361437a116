// Light/dark theme: follows prefers-color-scheme unless the user picked one (saved in localStorage).

export type ThemePref = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'hermes.theme';

function systemDark(): boolean {
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

function readSaved(): ThemePref {
  try {
    const v = globalThis.localStorage?.getItem(STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export const theme = $state<{ pref: ThemePref; systemDark: boolean }>({
  pref: readSaved(),
  systemDark: systemDark(),
});

export function effectiveTheme(): 'light' | 'dark' {
  if (theme.pref === 'system') return theme.systemDark ? 'dark' : 'light';
  return theme.pref;
}

function apply(): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (theme.pref === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme.pref);
}

export function setTheme(pref: ThemePref): void {
  theme.pref = pref;
  try {
    if (pref === 'system') globalThis.localStorage?.removeItem(STORAGE_KEY);
    else globalThis.localStorage?.setItem(STORAGE_KEY, pref);
  } catch {
    // storage unavailable: the choice lasts for this run
  }
  apply();
}

/** Flips between light and dark, starting from what is shown now. */
export function toggleTheme(): void {
  setTheme(effectiveTheme() === 'dark' ? 'light' : 'dark');
}

/** Applies the saved theme and tracks the system setting. Call once at start. */
export function initTheme(): void {
  apply();
  const mq = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
  mq?.addEventListener?.('change', (e) => {
    theme.systemDark = e.matches;
  });
}
