import { afterEach, describe, expect, it, vi } from 'vitest';
import { announce, ensureRegion, expectReply, offerReply, resetAnnouncer } from './announce';

afterEach(() => {
  resetAnnouncer();
  vi.useRealTimers();
});

function text(): string {
  return document.querySelector('[data-testid="reply-announcer"]')?.textContent ?? '';
}

describe('reply announcer', () => {
  it('creates one polite, atomic region', () => {
    const a = ensureRegion();
    const b = ensureRegion();
    expect(a).toBe(b);
    expect(a!.getAttribute('aria-live')).toBe('polite');
    expect(a!.getAttribute('aria-atomic')).toBe('true');
    expect(document.querySelectorAll('[data-testid="reply-announcer"]').length).toBe(1);
  });

  it.each([
    ['expect, then offer', true],
    ['offer, then expect', false],
  ])('pairs a finished stream with its stored reply (%s)', (_, expectFirst) => {
    vi.useFakeTimers();
    ensureRegion();
    const t0 = 1_000_000;
    if (expectFirst) {
      expectReply('Hello wor', t0);
      offerReply('Hello world', () => 'Hello world', t0 + 5);
    } else {
      offerReply('Hello world', () => 'Hello world', t0);
      expectReply('Hello wor', t0 + 5);
    }
    vi.advanceTimersByTime(60);
    expect(text()).toBe('Hello world');
    vi.advanceTimersByTime(10_000);
    expect(text()).toBe('');
  });

  it('ignores a reply that does not follow the streamed text, or comes too late', () => {
    vi.useFakeTimers();
    ensureRegion();
    const spoken = vi.fn(() => 'x');
    expectReply('Hello', 0);
    offerReply('Something else', spoken, 10);
    expectReply('Hello', 100);
    offerReply('Hello there', spoken, 5000);
    vi.advanceTimersByTime(100);
    expect(spoken).not.toHaveBeenCalled();
    expect(text()).toBe('');
  });

  it('ignores blank text', () => {
    vi.useFakeTimers();
    announce('   ');
    vi.advanceTimersByTime(100);
    expect(text()).toBe('');
  });
});
