// Moving a front matter's ratchet: block to the sidecar: what is written, what is deleted, and
// when no move is offered because it would not say the same thing.
import { describe, expect, it } from 'vitest';
import { planSidecarMove } from '../../../src/core/setup/sidecarMove';

const TRIAGE = [
  '---',
  'description: Route a customer support ticket to the right queue.',
  'ratchet:',
  '  dataset: data/tickets.csv',
  '  scorer:',
  '    type: exact   # the queue name',
  '    ignoreCase: true',
  '',
  '  gate: pace+',
  "tools: ['search/codebase']",
  '---',
  'Classify the ticket: {{ticket}}',
  '',
].join('\n');

const apply = (text: string, from: number, to: number) => {
  const lines = text.split('\n');
  return [...lines.slice(0, from), ...lines.slice(to)].join('\n');
};

describe('planSidecarMove', () => {
  it('writes the block, de-indented with its comments, to a new sidecar and deletes only its lines', () => {
    const plan = planSidecarMove('/w/support/triage.prompt.md', TRIAGE, undefined)!;
    expect(plan).toEqual({
      sidecarPath: '/w/support/triage.ratchet.yaml',
      creates: true,
      text: '# Run spec for triage.prompt.md, moved from its front matter.\ndataset: data/tickets.csv\nscorer:\n  type: exact   # the queue name\n  ignoreCase: true\n\ngate: pace+\n',
      fromLine: 2,
      toLine: 9,
    });
    expect(apply(TRIAGE, plan.fromLine, plan.toLine)).toBe("---\ndescription: Route a customer support ticket to the right queue.\ntools: ['search/codebase']\n---\nClassify the ticket: {{ticket}}\n");
  });

  it('removes the fences too when the block was all the front matter held, and takes a flow mapping as it is', () => {
    const text = '---\nratchet: { dataset: d.jsonl, seed: 2 }\n---\nBody\n';
    const plan = planSidecarMove('/w/x.prompt.md', text, undefined)!;
    expect([plan.text, apply(text, plan.fromLine, plan.toLine)]).toEqual(['# Run spec for x.prompt.md, moved from its front matter.\n{ dataset: d.jsonl, seed: 2 }\n', 'Body\n']);
  });

  it('appends to a sidecar that sets other keys, and offers nothing when both set one', () => {
    const text = '---\nratchet:\n  seed: 4\n---\nBody\n';
    expect(planSidecarMove('/w/x.prompt.md', text, 'dataset: d.jsonl')?.text).toBe('\n# Run spec for x.prompt.md, moved from its front matter.\nseed: 4\n');
    expect(planSidecarMove('/w/x.prompt.md', text, 'seed: 1\n')).toBeUndefined();
  });

  it('offers nothing without a ratchet: block, for a block that is not a mapping, or where there is no front matter convention', () => {
    expect(planSidecarMove('/w/x.prompt.md', '---\ndescription: x\n---\nb\n', undefined)).toBeUndefined();
    expect(planSidecarMove('/w/x.prompt.md', '---\nratchet: yes\n---\nb\n', undefined)).toBeUndefined();
    expect(planSidecarMove('/w/x.md', TRIAGE, undefined)).toBeUndefined();
    // A comment at column 0 inside the block would split it: the move would not say the same thing.
    expect(planSidecarMove('/w/x.prompt.md', '---\nratchet:\n  seed: 4\n# note\n  mode: suggest\n---\nb\n', undefined)).toBeUndefined();
  });
});
