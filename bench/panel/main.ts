/**
 * bench:panel: how fast the panel paints a run and how much memory it holds, in headless Chromium
 * (Debian's /usr/bin/chromium through playwright-core), loading the minified webview bundle in a
 * page built by the same `panelHtml()` (same CSP) with a stub host instead of VS Code.
 *
 * Two synthetic runs, 1k and 10k events each: a PACE+ run with pairwise verdicts ("run": every
 * event type, few decisions) and a feed-heavy one ("decisions": every event a decision, the
 * virtualised list's worst case). Snapshot mode (the host's folded snapshot, what a reopened
 * panel gets) and streamed mode (events in batches, what a live run sends). Prints a table;
 * exits non-zero on a CSP violation or a page error.
 * A third case paints the Results tab with 2,000 items × 20 versions and scrolls it (its own table);
 * a fourth, a code search of 5,000 programs on its Programs tab: the chart drawn, the archive scrolled;
 * a fifth paints the Programs view's Genealogy and Throughput sections (programSections.ts).
 * Usage: npm run bench:panel [-- --shots DIR [--tour-only]] [-- --results-only] [-- --programs-only] [-- --sections-only]
 */
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { lightEvent } from '../../src/extension/panel/controller';
import { panelHtml } from '../../src/extension/panel/html';
import { RunStore } from '../../src/extension/runs/runStore';
import type { DecisionRecord } from '../../src/core/gates/record';
import type { HostMessage } from '../../src/protocol/webview';
import type { ResultsTable } from '../../src/panelState/results';
import { syntheticRun } from '../../test/unit/webview/syntheticRun';
import { syntheticSearch } from '../../test/unit/webview/syntheticSearch';
import { stubHostScript, type BenchTheme } from './stubHost';
import { tour } from './tour';
import { programSections } from './programSections';
import type { PanelEvent } from '../../src/panelState/types';

const ORIGIN = 'https://panel.bench';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--enable-precise-memory-info'];
const SIZES = [1_000, 10_000];
const STREAM_BATCH = 500;
/** Each case runs this many times on a fresh page; the table shows medians (the machine is shared). */
const REPEATS = 3;
const shotsDir = (() => {
  const i = process.argv.indexOf('--shots');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();

type Dataset = 'run' | 'decisions';

interface Row {
  dataset: Dataset;
  events: number;
  mode: 'snapshot' | 'streamed';
  decisions: number;
  bootMs: number;
  paintMs: number;
  heapMb: number;
  heapDeltaMb: number;
  domNodes: number;
  scrollP95Ms: number;
  scrollWorkMs: number;
  longTasks: number;
}

async function bundle(): Promise<string> {
  const result = await esbuild.build({
    entryPoints: ['webview/main.ts'],
    bundle: true,
    minify: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.css': 'text' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

async function serve(context: BrowserContext, script: string): Promise<void> {
  const pages: Record<string, string> = {};
  const require = createRequire(join(process.cwd(), 'package.json'));
  const codicons = dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  for (const theme of ['dark', 'light', 'hc'] as BenchTheme[]) {
    pages[`/index-${theme}.html`] = panelHtml({
      cspSource: ORIGIN,
      nonce: 'YmVuY2gtbm9uY2UtMTIzNA==',
      scriptUri: `${ORIGIN}/out/webview.js`,
      codiconsUri: `${ORIGIN}/out/codicons/codicon.css`,
      preludeScript: stubHostScript(theme),
      title: 'Ratchet bench',
    });
  }
  const files: Record<string, { body: Buffer | string; type: string }> = {
    ...Object.fromEntries(Object.entries(pages).map(([path, body]) => [path, { body, type: 'text/html' }])),
    '/out/webview.js': { body: script, type: 'text/javascript' },
    '/out/codicons/codicon.css': { body: readFileSync(join(codicons, 'codicon.css')), type: 'text/css' },
    '/out/codicons/codicon.ttf': { body: readFileSync(join(codicons, 'codicon.ttf')), type: 'font/ttf' },
  };
  await context.route(`${ORIGIN}/**`, (route) => {
    const file = files[new URL(route.request().url()).pathname];
    return file ? route.fulfill({ status: 200, body: file.body, contentType: file.type }) : route.fulfill({ status: 404, body: '' });
  });
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 2 ** 20;
}

/** Opens a fresh panel page and waits for its view/ready. */
async function openPanel(context: BrowserContext, theme: BenchTheme = 'dark'): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.goto(`${ORIGIN}/index-${theme}.html`);
  await page.waitForFunction(() => (window as unknown as { __bench: { sent: { type: string }[] } }).__bench.sent.some((m) => m.type === 'view/ready'));
  return page;
}

/** Posts messages the way VS Code does (window message events) and times until the panel has painted `expected` events and a frame went by. */
async function deliverAndPaint(page: Page, messages: HostMessage[], expected: number): Promise<number> {
  return page.evaluate(
    async ({ messages, expected }) => {
      const app = document.querySelector<HTMLElement>('ratchet-panel-app')!;
      const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
      const t0 = performance.now();
      // Each message is its own task, as with VS Code; a host catching up sends them back to back.
      for (const m of messages) window.postMessage(m, '*');
      while (app.dataset.paintedEvents !== String(expected)) await frame();
      await frame();
      return performance.now() - t0;
    },
    { messages, expected },
  );
}

/** Scrolls the verdict feed like a fast mouse wheel (96 px a frame, 120 frames, wrapping at the end); frame intervals show whether it keeps up. */
async function scrollFeed(page: Page, listSelector = 'ratchet-verdict-feed ratchet-virtual-list'): Promise<{ p95: number; longTasks: number; workMs: number }> {
  // Frame intervals include software raster (--disable-gpu); the CDP task metrics separate what the
  // panel itself costs per step: script, style and layout.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const work = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    return (get('ScriptDuration') + get('RecalcStyleDuration') + get('LayoutDuration')) * 1000;
  };
  const before = await work();
  const result = await page.evaluate(async (listSelector) => {
    const list = document.querySelector<HTMLElement>(listSelector)!;
    const frame = () => new Promise<number>((r) => requestAnimationFrame((t) => r(t)));
    let longTasks = 0;
    const observer = new PerformanceObserver((l) => (longTasks += l.getEntries().length));
    observer.observe({ type: 'longtask' });
    const intervals: number[] = [];
    let last = await frame();
    const steps = 120;
    const room = Math.max(1, list.scrollHeight - list.clientHeight);
    for (let i = 1; i <= steps; i++) {
      list.scrollTop = (i * 96) % room;
      const now = await frame();
      intervals.push(now - last);
      last = now;
    }
    observer.disconnect();
    intervals.sort((a, b) => a - b);
    return { p95: intervals[Math.floor(intervals.length * 0.95)] ?? 0, longTasks, steps };
  }, listSelector);
  const workMs = ((await work()) - before) / result.steps;
  await cdp.detach();
  return { p95: result.p95, longTasks: result.longTasks, workMs };
}

/** A feed-heavy run: every event after the first is a decision, so the list holds `count − 1` rows. */
function decisionStorm(count: number, startAt: number): PanelEvent[] {
  const [first] = syntheticRun({ count: 1, startAt });
  const out: PanelEvent[] = [first!];
  for (let i = 1; i < count; i++) {
    const decision = i % 7 === 0 ? 'commit' : 'reject';
    const record: DecisionRecord = {
      candidateId: `d${String(i).padStart(7, '0')}`,
      parentId: 'd0000000',
      incumbentId: 'd0000000',
      gate: 'pace+',
      configHash: 'cfg',
      alpha: 0.05,
      schedule: 'per-candidate',
      ledgerBefore: { tested: i - 1, commits: 0 },
      threshold: 20,
      orderSeed: i,
      itemsConsumed: 12 + (i % 28),
      wins: 6,
      losses: i % 5,
      ties: 3,
      logWealth: decision === 'commit' ? 3.1 : -1 - (i % 3),
      decision,
      reason: decision === 'commit' ? 'evidence' : 'futile',
      candidateCalls: 20,
      incumbentCalls: 4,
    };
    out.push({ runId: first!.runId, at: startAt + i * 37, type: 'decision', record });
  }
  return out;
}

async function measure(context: BrowserContext, dataset: Dataset, events: number, mode: Row['mode']): Promise<Row> {
  const startAt = Date.now() - events * 37;
  const runEvents = dataset === 'run' ? syntheticRun({ count: events, pairwise: true, startAt }) : decisionStorm(events, startAt);
  const store = new RunStore();
  const page = await openPanel(context);
  const bootMs = await page.evaluate(() => (window as unknown as { __bench: { readyAt: number } }).__bench.readyAt);
  const baseline = await heapMb(page);
  let paintMs: number;
  if (mode === 'snapshot') {
    store.appendAll(runEvents);
    const run = store.snapshot(runEvents[0]!.runId)!;
    paintMs = await deliverAndPaint(page, [{ type: 'run/snapshot', runs: store.runs(), run }], events);
  } else {
    store.append(runEvents[0]!);
    const first: HostMessage = { type: 'run/snapshot', runs: store.runs(), run: store.snapshot(runEvents[0]!.runId) };
    const batches: HostMessage[] = [first];
    for (let i = 1; i < runEvents.length; i += STREAM_BATCH) {
      batches.push({ type: 'run/events', runId: runEvents[0]!.runId, events: runEvents.slice(i, i + STREAM_BATCH).map(lightEvent) });
    }
    paintMs = await deliverAndPaint(page, batches, events);
  }
  const heap = await heapMb(page);
  const { decisions, domNodes } = await page.evaluate(() => ({
    decisions: document.querySelector('ratchet-verdict-feed ratchet-virtual-list')!.getAttribute('aria-label')
      ? (document.querySelector('ratchet-panel-app') as unknown as { runState: { decisions: unknown[] } }).runState.decisions.length
      : 0,
    domNodes: document.getElementsByTagName('*').length,
  }));
  const scroll = await scrollFeed(page);
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `panel-${dataset}-${events}-${mode}.png`) });
  const problems = await page.evaluate(() => (window as unknown as { __bench: { csp: string[]; errors: string[] } }).__bench);
  if (problems.csp.length > 0 || problems.errors.length > 0) {
    throw new Error(`page problems at ${events} ${mode}: CSP ${JSON.stringify(problems.csp)} errors ${JSON.stringify(problems.errors)}`);
  }
  await page.close();
  return { dataset, events, mode, decisions, bootMs, paintMs, heapMb: heap, heapDeltaMb: heap - baseline, domNodes, scrollP95Ms: scroll.p95, scrollWorkMs: scroll.workMs, longTasks: scroll.longTasks };
}

interface ResultsRow {
  items: number;
  versions: number;
  paintMs: number;
  domNodes: number;
  scrollP95Ms: number;
  scrollWorkMs: number;
  longTasks: number;
}

/** A results table of `items` × `versions`, about a third of the cells failing, in a fixed pattern. */
function resultsTable(runId: string, items: number, versions: number): ResultsTable {
  return {
    runId,
    versions: Array.from({ length: versions }, (_, j) => ({ id: j === 0 ? 'v0' : `c${j}`, baseline: j === 0, ...(j === 0 ? {} : { decision: j % 4 === 0 ? ('commit' as const) : ('reject' as const) }) })),
    items: Array.from({ length: items }, (_, i) => ({
      itemId: `item-${String(i).padStart(5, '0')}`,
      split: i % 5 === 0 ? ('test' as const) : ('dev' as const),
      text: `Question ${i}: a train leaves at ${i % 24}:00 and travels ${(i * 37) % 500} km; when does it arrive?`,
    })),
    scores: Array.from({ length: items }, (_, i) => Array.from({ length: versions }, (_, j) => ((i * 7 + j * 3) % 3 === 0 ? 0 : 1))),
    passFail: true,
  };
}

/** The Results tab with a 2,000 × 20 table: time to paint it, and the scroll through its rows. */
async function measureResults(context: BrowserContext, items: number, versions: number): Promise<ResultsRow> {
  const startAt = Date.now() - 1000;
  const [first] = syntheticRun({ count: 1, startAt });
  const store = new RunStore();
  store.append(first!);
  const page = await openPanel(context);
  await deliverAndPaint(page, [{ type: 'run/snapshot', runs: store.runs(), run: store.snapshot(first!.runId) }], 1);
  await page.evaluate(() => (document.querySelector('ratchet-panel-app') as unknown as { showTab(tab: string): void }).showTab('results'));
  const table = resultsTable(first!.runId, items, versions);
  const paintMs = await page.evaluate(
    async ({ table, items }) => {
      const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
      const t0 = performance.now();
      window.postMessage({ type: 'results/show', table }, '*');
      const count = () => document.querySelector('ratchet-results-view .results-count')?.textContent;
      while (count() !== `${items} of ${items} items`) await frame();
      await frame();
      return performance.now() - t0;
    },
    { table, items },
  );
  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  const scroll = await scrollFeed(page, 'ratchet-results-view ratchet-virtual-list');
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `panel-results-${items}x${versions}.png`) });
  const problems = await page.evaluate(() => (window as unknown as { __bench: { csp: string[]; errors: string[] } }).__bench);
  if (problems.csp.length > 0 || problems.errors.length > 0) throw new Error(`page problems in the results case: CSP ${JSON.stringify(problems.csp)} errors ${JSON.stringify(problems.errors)}`);
  await page.close();
  return { items, versions, paintMs, domNodes, scrollP95Ms: scroll.p95, scrollWorkMs: scroll.workMs, longTasks: scroll.longTasks };
}

function printResultsTable(rows: ResultsRow[]): void {
  const head = ['results items', 'versions', 'first paint ms', 'DOM nodes', 'scroll frame p95 ms', 'scroll work ms/step', 'long tasks'];
  const body = rows.map((r) => [String(r.items), String(r.versions), r.paintMs.toFixed(0), String(r.domNodes), r.scrollP95Ms.toFixed(1), r.scrollWorkMs.toFixed(1), String(r.longTasks)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  console.log(`\n${line(head)}`);
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
  console.log(`Results tab: medians of ${REPEATS} fresh pages; first paint = results/show posted → rows painted and one frame presented. Goal: scroll frame p95 ≤ 16.7 ms (60 fps).`);
}

interface ProgramsRow {
  programs: number;
  paintMs: number;
  domNodes: number;
  scrollP95Ms: number;
  scrollWorkMs: number;
  longTasks: number;
}

/** A code search's snapshot opening on the Programs tab: time to the chart drawn with every program, and the scroll through the archive. */
async function measurePrograms(context: BrowserContext, programs: number): Promise<ProgramsRow> {
  const events = syntheticSearch({ programs, islands: 4, startAt: Date.now() - programs * 4 * 37 });
  const store = new RunStore();
  store.appendAll(events);
  const page = await openPanel(context);
  const snapshot: HostMessage = { type: 'run/snapshot', runs: store.runs(), run: store.snapshot(events[0]!.runId) };
  const paintMs = await page.evaluate(
    async ({ snapshot, programs }) => {
      const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
      const t0 = performance.now();
      window.postMessage(snapshot, '*');
      const drawn = () => document.querySelector('ratchet-score-chart .chart-summary')?.textContent?.startsWith(`${programs} programs evaluated`) === true && document.querySelector('ratchet-score-chart canvas') !== null;
      while (!drawn()) await frame();
      await frame();
      return performance.now() - t0;
    },
    { snapshot, programs },
  );
  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  const scroll = await scrollFeed(page, 'ratchet-programs-view ratchet-virtual-list');
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `panel-programs-${programs}.png`) });
  const problems = await page.evaluate(() => (window as unknown as { __bench: { csp: string[]; errors: string[] } }).__bench);
  if (problems.csp.length > 0 || problems.errors.length > 0) throw new Error(`page problems in the programs case: CSP ${JSON.stringify(problems.csp)} errors ${JSON.stringify(problems.errors)}`);
  await page.close();
  return { programs, paintMs, domNodes, scrollP95Ms: scroll.p95, scrollWorkMs: scroll.workMs, longTasks: scroll.longTasks };
}

function printProgramsTable(rows: ProgramsRow[]): void {
  const head = ['programs', 'first paint ms', 'DOM nodes', 'archive scroll p95 ms', 'scroll work ms/step', 'long tasks'];
  const body = rows.map((r) => [String(r.programs), r.paintMs.toFixed(0), String(r.domNodes), r.scrollP95Ms.toFixed(1), r.scrollWorkMs.toFixed(1), String(r.longTasks)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  console.log(`\n${line(head)}`);
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
  console.log(`Programs tab: medians of ${REPEATS} fresh pages; first paint = a search's run/snapshot posted → Score over time drawn with every program and one frame presented. Goal: scroll frame p95 ≤ 16.7 ms (60 fps).`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function measureMedian(context: BrowserContext, dataset: Dataset, events: number, mode: Row['mode']): Promise<Row> {
  const runs: Row[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await measure(context, dataset, events, mode));
  const pick = (f: (r: Row) => number) => median(runs.map(f));
  return {
    ...runs[0]!,
    paintMs: pick((r) => r.paintMs),
    bootMs: pick((r) => r.bootMs),
    heapMb: pick((r) => r.heapMb),
    heapDeltaMb: pick((r) => r.heapDeltaMb),
    scrollP95Ms: pick((r) => r.scrollP95Ms),
    scrollWorkMs: pick((r) => r.scrollWorkMs),
    longTasks: pick((r) => r.longTasks),
  };
}

function printTable(rows: Row[], bundleBytes: number): void {
  const head = ['run', 'events', 'mode', 'decisions', 'boot ms', 'first paint ms', 'JS heap MB', 'heap Δ MB', 'DOM nodes', 'scroll frame p95 ms', 'scroll work ms/step', 'long tasks'];
  const body = rows.map((r) => [
    r.dataset,
    String(r.events),
    r.mode,
    String(r.decisions),
    r.bootMs.toFixed(0),
    r.paintMs.toFixed(0),
    r.heapMb.toFixed(1),
    r.heapDeltaMb.toFixed(1),
    String(r.domNodes),
    r.scrollP95Ms.toFixed(1),
    r.scrollWorkMs.toFixed(1),
    String(r.longTasks),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
  console.log(`\nMedians of ${REPEATS} fresh pages. Boot: navigation → view/ready (bundle loaded and mounted).`);
  console.log('First paint: host message posted → panel painted and one frame presented.');
  console.log('Scroll: 120 frames at 96 px a frame; work = script + style + layout per frame (raster is software here: --disable-gpu).');
  console.log(`out/webview.js minified: ${(bundleBytes / 1024).toFixed(0)} KB (goal ≤ 400 KB). Goal: 10k events paint in ≤ 500 ms. Load average at the end: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`);
}

async function main(): Promise<void> {
  const script = await bundle();
  const userDataDir = mkdtempSync(join(tmpdir(), 'ratchet-bench-panel-'));
  if (shotsDir) mkdirSync(shotsDir, { recursive: true });
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    await serve(context, script);
    const rows: Row[] = [];
    // --tour-only (with --shots): screenshots of every tab without the timings.
    const measureAll = !['--tour-only', '--results-only', '--programs-only', '--sections-only'].some((flag) => process.argv.includes(flag));
    for (const dataset of measureAll ? (['run', 'decisions'] as const) : []) {
      for (const events of SIZES) for (const mode of ['snapshot', 'streamed'] as const) rows.push(await measureMedian(context, dataset, events, mode));
    }
    if (measureAll) printTable(rows, Buffer.byteLength(script));
    if (measureAll || process.argv.includes('--results-only')) {
      const runs: ResultsRow[] = [];
      for (let i = 0; i < REPEATS; i++) runs.push(await measureResults(context, 2_000, 20));
      const pick = (f: (r: ResultsRow) => number) => median(runs.map(f));
      printResultsTable([{ ...runs[0]!, paintMs: pick((r) => r.paintMs), domNodes: pick((r) => r.domNodes), scrollP95Ms: pick((r) => r.scrollP95Ms), scrollWorkMs: pick((r) => r.scrollWorkMs), longTasks: pick((r) => r.longTasks) }]);
    }
    if (measureAll || process.argv.includes('--programs-only')) {
      const runs: ProgramsRow[] = [];
      for (let i = 0; i < REPEATS; i++) runs.push(await measurePrograms(context, 5_000));
      const pick = (f: (r: ProgramsRow) => number) => median(runs.map(f));
      printProgramsTable([{ ...runs[0]!, paintMs: pick((r) => r.paintMs), domNodes: pick((r) => r.domNodes), scrollP95Ms: pick((r) => r.scrollP95Ms), scrollWorkMs: pick((r) => r.scrollWorkMs), longTasks: pick((r) => r.longTasks) }]);
    }
    if (measureAll || process.argv.includes('--sections-only')) await programSections(context, { openPanel, deliverAndPaint, scrollFeed, median, repeats: REPEATS, shotsDir });
    if (shotsDir) {
      writeFileSync(join(shotsDir, 'panel-bench.json'), JSON.stringify(rows, null, 2));
      const store = new RunStore();
      const events = syntheticRun({ count: 3000, pairwise: true, startAt: Date.now() - 3000 * 37 });
      store.appendAll(events);
      await tour(context, store, events[0]!.runId, shotsDir, openPanel);
      console.log(`Screenshots in ${shotsDir}`);
    }
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
