import { describe, expect, it } from 'vitest';
import { longInput, meterOf } from './meter';

const meter = { budget: 1000, used: 300, maxMessageBytes: 256 * 1024 };

describe('the context meter', () => {
  it('adds the draft and the documents to what the conversation takes', () => {
    const m = meterOf(meter, 'hello there', [{ id: 'd', name: 'a.txt', kind: 'text', tokens: 100, chars: 400 }])!;
    expect(m.total).toBe(300 + 100 + 3);
    expect(m.room).toBe(700);
    // A document larger than what is left gives way to the message (its relevant parts are sent).
    const big = meterOf(meter, 'hello there', [{ id: 'd', name: 'b.txt', kind: 'text', tokens: 15_000, chars: 60_000 }])!;
    expect(big).toMatchObject({ total: 1000, level: 'warn', room: 700 });
    expect(longInput(meter, 'hello there', [{ id: 'd', name: 'b.txt', kind: 'text', tokens: 15_000, chars: 60_000 }])).toBeNull();
    expect(m.level).toBe('ok');
    expect(meterOf(meter, 'x'.repeat(2600))!.level).toBe('warn'); // 300 + 650 of 1000
    expect(meterOf(meter, 'x'.repeat(3000))!).toMatchObject({ level: 'over', percent: 100 });
    expect(meterOf(null, 'hi')).toBeNull();
    expect(meterOf({ budget: 0, used: 0 }, 'hi')).toBeNull();
  });

  it('calls a draft long when it is more than the room left or than the longest message', () => {
    expect(longInput(meter, 'short')).toBeNull();
    expect(longInput(meter, 'x'.repeat(2800))).toBeNull(); // exactly the room left
    expect(longInput(meter, 'x'.repeat(2804))?.tokens).toBe(701);
    const big = { budget: 10_000_000, used: 0, maxMessageBytes: 256 * 1024 };
    expect(longInput(big, 'x'.repeat(256 * 1024))).toBeNull();
    expect(longInput(big, '水'.repeat(100_000))).not.toBeNull(); // 300,000 bytes of UTF-8
  });
});
