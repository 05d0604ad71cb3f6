import { appendFile, readFile, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournaledEvent } from '../../../src/core/journal/events';
import { appendProvenance, parseProvenance, provenancePath, provenanceRecord, readProvenance } from '../../../src/core/journal/provenance';
import type { ProvenanceRecord } from '../../../src/core/journal/provenance';
import { ProvenanceRecorder } from '../../../src/core/setup/provenanceControl';
import { NodeFiles } from '../../../src/node/files';
import { ManualClock, decisionRecord, tempWorkspace } from './journalHelpers';
import type { RunControl, Suggestion } from '../../../src/core/journal/control';

const files = new NodeFiles();
let root: string;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ root, dispose } = await tempWorkspace());
});
afterEach(async () => dispose());

const FILE = 'math/word-problems.prompt.md';

function record(candidateId: string, over: Partial<ProvenanceRecord> = {}): ProvenanceRecord {
  return {
    ...provenanceRecord({
      file: FILE,
      runId: '20261129-223412-a1b2c3',
      candidateId,
      by: 'user',
      at: '2026-11-29T22:40:00.000Z',
      decision: decisionRecord({ candidateId }),
      decisionSeq: 14,
      before: 'Solve it.\n',
      after: `Solve it.\nHint ${candidateId}.\n`,
    }),
    ...over,
  };
}

describe('the provenance store', () => {
  it('appends records to the file’s own log under .ratchet/provenance and reads them back oldest first', async () => {
    await appendProvenance(files, root, record('c1'));
    await appendProvenance(files, root, record('c2', { by: 'autopilot' }));
    await appendProvenance(files, root, record('c1', { file: 'other.prompt.md' }));

    expect(await readProvenance(files, root, FILE)).toEqual({ records: [record('c1'), record('c2', { by: 'autopilot' })], skipped: [] });
    expect((await readProvenance(files, root, 'other.prompt.md')).records).toEqual([record('c1', { file: 'other.prompt.md' })]);
    expect((await readdir(path.join(root, '.ratchet', 'provenance'))).length).toBe(2);
    // One JSON object per line: appending never rewrites what was there.
    const lines = (await readFile(provenancePath(files, root, FILE), 'utf8')).split('\n');
    expect(lines.map((l) => (l === '' ? '' : (JSON.parse(l) as ProvenanceRecord).candidateId))).toEqual(['c1', 'c2', '']);
  });

  it('keeps the evidence of the commit decision: wealth, threshold, pairs and the gate', () => {
    expect(record('c1').evidence).toEqual({ gate: 'pace+', reason: 'evidence', logWealth: 3.1, threshold: 20, wins: 7, losses: 0, ties: 2, itemsConsumed: 9, statistic: { evidence: 22.2 } });
    expect(() => provenanceRecord({ ...record('c1'), decision: decisionRecord({ candidateId: 'c1', decision: 'reject' }) })).toThrow(/reject decision/);
  });

  it('reads an empty history for a file with no log', async () => {
    expect(await readProvenance(files, root, FILE)).toEqual({ records: [], skipped: [] });
  });

  it('drops a last line torn by a crash, and the next append starts on a line of its own', async () => {
    await appendProvenance(files, root, record('c1'));
    const log = provenancePath(files, root, FILE);
    // A crash mid-append: half a record, no newline.
    await appendFile(log, JSON.stringify(record('c2')).slice(0, 40));

    const torn = await readProvenance(files, root, FILE);
    expect(torn.records).toEqual([record('c1')]);
    expect(torn.skipped).toEqual([`${log}:2: an unfinished last line (a write was interrupted)`]);

    await appendProvenance(files, root, record('c3'));
    const after = await readProvenance(files, root, FILE);
    expect(after.records).toEqual([record('c1'), record('c3')]);
    expect(after.skipped).toEqual([`${log}:2: not valid JSON (a write was interrupted)`]);
  });

  it('counts a record written twice (a resumed run) once, and skips records of a newer format', () => {
    const text = [record('c1'), record('c1', { at: '2026-11-30T00:00:00.000Z' }), { ...record('c2'), format: 99 }].map((r) => JSON.stringify(r)).join('\n') + '\n';
    expect(parseProvenance(text, 'log.jsonl')).toEqual({ records: [record('c1')], skipped: ['log.jsonl:3: written by a newer Ratchet (format 99); update Ratchet'] });
  });
});

describe('ProvenanceRecorder: the RunControl every face’s accepted edits pass through', () => {
  const suggestion: Suggestion = { candidateId: 'c1', file: '/ws/math/word-problems.prompt.md', baseText: 'Solve it.\n', newText: 'Solve it.\nHint c1.\n' };
  const decision = (candidateId: string, seq: number, record = decisionRecord({ candidateId })): JournaledEvent => ({ type: 'decision', runId: 'r1', at: 0, seq, record });

  function recorder(outcome: 'applied' | 'dry-run' | 'stale') {
    const warnings: string[] = [];
    const rec = new ProvenanceRecorder({ files, clock: new ManualClock(), log: { log: (_level, message) => warnings.push(message) }, root, file: FILE, runId: () => 'r1', runKind: 'evolve' });
    const inner: RunControl = { decide: () => Promise.resolve('accept'), apply: () => Promise.resolve(outcome) };
    return { rec, control: rec.control(inner), warnings };
  }

  it('records who accepted an applied edit, when, and the journal seq of its decision', async () => {
    const { rec, control } = recorder('applied');
    rec.observe(decision('c1', 14));
    expect(await control.apply(suggestion, 'autopilot')).toBe('applied');
    expect((await readProvenance(files, root, FILE)).records).toEqual([
      { ...record('c1'), runId: 'r1', runKind: 'evolve', by: 'autopilot', at: '2026-11-29T22:34:12.000Z', before: suggestion.baseText, after: suggestion.newText, decisionSeq: 14 },
    ]);
  });

  it('records nothing for an edit that did not reach the file', async () => {
    for (const outcome of ['dry-run', 'stale'] as const) {
      const { rec, control } = recorder(outcome);
      rec.observe(decision('c1', 14));
      expect(await control.apply(suggestion, 'user')).toBe(outcome);
    }
    expect((await readProvenance(files, root, FILE)).records).toEqual([]);
  });

  it('still reports the edit applied when its decision is unknown, and says why nothing was recorded', async () => {
    const { rec, control, warnings } = recorder('applied');
    rec.observe(decision('c1', 3, decisionRecord({ candidateId: 'c1', decision: 'reject' })));
    expect(await control.apply(suggestion, 'user')).toBe('applied');
    expect(warnings).toEqual(['The provenance of c1 (run r1) was not recorded: no commit decision for c1 was journaled.']);
  });
});
