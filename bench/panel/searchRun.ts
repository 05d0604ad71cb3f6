/**
 * A seeded synthetic code search for the panel bench's Programs case: `programs` programs on four
 * islands, each a child of its island's incumbent (or of a random earlier one), evaluated in order
 * with one in ten incorrect, the gate committing a child that beats its island's incumbent, and a
 * ring migration every 50 programs, in the order the engine emits these events.
 */
import type { DecisionRecord } from '../../src/core/gates/record';
import { SeededRandom } from '../../src/core/random';
import type { PanelEvent } from '../../src/protocol/webview';

const ISLANDS = 4;

export function syntheticSearch(programs: number, startAt: number, runId = 'run-search'): PanelEvent[] {
  const rnd = new SeededRandom(11);
  let at = startAt;
  const ev = (e: Record<string, unknown>): PanelEvent => ({ runId, at: (at += 37), ...e }) as unknown as PanelEvent;
  const out: PanelEvent[] = [ev({ type: 'run/started', info: { kind: 'search', target: 'pack.mjs', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } })];
  const seedText = 'export function pack() {\n  return construct();\n}\n';
  out.push(ev({ type: 'candidate/proposed', candidateId: 'p0', parentId: undefined, contentHash: 'h0', text: seedText }));
  out.push(ev({ type: 'program/evaluated', candidateId: 'p0', island: 0, correct: true, score: 1.5, instances: 24 }));
  const incumbents = Array.from({ length: ISLANDS }, () => ({ id: 'p0', score: 1.5 }));
  const all: { id: string; island: number }[] = [{ id: 'p0', island: 0 }];
  for (let n = 1; n < programs; n++) {
    const island = (n - 1) % ISLANDS;
    const inc = incumbents[island]!;
    const parent = rnd.next() < 0.8 ? inc.id : all[Math.floor(rnd.next() * all.length)]!.id;
    const id = `p${n}`;
    out.push(
      ev({
        type: 'candidate/proposed',
        candidateId: id,
        parentId: parent,
        contentHash: `h${n}`,
        text: `${seedText}// variant ${n}\n`,
        reasoning: `nudge constant ${n % 17}`,
        program: { island, generation: Math.floor((n - 1) / ISLANDS) + 1, kind: n % 5 === 0 ? 'full' : 'diff', model: n % 3 === 0 ? 'model-b' : 'model-a' },
      }),
    );
    all.push({ id, island });
    if (rnd.next() < 0.1) {
      out.push(ev({ type: 'program/evaluated', candidateId: id, island, correct: false, instances: 1, error: 'pack() threw' }));
      continue;
    }
    const score = inc.score + (rnd.next() - 0.7) * 0.1;
    const commit = score > inc.score;
    const record: DecisionRecord = {
      candidateId: id, parentId: parent, incumbentId: inc.id, gate: 'pace+', configHash: 'cfg', alpha: 0.05, schedule: 'per-candidate',
      ledgerBefore: { tested: n - 1, commits: 0 }, threshold: 20, orderSeed: n, itemsConsumed: 16, wins: commit ? 9 : 1, losses: commit ? 0 : 8, ties: 7,
      logWealth: commit ? 3.1 : -2, decision: commit ? 'commit' : 'reject', reason: commit ? 'evidence' : 'futile', candidateCalls: 0, incumbentCalls: 0,
    };
    out.push(ev({ type: 'decision', record }));
    out.push(ev({ type: 'program/evaluated', candidateId: id, island, correct: true, score, instances: 16 }));
    if (commit) incumbents[island] = { id, score };
    if (n % 50 === 0) {
      const moves = incumbents.map((c, from) => ({ programId: c.id, from, to: (from + 1) % ISLANDS }));
      out.push(ev({ type: 'program/migrated', generation: n / ISLANDS, moves }));
    }
  }
  return out;
}
