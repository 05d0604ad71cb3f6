// The pull-request report: what a reviewer reads, built from untrusted text (inputs, a model's answers).
import { describe, expect, it } from 'vitest';
import { checkReport } from '../../../src/core/check/report';
import type { ReportFile, ReportInput } from '../../../src/core/check/report';

const file = (over: Partial<ReportFile> = {}): ReportFile => ({
  file: 'prompts/a.prompt.md',
  policy: 'not-worse',
  policyFrom: '--require',
  verdict: 'worse',
  passed: false,
  wealth: 3380,
  threshold: 2000,
  alphaSpent: 0.0005,
  itemsUsed: 38,
  devItems: 100,
  wins: 0,
  losses: 2,
  ties: 36,
  items: [
    { itemId: 'q1', delta: -1, input: 'What is 1 | 2?', expected: '3', baseOutput: 'The answer is 3', headOutput: 'Close the fence ```\n<script>alert(1)</script>\n``` and then | a pipe' },
    { itemId: 'q2', delta: -1, input: 'x'.repeat(2000), baseOutput: 'ok' },
    { itemId: 'q3', delta: 1, input: 'a win', baseOutput: 'no', headOutput: 'yes' },
  ],
  cost: { calls: 40, dollars: undefined },
  bundlePath: '.ratchet/evidence/a.json',
  ...over,
});
const input = (files: ReportFile[], over: Partial<ReportInput> = {}): ReportInput => ({
  base: 'a'.repeat(40),
  head: 'b'.repeat(40),
  policy: 'not-worse',
  replay: false,
  passed: files.every((f) => f.passed),
  files,
  skipped: [],
  ledgerSentence: undefined,
  ...over,
});

describe('checkReport', () => {
  it('says the verdict in words with the evidence against its line, and folds the worst items only', () => {
    const md = checkReport(input([file()]));
    expect(md).toContain('## ❌ Ratchet check (--require not-worse) — failed: 1 of 1 file');
    expect(md).toContain('| ❌ fail: Worse: head is shown worse than base. | ×3380 (×2000) | 0 / 2 / 36 | 38 of 100 | 40 calls |');
    expect(md).toContain('<details><summary>prompts/a.prompt.md: the 2 items where head did worst (of 2 lost)</summary>');
    expect(md).not.toContain('a win');
  });

  it('keeps a model’s answer inert: inside a fence it cannot close, a pipe kept out of the table, long text cut', () => {
    const md = checkReport(input([file()]));
    // The answer holds a run of three backticks, so its fence is four: the markup in it stays text.
    const open = md.indexOf('````text\nClose the fence');
    const close = md.indexOf('\n````\n', open);
    expect(open).toBeGreaterThan(0);
    expect(md.indexOf('<script>')).toBeGreaterThan(open);
    expect(md.indexOf('<script>')).toBeLessThan(close);
    expect(md.split('<script>')).toHaveLength(2);
    expect(md).toContain('(1400 more characters)');
  });

  it('a replay says for each file whether it replayed, and what did not', () => {
    const ok = checkReport(input([file({ verdict: 'not shown worse', passed: true, items: [], replayProblems: [] })], { replay: true }));
    expect(ok).toContain('replayed from `.ratchet/evidence/a.json` and the response cache with no LLM request');
    const bad = checkReport(input([file({ replayProblems: ['step 3 (q7): recorded ln wealth 1, the pairs give 0.5'] })], { replay: true }));
    expect(bad).toContain('does not replay from `.ratchet/evidence/a.json`: step 3 (q7)');
  });

  it('names per file the policy it was held to and where it was set, when a file sets its own', () => {
    const own = file({ file: 'prompts/b.prompt.md', policy: 'better', policyFrom: 'prompts/b.ratchet.yaml:13', verdict: 'not shown better', passed: false, wealth: 2, threshold: 20, items: [] });
    const md = checkReport(input([file({ verdict: 'not shown worse', passed: true, items: [] }), own]));
    expect(md).toContain('## ❌ Ratchet check (policy per file, --require not-worse by default) — failed: 1 of 2 files');
    expect(md).toContain('| `prompts/a.prompt.md` | not-worse (--require) | ✅ pass: Not shown worse: no evidence that head is worse than base. | head worse ×3380 (fails at ×2000) |');
    expect(md).toContain('| `prompts/b.prompt.md` | better (prompts/b.ratchet.yaml:13) | ❌ fail: Not shown better: the evidence did not reach the line, so the change is not proven to help. | head better ×2 (passes at ×20) |');
  });
});
