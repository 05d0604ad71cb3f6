/**
 * bench:panel's Programs sections case: a 5,000-program code search (a seeded synthetic one,
 * test/unit/webview/syntheticSearch.ts) reaches the panel as a snapshot, with the evaluator load
 * as the host posts it; the Genealogy and Throughput sections are then mounted on their own and
 * handed the run, and the genealogy scrolls. Then the same search on Slurm (each child an array
 * job of 4 shards: 20,000 tasks and their events more). Prints its own table; with --shots,
 * screenshots in the three themes.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { RunStore } from '../../src/extension/runs/runStore';
import type { HostMessage } from '../../src/protocol/webview';
import { syntheticSearch } from '../../test/unit/webview/syntheticSearch';
import type { BenchTheme } from './stubHost';

/** What main.ts measures with, handed in (main.ts runs the bench when imported). */
export interface SectionsDeps {
  openPanel(context: BrowserContext, theme: BenchTheme): Promise<Page>;
  deliverAndPaint(page: Page, messages: HostMessage[], expected: number): Promise<number>;
  scrollFeed(page: Page, listSelector: string): Promise<{ p95: number; longTasks: number; workMs: number }>;
  median(xs: number[]): number;
  repeats: number;
  shotsDir: string | undefined;
}

const PROGRAMS = 5_000;
/** Shards per child in the Slurm variant (one array task each). */
const SLURM_SHARDS = 4;

export async function programSections(context: BrowserContext, deps: SectionsDeps): Promise<void> {
  const rows: SectionsRow[] = [];
  for (const slurmShards of [undefined, SLURM_SHARDS]) {
    const runs: SectionsRow[] = [];
    for (let i = 0; i < deps.repeats; i++) runs.push(await measure(context, deps, PROGRAMS, 'dark', slurmShards));
    // The other themes for the screenshots only.
    if (deps.shotsDir) for (const theme of ['light', 'hc'] as const) await measure(context, deps, PROGRAMS, theme, slurmShards);
    const pick = (f: (r: SectionsRow) => number) => deps.median(runs.map(f));
    rows.push({
      ...runs[0]!,
      snapshotMs: pick((r) => r.snapshotMs),
      paintMs: pick((r) => r.paintMs),
      domNodes: pick((r) => r.domNodes),
      scrollP95Ms: pick((r) => r.scrollP95Ms),
      scrollWorkMs: pick((r) => r.scrollWorkMs),
      longTasks: pick((r) => r.longTasks),
    });
  }
  printTable(rows, deps.repeats);
}

interface SectionsRow {
  programs: number;
  /** 'local', or 'slurm ×4' for the search whose children ran as array jobs. */
  evaluator: string;
  events: number;
  marks: number;
  /** The whole panel painting the run's snapshot (header, verdict feed…), before the sections. */
  snapshotMs: number;
  paintMs: number;
  domNodes: number;
  scrollP95Ms: number;
  scrollWorkMs: number;
  longTasks: number;
}

/**
 * The Programs view's Genealogy and Throughput sections on a 5,000-program search: the run's
 * snapshot reaches the panel as usual, then the two elements are mounted on their own (the
 * Programs tab's container is another part's) and given the run; first paint = properties set →
 * every mark laid out, the throughput drawn and one frame presented. Then the genealogy scrolls.
 */
async function measure(context: BrowserContext, deps: SectionsDeps, programs: number, theme: BenchTheme, slurmShards: number | undefined): Promise<SectionsRow> {
  const { openPanel, deliverAndPaint, scrollFeed, shotsDir } = deps;
  const startAt = Date.now() - programs * 1_500;
  const events = syntheticSearch({ programs, islands: 4, seed: 11, startAt, ...(slurmShards === undefined ? {} : { slurmShards }) });
  const evaluator = slurmShards === undefined ? 'local' : `slurm ×${slurmShards}`;
  const store = new RunStore();
  store.appendAll(events);
  const runId = events[0]!.runId;
  const page = await openPanel(context, theme);
  const snapshotMs = await deliverAndPaint(page, [{ type: 'run/snapshot', runs: store.runs(), run: store.snapshot(runId) }], events.length);
  // The evaluator load as the host posts it while the search runs: 4 slots, a change every 25 s.
  const loads: HostMessage[] = Array.from({ length: 300 }, (_, i) => ({ type: 'programs/load', runId, at: startAt + i * 25_000, busy: [4, 3, 4, 2, 4, 4, 1, 3][i % 8]!, slots: 4 }));
  await page.evaluate((loads) => {
    for (const m of loads) window.postMessage(m, '*');
  }, loads);
  const { paintMs, marks } = await page.evaluate(async () => {
    const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
    const app = document.querySelector('ratchet-panel-app') as unknown as HTMLElement & { runState: { programs: unknown } };
    document.getElementById('root')!.hidden = true;
    const host = document.createElement('div');
    host.id = 'programs-bench';
    document.body.append(host);
    const t0 = performance.now();
    const genealogy = document.createElement('ratchet-programs-genealogy') as HTMLElement & { programs: unknown; runState: unknown };
    const throughput = document.createElement('ratchet-programs-throughput') as HTMLElement & { programs: unknown; runState: unknown };
    host.append(genealogy, throughput);
    for (const el of [genealogy, throughput]) {
      el.programs = app.runState.programs;
      el.runState = app.runState;
    }
    while (genealogy.dataset.marks === undefined || !throughput.querySelector('tbody tr')) await frame();
    await frame();
    return { paintMs: performance.now() - t0, marks: Number(genealogy.dataset.marks) };
  });
  const domNodes = await page.evaluate(() => document.getElementById('programs-bench')!.getElementsByTagName('*').length);
  const scroll = await scrollFeed(page, 'ratchet-programs-genealogy .genealogy-scroll');
  if (shotsDir) {
    // The first generations: the seed, the first commits and migrations.
    await page.evaluate(
      () =>
        new Promise((r) => {
          document.querySelector('ratchet-programs-genealogy .genealogy-scroll')!.scrollTop = 0;
          requestAnimationFrame(() => requestAnimationFrame(r));
        }),
    );
    await page.screenshot({ path: join(shotsDir, `panel-sections-${programs}${slurmShards === undefined ? '' : '-slurm'}-${theme}.png`), fullPage: true });
  }
  const problems = await page.evaluate(() => (window as unknown as { __bench: { csp: string[]; errors: string[] } }).__bench);
  if (problems.csp.length > 0 || problems.errors.length > 0) throw new Error(`page problems in the programs case: CSP ${JSON.stringify(problems.csp)} errors ${JSON.stringify(problems.errors)}`);
  await page.close();
  return { programs, evaluator, events: events.length, marks, snapshotMs, paintMs, domNodes, scrollP95Ms: scroll.p95, scrollWorkMs: scroll.workMs, longTasks: scroll.longTasks };
}

function printTable(rows: SectionsRow[], repeats: number): void {
  const head = ['programs', 'evaluator', 'events', 'genealogy marks', 'run snapshot paint ms', 'sections first paint ms', 'DOM nodes', 'scroll frame p95 ms', 'scroll work ms/step', 'long tasks'];
  const body = rows.map((r) => [
    String(r.programs),
    r.evaluator,
    String(r.events),
    String(r.marks),
    r.snapshotMs.toFixed(0),
    r.paintMs.toFixed(0),
    String(r.domNodes),
    r.scrollP95Ms.toFixed(1),
    r.scrollWorkMs.toFixed(1),
    String(r.longTasks),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  console.log(`\n${line(head)}`);
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
  console.log(`Programs view, Genealogy + Throughput sections: medians of ${repeats} fresh pages; marks = programs + failed proposals.`);
  console.log('Run snapshot paint: the run/snapshot posted → the panel painted it. Sections first paint: properties set → every mark laid out, the throughput drawn, one frame presented.');
  console.log('Scroll: the genealogy, 120 frames at 96 px a frame. Goal: scroll frame p95 ≤ 16.7 ms (60 fps).');
}
