// @vitest-environment happy-dom
// The Programs view's Genealogy and Throughput sections as a user meets them: the genealogy takes
// focus, the arrow keys walk the programs and say where they are, Enter opens a program (or a
// failed proposal's parent with the failure); the throughput section words the failures, the
// models and what the slot timeline covers.
import { describe, expect, it } from 'vitest';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import type { ProgramSelectDetail, ProgramsGenealogy } from '../../../webview/components/programs-genealogy';
import type { ProgramsThroughput } from '../../../webview/components/programs-throughput';
import '../../../webview/components/programs-genealogy';
import '../../../webview/components/programs-throughput';
import { evaluatorLoads } from '../../../webview/model/evaluatorLoad';
import { syntheticSearch } from './syntheticSearch';

const frame = () => new Promise((r) => requestAnimationFrame(r));

function searchRun(programs: number) {
  return foldEvents(emptyRunState('search-1'), syntheticSearch({ programs, islands: 3, seed: 9 }));
}

function key(target: Element, k: string): void {
  target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
}

describe('Programs sections', () => {
  it('the genealogy walks programs with the keyboard and opens the one chosen, a failed proposal as its parent with the failure', async () => {
    const run = searchRun(300);
    const view = document.createElement('ratchet-programs-genealogy') as ProgramsGenealogy;
    document.body.replaceChildren(view);
    const opened: ProgramSelectDetail[] = [];
    document.body.addEventListener('program-select', (e) => opened.push((e as CustomEvent<ProgramSelectDetail>).detail));
    view.programs = run.programs;
    view.runState = run;
    await frame();
    expect(view.dataset.marks).toBe(String(300 + run.programs.failed.length));
    expect(view.textContent).toContain(`300 programs · ${run.programs.failed.length} failed proposals`);
    const drawing = view.querySelector<HTMLElement>('.genealogy-scroll')!;
    const status = view.querySelector('.genealogy-status')!;
    drawing.focus();
    drawing.dispatchEvent(new FocusEvent('focus'));
    expect(status.textContent).toMatch(/^p0: island 0, generation 0, seed, score 0\.5000, committed, new best/);
    key(drawing, 'ArrowDown');
    key(drawing, 'Enter');
    const below = view.activeMark!;
    expect(below.generation).toBe(1);
    expect(opened.at(-1)).toEqual({ programId: below.programId });
    // A click on a failed proposal: it says its reason and message, and opens its parent with the failure.
    const failed = view.layout.marks.find((m) => m.kind === 'failed' && m.parent !== undefined)!;
    if (failed.kind !== 'failed') throw new Error('the run has no failed proposal');
    drawing.dispatchEvent(new MouseEvent('click', { clientX: failed.x - drawing.scrollLeft, clientY: failed.y - drawing.scrollTop, bubbles: true }));
    expect(opened.at(-1)).toEqual({ programId: failed.programId, failed: failed.n });
    expect(status.textContent).toContain(`Failed proposal #${failed.n} from ${failed.programId} on island ${failed.island} (`);
    expect(status.textContent).toContain('the SEARCH text was not found in the parent');
    key(drawing, 'Backspace');
    expect(view.activeMark?.kind === 'program' && view.activeMark.programId).toBe(failed.programId);
  });

  it('the throughput section words failures, models and what the slot timeline covers', async () => {
    const run = searchRun(120);
    run.status = 'finished';
    const view = document.createElement('ratchet-programs-throughput') as ProgramsThroughput;
    document.body.replaceChildren(view);
    view.runState = run;
    await frame();
    expect(view.textContent).toContain('No evaluator load seen in this window');
    const failureRows = [...view.querySelectorAll('table[aria-label="Proposal failures by kind"] tbody tr')].map((tr) => tr.textContent);
    expect(failureRows.length).toBeGreaterThan(0);
    expect(failureRows.join(' ')).toMatch(/patch.*diff did not apply/);
    const models = [...view.querySelectorAll('table[aria-label^="Proposer models"] tbody tr')].map((tr) => tr.firstElementChild!.textContent);
    expect(models.sort()).toEqual(['model-a', 'model-b', 'model-c']);
    expect(view.textContent).toContain('Dollars per model are not journaled');
    evaluatorLoads.record('search-1', { at: Date.UTC(2026, 0, 1, 12, 0, 0), busy: 2, slots: 4 });
    evaluatorLoads.record('search-1', { at: Date.UTC(2026, 0, 1, 12, 0, 30), busy: 4, slots: 4 });
    await frame();
    expect(view.querySelector('.throughput-slots-note')!.textContent).toMatch(/^What this window saw since .*\(the journal keeps no evaluator start or end\): slots busy 50 % of the time\. Now 4 of 4 busy\.$/);
  });

  it('a search on Slurm shows its tasks, what they cost and what Ratchet cancelled; a local one shows no such section', async () => {
    const local = searchRun(20);
    const view = document.createElement('ratchet-programs-throughput') as ProgramsThroughput;
    document.body.replaceChildren(view);
    view.runState = local;
    await frame();
    expect(view.querySelector<HTMLElement>('.throughput-cluster-note')!.hidden).toBe(true);

    const base = { runId: 'search-1', at: Date.UTC(2026, 0, 1, 12, 0, 0) };
    const at = (s: number) => ({ ...base, at: base.at + s * 1000 });
    const tasks = [0, 1, 2, 3].map((index) => ({ index, key: `k${index}`, instances: [`bp-00${index}`] }));
    const onSlurm = foldEvents(searchRun(20), [
      { ...at(1), type: 'slurm/submitted', jobId: '41', programHash: 'h', attempt: 1, dir: '/shared/r', tasks },
      { ...at(2), type: 'slurm/task', jobId: '41', index: 0, key: 'k0', attempt: 1, state: 'RUNNING' },
      { ...at(3), type: 'slurm/task', jobId: '41', index: 1, key: 'k1', attempt: 1, state: 'RUNNING' },
      { ...at(9), type: 'slurm/task', jobId: '41', index: 0, key: 'k0', attempt: 1, state: 'COMPLETED', outcome: 'done', clusterSeconds: 7200 },
      { ...at(10), type: 'slurm/task', jobId: '41', index: 1, key: 'k1', attempt: 1, state: 'OUT_OF_MEMORY', outcome: 'incorrect', clusterSeconds: 1800 },
      { ...at(10), type: 'slurm/cancelled', jobId: '41', indices: [2, 3], why: 'verdict' },
      { ...at(11), type: 'slurm/task', jobId: '41', index: 2, key: 'k2', attempt: 1, state: 'CANCELLED', outcome: 'cancelled' },
    ]);
    view.runState = onSlurm;
    await frame();
    const note = view.querySelector<HTMLElement>('.throughput-cluster-note')!;
    expect(note.hidden).toBe(false);
    expect([...note.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      "4 tasks in 1 array job: 1 queued, 0 running, 3 over; 2.50 cluster-hours used by the finished ones (sacct's elapsed time × CPUs, what budget.clusterHours counts).",
      'Ended: 1 read, 1 counted incorrect, 1 cancelled (failed on the cluster: 1 OUT_OF_MEMORY).',
      "Ratchet cancelled 2 tasks the gate's verdict made unneeded.",
    ]);
    expect(view.querySelector('.chart[aria-label^="Slurm tasks over time"]')!.getAttribute('aria-label')).toBe('Slurm tasks over time: 1 queued and 0 running now, 3 over');
  });
});
