import { describe, expect, it } from 'vitest';
import cases from './tokens.cases.json';
import { estimateTokens } from './tokens';

describe('estimateTokens', () => {
  it('gives what the prompt builder gives on the shared cases', () => {
    expect(cases.length).toBeGreaterThan(5);
    for (const c of cases) expect([c.text, estimateTokens(c.text)]).toEqual([c.text, c.tokens]);
  });
});
