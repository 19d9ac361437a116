import { describe, expect, it } from 'vitest';
import cases from './tokens.cases.json';
import { estimateTokens, incrementalEstimator } from './tokens';

describe('estimateTokens', () => {
  it('gives what the prompt builder gives on the shared cases', () => {
    expect(cases.length).toBeGreaterThan(5);
    for (const c of cases) expect([c.text, estimateTokens(c.text)]).toEqual([c.text, c.tokens]);
  });

  it('gives the same counts incrementally, as a draft grows, shrinks and changes', () => {
    const est = incrementalEstimator();
    let text = '';
    for (const piece of ['The pumps ', '北边田里', '的水泵', ' need seals 🙂', '𠀀', ' done']) {
      text += piece;
      expect(est(text)).toBe(estimateTokens(text));
    }
    for (const t of [text.slice(0, 12), 'another text', 'another text, longer', '']) expect(est(t)).toBe(estimateTokens(t));
    // A surrogate pair typed in two steps is one character.
    const pair = '𠀀';
    expect(est('a' + pair[0])).toBe(estimateTokens('a' + pair[0]));
    expect(est('a' + pair)).toBe(estimateTokens('a' + pair));
  });
});
