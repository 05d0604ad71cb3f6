// The proposer-answer corpus (test/fixtures/code/answers/index.json): every answer is either applied
// or refused with the expected kind and message, and every applied candidate keeps its parent's
// frozen text byte for byte.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../../src/core/code/answers';
import { frozenSegments, parseBlocks } from '../../../src/core/code/blocks';
import { applyAnswer } from '../../../src/core/code/patch';

interface Case {
  answer: string;
  parent: string;
  /** `applied`, or the kind of the answer error or edit error. */
  expect: string;
  /** Texts the applied candidate must contain, or lack. */
  contains?: string[];
  lacks?: string[];
  /** Texts the error message must contain. */
  message?: string[];
  /** The failing SEARCH/REPLACE block. */
  edit?: number;
}

const DIR = path.resolve(__dirname, '../../fixtures/code');
const read = (p: string): string => readFileSync(path.join(DIR, p), 'utf8');
const CASES = JSON.parse(read('answers/index.json')) as Case[];

type Outcome = { applied: string } | { kind: string; message: string; edit?: number };

function run(c: Case): Outcome {
  const parsed = parseAnswer(read(`answers/${c.answer}`));
  if (!parsed.ok) return parsed.error;
  const r = applyAnswer(read(`parents/${c.parent}`), parsed.answer, c.parent);
  return r.ok ? { applied: r.text } : r.error;
}

describe('the answer corpus', () => {
  it('covers every kind of outcome with at least 40 answers', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    const kinds = new Set(CASES.map((c) => c.expect));
    for (const k of ['applied', 'notFound', 'ambiguous', 'outside', 'marker', 'blocks', 'empty', 'noProposal', 'bothKinds', 'malformedDiff', 'noCode']) expect(kinds).toContain(k);
    expect(CASES.some((c) => c.answer.includes('.crlf.'))).toBe(true);
    expect(read('answers/16-diff-crlf-answer.crlf.txt')).toContain('\r\n');
    expect(read('parents/kernel.crlf.c')).toContain('\r\n');
  });

  it.each(CASES)('$answer on $parent → $expect', (c) => {
    const out = run(c);
    if (c.expect === 'applied') {
      if (!('applied' in out)) expect.fail(`expected it applied, got ${out.kind}: ${out.message}`);
      const parent = read(`parents/${c.parent}`);
      expect(out.applied).not.toBe(parent);
      for (const s of c.contains ?? []) expect(out.applied).toContain(s);
      for (const s of c.lacks ?? []) expect(out.applied).not.toContain(s);
      return;
    }
    if ('applied' in out) expect.fail(`expected ${c.expect}, got the candidate:\n${out.applied}`);
    expect(out.kind).toBe(c.expect);
    for (const s of c.message ?? []) expect(out.message).toContain(s);
    if (c.edit !== undefined) expect(out).toMatchObject({ edit: c.edit });
  });

  it('keeps the parent frozen text byte-identical in every applied candidate, and its line breaks', () => {
    let applied = 0;
    for (const c of CASES) {
      const out = run(c);
      if (!('applied' in out)) continue;
      applied++;
      const parent = read(`parents/${c.parent}`);
      const before = frozenSegments(parent, parseBlocks(parent));
      const after = frozenSegments(out.applied, parseBlocks(out.applied));
      expect(after, c.answer).toEqual(before);
      if (parent.includes('\r\n')) expect(out.applied.replace(/\r\n/g, ''), c.answer).not.toContain('\n');
      else expect(out.applied, c.answer).not.toContain('\r');
    }
    expect(applied).toBe(CASES.filter((c) => c.expect === 'applied').length);
  });
});
