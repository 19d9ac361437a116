// UI performance measurement of the real built app: `hermes serve` with the fake Ollama, driven in
// Debian's chromium through playwright-core (like the browser E2E). Run by the Go benchmark in
// ui_bench_test.go (`go tool task bench:ui`), or by hand:
//
//   go tool task build && (cd frontend && node bench/ui.mjs --runs 5)
//
// Each run, on a data dir seeded once through `hermes session import` with a conversation of
// --messages messages (Markdown paragraphs, lists and code blocks of varied length):
//   open-ms      the page shows another chat; a click on the long one until its last message is
//                in the DOM and the next frame has been drawn (performance marks in the page);
//   p95-frame-ms a scripted scroll up the conversation (the scroller moved 250 px every frame for
//                150 frames; --scroll-px): the 95th percentile of the intervals between animation
//                frames (16.7 ms is every frame of a 60 Hz display);
//   blank-frames the same scroll again on the conversation opened afresh, untimed: the frames in
//                which part of the viewport showed the space standing in for rows not drawn;
//   cpu-%        a reply streamed at --rate tokens/s into the long conversation: the page's
//                main-thread task time (CDP Performance.getMetrics TaskDuration) over the wall
//                time from its first token to its end, in % of one core;
//   idle-cpu-%   the same over 5 s before it, with nothing happening (for comparison).
// Prints one JSON line per run and a last line {"median": {...}, "runs": N}.
//
// Environment: HERMES_BIN_DIR (the hermes and fake-ollama binaries), CHROMIUM (see e2e/harness.mjs);
// BENCH_PROFILE=DIR writes the page's CPU profiles of the scroll and the stream of the first run
// there (open them in Chromium's DevTools, Performance tab); BENCH_TRACE=DIR records a Chrome trace
// of the idle 5 s and of the stream of the first run there (idle.json, stream.json: open them in
// DevTools or ui.perfetto.dev) and prints, for each, the renderer main thread's time by event name
// (self time: a nested event's time is counted once, under the innermost event; wall time, and
// the traced run is slowed down by the tracing: compare breakdowns with each other, and take the
// figures from runs without it).
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { binDir, cleanup, launch, sleep, startFake, startHermes, tempDir, useFakeModel } from '../e2e/harness.mjs';

const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    messages: { type: 'string', default: '2000' },
    rate: { type: 'string', default: '50' },
    words: { type: 'string', default: '300' },
    'scroll-px': { type: 'string', default: '250' },
  },
});
const runs = Math.max(1, Number(opt.runs));
const total = Number(opt.messages);
const rate = Number(opt.rate);

const PARAS = [
  'Hermes keeps everything on this computer and answers from a local model.',
  'The conversation is stored in one SQLite file that survives restarts, and search finds any message in it.',
  'A reply streams token by token; the page follows the bottom unless you scrolled up to read something older.',
  'Tools run only after you approve them, and every call is written to the activity log with its result.',
];
const CODE = '```go\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nfunc main() {\n\tfmt.Println(add(2, 3))\n}\n```';

/** The text of message i: varied length and shape, as a real conversation has. */
function content(i) {
  if (i === 0) return 'Bench: a long conversation about keeping notes offline';
  if (i === total - 1) return `The end of the bench conversation (message ${total}).`;
  if (i % 2 === 0) return `Question ${i}: ${PARAS[i % PARAS.length]} What about case ${i}?`;
  const parts = [];
  const n = 1 + (i % 4);
  for (let k = 0; k < n; k++) parts.push(PARAS[(i + k) % PARAS.length].repeat(1 + ((i + k) % 3)));
  if (i % 7 === 1) parts.push(CODE);
  if (i % 5 === 3) parts.push('- first point\n- second point with `inline code`\n- third point');
  return `Answer ${i}. ${parts.join('\n\n')}`;
}

function seed(dataDir) {
  const start = Date.parse('2026-01-05T09:00:00Z');
  const lines = [];
  for (let i = 0; i < total; i++) {
    lines.push(
      JSON.stringify({
        session: 'bench-long',
        id: `m${i}`,
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: content(i),
        created_at: new Date(start + i * 60_000).toISOString(),
      }),
    );
  }
  const file = join(dataDir, 'bench.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  const out = execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'session', 'import', '--jsonl', file], {
    env: { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:9' },
    encoding: 'utf8',
  });
  if (!/imported \d+ messages/.test(out)) throw new Error(`session import said: ${out}`);
  rmSync(file);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Shows another (empty) chat, then opens the long one: ms until its last message is drawn. */
async function openLong(page) {
  await page.getByTestId('new-session').click();
  await page.getByTestId('empty-chat').waitFor({ timeout: 15_000 });
  await page.locator('[data-testid="session-item"]', { hasText: 'Bench:' }).first().waitFor();
  return page.evaluate(async (marker) => {
    const item = [...document.querySelectorAll('[data-testid="session-item"]')].find((e) => e.textContent.includes('Bench:'));
    performance.clearMarks();
    performance.mark('hermes-open-start');
    item.click();
    await new Promise((resolve) => {
      const check = () => {
        // The seeded last message (later runs' streamed turns come after it).
        const all = document.querySelectorAll('[data-testid="message"]');
        let found = false;
        for (let i = all.length - 1; i >= 0 && i >= all.length - 8; i--) if (all[i].textContent.includes(marker)) found = true;
        if (found) resolve();
        else requestAnimationFrame(check);
      };
      check();
    });
    // The frame that shows it.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    performance.mark('hermes-open-end');
    return performance.measure('hermes-open', 'hermes-open-start', 'hermes-open-end').duration;
  }, `(message ${total})`);
}

/**
 * Scrolls the conversation up --scroll-px a frame for 150 frames, in the page: the intervals
 * between frames, sorted, and, when watchGaps, the frames in which the viewport showed part of a
 * gap (the space standing in for rows not drawn) instead of messages, seen by an
 * IntersectionObserver on the gaps (it adds no layout of its own). Without watchGaps nothing but
 * the scroll runs in the page (the timed pass).
 */
async function scrollUp(page, watchGaps) {
  return page.evaluate(
    async ([px, watchGaps]) => {
      const sc = document.querySelector('[data-testid="messages"]');
      const list = document.querySelector('[data-testid="message-list"]');
      const showing = new Set();
      let io;
      let mo;
      if (watchGaps) {
        io = new IntersectionObserver(
          (entries) => {
            for (const e of entries) {
              if (e.isIntersecting) showing.add(e.target);
              else showing.delete(e.target);
            }
          },
          // 2 px in from each edge: a gap that only touches the viewport counts as intersecting.
          { root: sc, rootMargin: '-2px' },
        );
        mo = new MutationObserver((recs) => {
          for (const r of recs) {
            for (const n of r.addedNodes) if (n.classList?.contains('vgap')) io.observe(n);
            for (const n of r.removedNodes) showing.delete(n);
          }
        });
        list.querySelectorAll('.vgap').forEach((n) => io.observe(n));
        mo.observe(list, { childList: true });
      }
      const deltas = [];
      let blank = 0;
      await new Promise((resolve) => {
        let last = 0;
        let n = 0;
        const step = (ts) => {
          if (last) deltas.push(ts - last);
          last = ts;
          if (n > 0 && showing.size > 0) blank++;
          sc.scrollTop -= px;
          if (++n <= 150) requestAnimationFrame(step);
          else resolve();
        };
        requestAnimationFrame(step);
      });
      if (watchGaps) {
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        if (showing.size > 0) blank++;
        io.disconnect();
        mo.disconnect();
      }
      return { deltas: deltas.sort((a, b) => a - b), blank };
    },
    [Number(opt['scroll-px']), watchGaps],
  );
}

/** The timed scroll (traced with BENCH_TRACE): the intervals between frames, sorted. */
async function scrollFrames(page, trace) {
  await trace.start();
  const { deltas } = await scrollUp(page, false);
  await trace.stop();
  return deltas;
}

/** The same scroll, untimed, watching the gaps: the frames (of 150) that showed one; 0 is smooth. */
async function blankFrames(page) {
  return (await scrollUp(page, true)).blank;
}

/** The page's main-thread CPU over 5 s with nothing happening (status polls, heartbeats), in %. */
async function idleCPU(page, cdp, trace) {
  const metric = (m, name) => m.metrics.find((x) => x.name === name)?.value ?? 0;
  await sleep(1000);
  await trace.start();
  const m0 = await cdp.send('Performance.getMetrics');
  await sleep(5000);
  const m1 = await cdp.send('Performance.getMetrics');
  await trace.stop();
  return ((metric(m1, 'TaskDuration') - metric(m0, 'TaskDuration')) / (metric(m1, 'Timestamp') - metric(m0, 'Timestamp'))) * 100;
}

/** Streams a reply into the long chat: the page's main-thread CPU in % of one core, and the rate. */
async function streamCPU(page, cdp, trace) {
  const sc = page.getByTestId('messages');
  await sc.focus();
  await page.keyboard.press('End');
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="messages"]');
    el.scrollTop = el.scrollHeight;
  });
  const before = await page.evaluate(() => document.querySelectorAll('[data-testid="message"][data-status="streaming"]').length);
  if (before !== 0) throw new Error('a reply is already streaming');
  const composer = page.getByTestId('composer');
  await composer.click();
  await composer.fill('stream a reply please');
  await composer.press('Enter');
  // The first token is in the page.
  await page.waitForFunction(
    () => {
      const el = document.querySelector('[data-testid="message"][data-status="streaming"] [data-testid="message-body"]');
      return el && el.textContent.includes('Echo');
    },
    null,
    { polling: 100, timeout: 30_000 },
  );
  const metric = (m, name) => m.metrics.find((x) => x.name === name)?.value ?? 0;
  await trace.start();
  const m0 = await cdp.send('Performance.getMetrics');
  const words0 = await page.evaluate(
    () => document.querySelector('[data-testid="message"][data-status="streaming"] [data-testid="message-body"]')?.textContent.split(/\s+/).length ?? 0,
  );
  await page.waitForFunction(() => !document.querySelector('[data-testid="message"][data-status="streaming"]'), null, {
    polling: 250,
    timeout: 120_000,
  });
  const m1 = await cdp.send('Performance.getMetrics');
  await trace.stop();
  const wall = metric(m1, 'Timestamp') - metric(m0, 'Timestamp');
  const busy = metric(m1, 'TaskDuration') - metric(m0, 'TaskDuration');
  const words1 = await page.evaluate(() => {
    const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"] [data-testid="message-body"]');
    return all[all.length - 1]?.textContent.split(/\s+/).length ?? 0;
  });
  return { cpu: (busy / wall) * 100, tokensPerSec: Math.max(0, words1 - words0) / wall };
}

// What DevTools' Performance panel records (its event names: RunTask, FunctionCall, TimerFire,
// ParseHTML, UpdateLayoutTree, Layout, PrePaint, Paint, Layerize, Commit, HitTest, GC...), and no
// more: the v8, blink and cc categories add enough overhead to change the figures.
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'];

/** Starts a Chrome trace through CDP; stop() ends it and returns its events. */
async function startTrace(cdp) {
  const events = [];
  const onData = (d) => events.push(...d.value);
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: TRACE_CATEGORIES, recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReportEvents',
  });
  return {
    async stop() {
      const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await done;
      cdp.off('Tracing.dataCollected', onData);
      return events;
    },
  };
}

/**
 * The renderer main thread's self time by event name (ms), over the trace's span: complete (X)
 * and begin/end (B/E) events on the thread named CrRendererMain of the page's process, nested
 * events subtracted from their parent.
 */
function traceBreakdown(events) {
  const threads = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name);
  // The renderer main thread with the most events is the page's.
  const counts = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (threads.get(key) === 'CrRendererMain') counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const main = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const spans = [];
  const open = [];
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main || e.ts === undefined || e.ph === 'M') continue;
    if (e.ph === 'X') spans.push({ name: e.name, start: e.ts, end: e.ts + (e.dur ?? 0) });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) spans.push({ name: b.name, start: b.ts, end: e.ts });
    }
    t0 = Math.min(t0, e.ts);
    t1 = Math.max(t1, e.ts + (e.dur ?? 0));
  }
  // Self time: sort by start (longer first on ties) and walk a stack of enclosing spans.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const self = new Map();
  const count = new Map();
  const stack = [];
  const add = (name, us) => self.set(name, (self.get(name) ?? 0) + us);
  for (const s of spans) {
    count.set(s.name, (count.get(s.name) ?? 0) + 1);
    while (stack.length && stack[stack.length - 1].end <= s.start) stack.pop();
    const parent = stack[stack.length - 1];
    add(s.name, s.end - s.start);
    if (parent) add(parent.name, -(Math.min(s.end, parent.end) - s.start));
    stack.push(s);
  }
  // Top-level task time: the union of spans of the outermost events (what TaskDuration counts).
  let busy = 0;
  let edge = -Infinity;
  for (const s of spans) {
    if (s.end <= edge) continue;
    busy += s.end - Math.max(s.start, edge);
    edge = s.end;
  }
  const wallMs = (t1 - t0) / 1000;
  const rows = [...self.entries()]
    .map(([name, us]) => ({ name, n: count.get(name), ms: +(us / 1000).toFixed(1), pctOfWall: +((us / 1000 / wallMs) * 100).toFixed(2) }))
    .filter((r) => r.ms >= 0.5)
    .sort((a, b) => b.ms - a.ms);
  return { wallMs: Math.round(wallMs), frames: count.get('Commit') ?? 0, busyMs: +(busy / 1000).toFixed(1), busyPct: +((busy / 1000 / wallMs) * 100).toFixed(2), top: rows.slice(0, 25) };
}

/** A tracer for one measured span: records it into DIR/NAME.json and prints its breakdown; no-op without DIR. */
function tracer(cdp, dir, name) {
  let t;
  return {
    async start() {
      if (dir) t = await startTrace(cdp);
    },
    async stop() {
      if (!t) return;
      const events = await t.stop();
      t = undefined;
      writeFileSync(join(dir, `${name}.json`), JSON.stringify({ traceEvents: events }));
      const b = traceBreakdown(events);
      console.error(`trace ${name}: wall ${b.wallMs} ms, main thread busy ${b.busyMs} ms (${b.busyPct}%), ${b.frames} frames`);
      for (const r of b.top) console.error(`  ${r.name.slice(0, 48).padEnd(48)} ${String(r.n).padStart(6)}x ${String(r.ms).padStart(8)} ms ${String(r.pctOfWall).padStart(6)}%`);
      writeFileSync(join(dir, `${name}.breakdown.json`), JSON.stringify(b, null, 1));
    },
  };
}

const logs = {};
const problems = [];
const dataDir = tempDir('hermes-bench-ui-data-');
const profileDir = tempDir('hermes-bench-ui-chromium-');
let context;
let failed = false;
try {
  seed(dataDir);
  const delay = `${Math.round(1000 / rate)}ms`;
  const f = await startFake(logs, 'fake-ollama', delay, ['--extra-words', opt.words]);
  const h = await startHermes(logs, dataDir, f.url);
  ({ context } = await launch(profileDir, problems));
  const page = context.pages()[0];
  await page.setViewportSize({ width: 1280, height: 800 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' }).catch(() => cdp.send('Performance.enable'));
  const results = [];
  for (let r = 0; r < runs; r++) {
    await page.goto(h.url);
    await page.getByTestId('status-bar').waitFor();
    await useFakeModel(page);
    const openMs = await openLong(page);
    const dom = await page.evaluate(() => document.querySelectorAll('[data-testid="message"]').length);
    const profile = r === 0 && process.env.BENCH_PROFILE;
    if (profile) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
    const trace = r === 0 ? process.env.BENCH_TRACE : '';
    const frames = await scrollFrames(page, tracer(cdp, trace, 'scroll'));
    if (profile) writeFileSync(join(profile, 'scroll.cpuprofile'), JSON.stringify((await cdp.send('Profiler.stop')).profile));
    if (profile) await cdp.send('Profiler.start');
    const p95 = frames[Math.min(frames.length - 1, Math.floor(frames.length * 0.95))];
    const idle = await idleCPU(page, cdp, tracer(cdp, trace, 'idle'));
    const { cpu, tokensPerSec } = await streamCPU(page, cdp, tracer(cdp, trace, 'stream'));
    if (profile) writeFileSync(join(profile, 'stream.cpuprofile'), JSON.stringify((await cdp.send('Profiler.stop')).profile));
    // The untimed check of what the scroll showed, on the conversation opened afresh.
    await page.goto(h.url);
    await page.getByTestId('status-bar').waitFor();
    await useFakeModel(page); // as above: until the status bar says the model is ready
    await openLong(page);
    const blank = await blankFrames(page);
    const res = { run: r + 1, openMs, p95FrameMs: p95, maxFrameMs: frames[frames.length - 1], blankFrames: blank, cpuPct: cpu, idleCpuPct: idle, tokensPerSec, domMessages: dom };
    results.push(res);
    console.log(JSON.stringify(res));
  }
  if (problems.length) console.error(`page problems:\n${problems.join('\n')}`);
  const med = {};
  for (const k of ['openMs', 'p95FrameMs', 'maxFrameMs', 'blankFrames', 'cpuPct', 'idleCpuPct', 'tokensPerSec', 'domMessages']) med[k] = median(results.map((x) => x[k]));
  console.log(JSON.stringify({ median: med, runs }));
} catch (err) {
  failed = true;
  console.error(err?.stack ?? String(err));
  for (const [name, text] of Object.entries(logs)) console.error(`--- ${name}\n${text.slice(-3000)}`);
} finally {
  if (context) await context.close().catch(() => {});
  await cleanup({}, [dataDir, profileDir]);
}
process.exit(failed ? 1 : 0);
