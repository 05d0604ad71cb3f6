import { describe, expect, it } from 'vitest';
import type { ProvenanceRecord } from '../../../src/core/journal/provenance';
import { evidenceCommandUri, evidencePhrase, provenanceHoverMarkdown, timeAgo } from '../../../src/extension/provenance/hoverText';
import { lineOrigins } from '../../../src/extension/provenance/lineOrigin';

function edit(candidateId: string, before: string, after: string, over: Partial<ProvenanceRecord> = {}): ProvenanceRecord {
  return {
    format: 1,
    file: 'task.prompt.md',
    runId: '20261129-223412-a1b2c3',
    candidateId,
    by: 'user',
    at: '2026-11-29T22:40:00.000Z',
    evidence: { gate: 'pace+', reason: 'evidence', logWealth: Math.log(20.1), threshold: 20, wins: 6, losses: 0, ties: 3, itemsConsumed: 9 },
    decisionSeq: 14,
    before,
    after,
    ...over,
  };
}

const BASE = 'Solve the problem.\nAnswer with a number.\n';
const C1 = 'Solve the problem.\nHint 1: read the question twice.\nCheck units.\nAnswer with a number.\n';

/** Each line's candidate, or '-' for a line no accepted edit gave. */
const owners = (records: ProvenanceRecord[], text: string) => lineOrigins(records, text).map((r) => r?.candidateId ?? '-');

describe('lineOrigins: which accepted edit each current line came from', () => {
  it('gives the added lines of an accepted edit its record, and the untouched lines none', () => {
    expect(owners([edit('c1', BASE, C1)], C1)).toEqual(['-', 'c1', 'c1', '-', '-']);
  });

  it('takes a line edited by hand since away from the edit, and keeps the others', () => {
    const typed = C1.replace('Check units.', 'Check the units, please.');
    expect(owners([edit('c1', BASE, C1)], typed)).toEqual(['-', 'c1', '-', '-', '-']);
  });

  it('follows added lines that moved when the user inserted or deleted lines above them', () => {
    const moved = `# Task\n\n${C1.replace('Solve the problem.\n', '')}`;
    expect(moved.split('\n')).toEqual(['# Task', '', 'Hint 1: read the question twice.', 'Check units.', 'Answer with a number.', '']);
    expect(owners([edit('c1', BASE, C1)], moved)).toEqual(['-', '-', 'c1', 'c1', '-', '-']);
  });

  it('gives each line to the newest edit that added it; older edits keep the lines they added that survived', () => {
    const c2 = C1.replace('Check units.', 'Check units and show your work.') + 'Be brief.\n';
    expect(owners([edit('c1', BASE, C1), edit('c2', C1, c2, { runId: 'r2' })], c2)).toEqual(['-', 'c1', 'c2', '-', 'c2', '-']);
  });

  it('reads CRLF text as the same lines', () => {
    expect(owners([edit('c1', BASE, C1)], C1.replace(/\n/g, '\r\n'))).toEqual(['-', 'c1', 'c1', '-', '-']);
  });

  it('gives nothing when the file no longer has any of the added lines', () => {
    expect(owners([edit('c1', BASE, C1)], BASE)).toEqual(['-', '-', '-']);
  });
});

describe('the provenance hover', () => {
  const now = Date.parse('2026-11-29T22:43:00.000Z');
  const doc = 'file:///ws/task.prompt.md';

  it('says the run and candidate, the evidence, who accepted it and when, and links to its Evidence', () => {
    const r = edit('c1', BASE, C1);
    expect(provenanceHoverMarkdown(r, doc, now).split('\n')).toEqual([
      '**Ratchet** — this line came from candidate `c1` of run `20261129-223412-a1b2c3`',
      '',
      'PACE+: evidence ×20.1 after 6 discordant pairs (needs ×20)',
      '',
      `Accepted by you 3 minutes ago (${new Date(r.at).toLocaleString()})`,
      '',
      `[Show its Evidence](${evidenceCommandUri(doc, r)})`,
    ]);
    // The Evidence lens's own command and arguments: [uri, runId, candidateId].
    const uri = evidenceCommandUri(doc, r);
    expect(uri.startsWith('command:ratchet.showEvidence?')).toBe(true);
    expect(JSON.parse(decodeURIComponent(uri.slice(uri.indexOf('?') + 1)))).toEqual([doc, '20261129-223412-a1b2c3', 'c1']);
  });

  it('says autopilot for an edit the run wrote itself', () => {
    expect(provenanceHoverMarkdown(edit('c1', BASE, C1, { by: 'autopilot' }), doc, now)).toContain('Applied by autopilot 3 minutes ago');
  });

  it("names a code search's program, and words its evidence in instances", () => {
    const program = edit('p7', BASE, C1, { runKind: 'search', file: 'solve.py', evidence: { ...edit('p7', BASE, C1).evidence, gate: 'greedy', reason: 'greedy' } });
    const lines = provenanceHoverMarkdown(program, 'file:///ws/solve.py', now).split('\n');
    expect(lines.slice(0, 3)).toEqual(['**Ratchet** — this line came from program `p7` of code search `20261129-223412-a1b2c3`', '', 'Greedy: 6 won, 0 lost, 3 tied on 9 instances']);
  });

  it('words the evidence of gates without an e-process in their own numbers', () => {
    const e = edit('c1', BASE, C1).evidence;
    expect(evidencePhrase({ ...e, gate: 'sign', reason: 'p-value', statistic: { pValue: 0.0156 } })).toBe('p = 0.016 after 6 discordant pairs');
    expect(evidencePhrase({ ...e, gate: 'greedy', reason: 'greedy' })).toBe('6 won, 0 lost, 3 tied on 9 dev items');
    expect(evidencePhrase({ ...e, wins: 1 })).toBe('evidence ×20.1 after 1 discordant pair (needs ×20)');
  });

  it('says how long ago in words', () => {
    expect([30e3, 60e3, 5 * 60e3, 3 * 3600e3, 5 * 86400e3].map((ms) => timeAgo(now - ms, now))).toEqual(['just now', '1 minute ago', '5 minutes ago', '3 hours ago', '5 days ago']);
  });
});
