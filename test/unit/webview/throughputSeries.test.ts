// The Throughput section's numbers: evaluations per minute from the evaluation times, the slot
// timeline from the live status as the host posts it and the view keeps it, failures by kind, and
// the bandit's picks per model.
import { describe, expect, it } from 'vitest';
import { emptyCostReport } from '../../../src/core/llm/cost';
import type { LiveRunStatus } from '../../../src/core/journal/runStatus';
import { PanelController } from '../../../src/extension/panel/controller';
import { evaluatorSample } from '../../../src/extension/panel/evaluatorSample';
import { RunStore } from '../../../src/extension/runs/runStore';
import { emptyPrograms, foldProgramEvent } from '../../../src/panelState/programs';
import type { HostMessage } from '../../../src/protocol/webview';
import { EvaluatorLoads, LOAD_LIMITS } from '../../../webview/model/evaluatorLoad';
import { evaluationsPerMinute, failureRows, modelRows, slotSeries, slotUse } from '../../../webview/model/throughputSeries';
import { syntheticSearch } from './syntheticSearch';

const MIN = 60_000;

function programs(events = syntheticSearch({ programs: 200, islands: 2, seed: 4, startAt: 10 * MIN, spacingMs: 20_000 })) {
  const s = emptyPrograms();
  for (const e of events) foldProgramEvent(s, e);
  return s;
}

const status = (state: LiveRunStatus['state'], busy: number, slots = 4): LiveRunStatus => ({ runId: 's', state, tested: 0, commits: 0, line: '', evaluator: { busy, slots, runs: 0 } });

describe('throughput series', () => {
  it('counts evaluations per wall-clock minute, empty minutes included', () => {
    const s = programs();
    const rate = evaluationsPerMinute(s);
    expect(rate.perMinute.reduce((a, b) => a + b, 0)).toBe(s.evaluated.length);
    // One evaluation every 20 s: three a minute once the seeds' minute is past.
    expect(rate.perMinute.slice(1, -1).every((n) => n === 3)).toBe(true);
    expect(rate.x[1]! - rate.x[0]!).toBe(60);
    expect(evaluationsPerMinute(emptyPrograms())).toEqual({ x: [], perMinute: [] });
  });

  it('the slot timeline: the host posts each change of the live load, an ended run drops to idle, the view keeps a bounded history', () => {
    const store = new RunStore();
    const posted: HostMessage[] = [];
    const controller = new PanelController(store, { post: (m) => posted.push(m) }, {} as never);
    controller.evaluatorLoad('s', { at: 1, busy: 1, slots: 4 });
    expect(posted).toEqual([]); // no view yet
    controller.receive({ type: 'view/ready', runId: undefined });
    posted.length = 0;
    const changes: [LiveRunStatus, LiveRunStatus | undefined][] = [
      [status('running', 2), undefined],
      [status('running', 2), status('running', 2)], // another field changed: no sample
      [status('running', 4), status('running', 2)],
      [status('finished', 4), status('running', 4)],
    ];
    changes.forEach(([now, before], i) => {
      const sample = evaluatorSample(now, before, (i + 1) * 1000);
      if (sample) controller.evaluatorLoad('s', sample);
    });
    expect(posted).toEqual([
      { type: 'programs/load', runId: 's', at: 1000, busy: 2, slots: 4 },
      { type: 'programs/load', runId: 's', at: 3000, busy: 4, slots: 4 },
      { type: 'programs/load', runId: 's', at: 4000, busy: 0, slots: 4 },
    ]);
    const loads = new EvaluatorLoads();
    for (const m of posted) if (m.type === 'programs/load') loads.record(m.runId, m);
    const series = slotSeries(loads.samples('s'), 6000);
    expect(series).toEqual({ x: [1, 3, 4, 6], busy: [2, 4, 0, 0], slots: [4, 4, 4, 4] });
    // 2 of 4 for 2 s, 4 of 4 for 1 s, idle for 2 s: 8 busy slot-seconds of 20.
    expect(slotUse(loads.samples('s'), 6000)).toBeCloseTo(8 / 20);
    for (let i = 0; i < LOAD_LIMITS.samples + 50; i++) loads.record('s', { at: 10_000 + i, busy: i % 3, slots: 4 });
    expect(loads.samples('s')).toHaveLength(LOAD_LIMITS.samples);
    for (let r = 0; r < LOAD_LIMITS.runs + 2; r++) loads.record(`run-${r}`, { at: 1, busy: 1, slots: 1 });
    expect(loads.samples('s')).toEqual([]);
    expect(loads.samples(`run-${LOAD_LIMITS.runs + 1}`)).toHaveLength(1);
  });

  it('failures by kind share every proposal asked for; models show the bandit’s picks, dollars only when one model wrote all', () => {
    const s = programs();
    const rows = failureRows(s);
    const failed = s.failed.length;
    expect(rows.reduce((n, r) => n + r.count, 0)).toBe(failed);
    const children = s.order.filter((id) => s.nodes[id]!.parentId !== undefined).length;
    const asked = children + failed;
    for (const r of rows) expect(r.share).toBeCloseTo(r.count / asked);
    expect(rows.map((r) => r.count)).toEqual([...rows.map((r) => r.count)].sort((a, b) => b - a));
    const cost = emptyCostReport();
    cost.proposer.dollars = 1.25;
    const models = modelRows(s, cost);
    expect(models.map((m) => m.model).sort()).toEqual(['model-a', 'model-b', 'model-c']);
    expect(models.reduce((n, m) => n + m.proposals, 0)).toBe(children);
    expect(models.reduce((n, m) => n + m.failed, 0)).toBe(failed);
    expect(models.every((m) => m.dollars === undefined)).toBe(true);
    const one = programs(syntheticSearch({ programs: 50, islands: 2, seed: 4, models: ['only'] }));
    expect(modelRows(one, cost)).toMatchObject([{ model: 'only', dollars: 1.25 }]);
  });
});
