// The prompt builder's token estimate (backend/prompt/tokens.go, Estimate), for the composer's
// meter, which must follow each keystroke without asking the backend: a CJK character is a token,
// other text a token per four bytes of UTF-8 as Go counts them (ASCII one, anything else two).
// Both are checked against the same cases (tokens.cases.json), so the two cannot drift apart.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function estimateTokens(s: string): number {
  const p = parts(s);
  return p.cjk + Math.floor((p.other + 3) / 4);
}

/** The two counts the estimate is made of (CJK characters, other bytes' weight). */
function parts(s: string): { cjk: number; other: number } {
  let cjk = 0;
  let other = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      other++;
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = (c - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (cp >= 0x1100 && CJK.test(String.fromCodePoint(cp))) cjk++;
    else other += 2;
  }
  return { cjk, other };
}

/**
 * An estimateTokens that remembers its last text: a text that extends it (typing at the end of
 * a long draft) costs only what was added, so the meter keeps up with each keystroke.
 */
export function incrementalEstimator(): (s: string) => number {
  let last = '';
  let counts = { cjk: 0, other: 0 };
  return (s: string) => {
    // A cut inside a surrogate pair would count half a character: start again then.
    const tail = last.length > 0 && s.startsWith(last) && !/[\ud800-\udbff]$/.test(last);
    if (tail) {
      const add = parts(s.slice(last.length));
      counts = { cjk: counts.cjk + add.cjk, other: counts.other + add.other };
    } else {
      counts = parts(s);
    }
    last = s;
    return counts.cjk + Math.floor((counts.other + 3) / 4);
  };
}
