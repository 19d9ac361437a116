// The composer's context meter as typing goes (issue #35: it updates within one frame of typing):
// `hermes serve` with the fake Ollama in Debian's chromium, a draft of --chars characters (English
// and Chinese) in the composer, then --keys keystrokes: for each, the time from the input event
// to the first animation frame after it (performance.now in the page), and whether the meter
// already showed the new count in that frame (lateFrames counts the keystrokes whose meter came a
// frame or more later). The same keystrokes into a plain textarea of the same text and size,
// added to the page beside it, give the browser's own cost of such a long text (plainP50Ms): the
// meter's cost is the difference. Prints one JSON line per run and a last line
// {"median": {...}, "runs": N}.
//
//   go tool task build && (cd frontend && node bench/meter.mjs --runs 5)
//
// Environment: HERMES_BIN_DIR, CHROMIUM (see e2e/harness.mjs).
import { parseArgs } from 'node:util';
import { closeApp, openApp } from '../e2e/harness.mjs';

const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    chars: { type: 'string', default: '200000' },
    keys: { type: 'string', default: '60' },
  },
});
const runs = Math.max(1, Number(opt.runs));

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor((s.length - 1) / 2)];
};

async function measure(page, chars, keys) {
  return page.evaluate(
    async ([chars, keys]) => {
      const ta = document.querySelector('[data-testid="composer"]');
      const meter = () => Number(document.querySelector('[data-testid="context-meter"]')?.dataset.used ?? NaN);
      const unit = 'The pumps on the north field need new seals. 北边田里的水泵需要换密封圈。';
      const text = unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      const plain = document.createElement('textarea');
      plain.className = ta.className;
      plain.style.cssText = `position:fixed;left:0;bottom:0;width:${ta.clientWidth}px;height:${ta.clientHeight}px;opacity:0.01`;
      document.body.append(plain);
      const type = async (el, withMeter) => {
        el.value = text;
        el.dispatchEvent(new Event('input', { bubbles: true }));
        await frame();
        await frame();
        const times = [];
        let late = 0;
        for (let k = 0; k < keys; k++) {
          const before = withMeter ? meter() : 0;
          const t0 = performance.now();
          el.value += k % 2 ? ' word' : ' 词语';
          el.dispatchEvent(new Event('input', { bubbles: true }));
          times.push((await frame()) - t0);
          if (withMeter && meter() === before) late++;
        }
        el.value = '';
        el.dispatchEvent(new Event('input', { bubbles: true }));
        return { times, late };
      };
      const plainRun = await type(plain, false);
      const hermes = await type(ta, true);
      plain.remove();
      return { times: hermes.times, late: hermes.late, plain: plainRun.times };
    },
    [chars, keys],
  );
}

const logs = {};
const app = await openApp(logs, [], { prefix: 'bench-meter' });
const results = [];
try {
  await app.page.getByTestId('context-meter').waitFor({ timeout: 15_000 });
  for (let r = 0; r < runs; r++) {
    const { times, late, plain } = await measure(app.page, Number(opt.chars), Number(opt.keys));
    const sorted = [...times].sort((a, b) => a - b);
    const res = {
      p50Ms: median(times),
      p95Ms: sorted[Math.floor(0.95 * (sorted.length - 1))],
      plainP50Ms: median(plain),
      lateFrames: late,
    };
    results.push(res);
    console.log(JSON.stringify(res));
  }
} finally {
  await closeApp(logs, app, 'bench-meter-final.png', 'bench-meter-');
}
const m = (k) => median(results.map((r) => r[k]));
console.log(JSON.stringify({ median: { p50Ms: m('p50Ms'), p95Ms: m('p95Ms'), plainP50Ms: m('plainP50Ms'), lateFrames: m('lateFrames') }, runs }));
