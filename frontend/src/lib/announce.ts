// Tells screen readers that a reply is complete: one polite live region in the page that receives
// the finished reply's text once (never the streamed deltas).
//
// The chat replaces a streamed reply's placeholder with the stored message (a new id, so a new
// Message component), so the hand-over is paired here: the placeholder reports that it finished
// streaming (expect), the stored reply that replaced it reports its text (offer), in either order.
// Messages mounted for any other reason (opening a chat) offer too but find nothing expected.

const WINDOW_MS = 2000;

let region: HTMLElement | null = null;
let expected: { content: string; at: number } | null = null;
let offered: { content: string; text: () => string; at: number } | null = null;
let clearTimer: ReturnType<typeof setTimeout> | undefined;

/** Creates the live region once; call it before the text arrives so that it is announced. */
export function ensureRegion(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  if (region && region.isConnected) return region;
  region = document.createElement('div');
  region.className = 'visually-hidden';
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('aria-atomic', 'true');
  region.dataset.testid = 'reply-announcer';
  document.body.appendChild(region);
  return region;
}

/** Puts text in the live region (emptied first, so the same text twice is still read). */
export function announce(text: string): void {
  const r = ensureRegion();
  if (!r || text.trim() === '') return;
  r.textContent = '';
  clearTimeout(clearTimer);
  setTimeout(() => {
    r.textContent = text;
    // Emptied later so that moving through the page does not find a stale copy of the reply.
    clearTimer = setTimeout(() => {
      if (r.textContent === text) r.textContent = '';
    }, 10_000);
  }, 50);
}

function norm(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** The stored reply's content follows what was streamed (or nothing had streamed yet). */
function matches(streamed: string, final: string): boolean {
  const a = norm(streamed);
  return a === '' || norm(final).startsWith(a);
}

/** A placeholder stopped streaming because its stored reply replaced it. */
export function expectReply(streamedContent: string, now = Date.now()): void {
  if (offered && now - offered.at <= WINDOW_MS && matches(streamedContent, offered.content)) {
    const text = offered.text;
    offered = null;
    announce(text());
    return;
  }
  expected = { content: streamedContent, at: now };
}

/**
 * A finished reply appeared: announced when it is the one a placeholder expected. text is only
 * called then (opening a long chat offers every reply, and none is read out).
 */
export function offerReply(content: string, text: () => string, now = Date.now()): void {
  if (expected && now - expected.at <= WINDOW_MS && matches(expected.content, content)) {
    expected = null;
    announce(text());
    return;
  }
  offered = { content, text, at: now };
}

/** For tests: forgets pairing state and the region. */
export function resetAnnouncer(): void {
  expected = null;
  offered = null;
  clearTimeout(clearTimer);
  region?.remove();
  region = null;
}
