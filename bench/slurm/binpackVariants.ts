// Heuristics for examples/code/bin-packing's EVOLVE-BLOCK, as a proposer might write them: some
// better than the seed's first fit on most instances, some worse on most, two that break the
// packing (the evaluator finds them incorrect), one that changes only a comment. bench:slurm's
// second table tests each against the seed, as a child of its own island.
import type { LlmClient } from '../../src/core/ports';

const loop = (order: string, choose: string) => `function packBins(sizes, capacity) {
  const bins = [];
  const free = [];
  ${order}
  for (const item of items) {
    const size = sizes[item];
    ${choose}
    if (b === -1) {
      bins.push([item]);
      free.push(capacity - size);
    } else {
      bins[b].push(item);
      free[b] -= size;
    }
  }
  return bins;
}`;

const asGiven = 'const items = sizes.map((_, i) => i);';
const decreasing = 'const items = sizes.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a]);';
const increasing = 'const items = sizes.map((_, i) => i).sort((a, b) => sizes[a] - sizes[b]);';
const firstFit = 'const b = free.findIndex((room) => room >= size);';
const bestFit = 'let b = -1;\n    for (let i = 0; i < free.length; i++) if (free[i] >= size && (b === -1 || free[i] < free[b])) b = i;';
const worstFit = 'let b = -1;\n    for (let i = 0; i < free.length; i++) if (free[i] >= size && (b === -1 || free[i] > free[b])) b = i;';
const nextFit = 'const b = free.length > 0 && free[free.length - 1] >= size ? free.length - 1 : -1;';
// Broken: the capacity check forgets the item's own size, so bins overflow.
const noCheck = 'const b = free.findIndex((room) => room > 0);';

export const VARIANTS: { name: string; code: string }[] = [
  { name: 'first fit decreasing', code: `// First fit decreasing.\n${loop(decreasing, firstFit)}` },
  { name: 'best fit', code: `// Best fit: the bin it fills most tightly.\n${loop(asGiven, bestFit)}` },
  { name: 'best fit decreasing', code: `// Best fit decreasing.\n${loop(decreasing, bestFit)}` },
  { name: 'worst fit', code: `// Worst fit: the emptiest bin.\n${loop(asGiven, worstFit)}` },
  { name: 'next fit', code: `// Next fit: only the last bin opened.\n${loop(asGiven, nextFit)}` },
  { name: 'first fit increasing', code: `// First fit, smallest items first.\n${loop(increasing, firstFit)}` },
  { name: 'worst fit decreasing', code: `// Worst fit decreasing.\n${loop(decreasing, worstFit)}` },
  { name: 'broken: overfills bins', code: `// First fit, any room at all.\n${loop(asGiven, noCheck)}` },
  { name: 'broken: drops the last item', code: `// First fit but the last item.\n${loop('const items = sizes.map((_, i) => i).slice(0, -1);', firstFit)}` },
  { name: 'a comment only', code: '' },
];

/** The proposer: proposal n rewrites the block of the seed (every child's parent here) with VARIANTS[n − 1], as a SEARCH/REPLACE diff. */
export function variantProposer(seedText: string): LlmClient {
  const body = /\/\/ EVOLVE-BLOCK-START\n([\s\S]*?)\n\/\/ EVOLVE-BLOCK-END/.exec(seedText)![1]!;
  let n = 0;
  return {
    async chat() {
      const v = VARIANTS[n++ % VARIANTS.length]!;
      const replace = v.code === '' ? body.replace('// First fit:', '// First fit (unchanged):') : v.code;
      const text = `<NAME>${v.name}</NAME>\n<DESCRIPTION>${v.name}</DESCRIPTION>\n<DIFF>\n<<<<<<< SEARCH\n${body}\n=======\n${replace}\n>>>>>>> REPLACE\n</DIFF>`;
      return { text, finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 0, completionTokens: 0 }, model: 'bench' } as Awaited<ReturnType<LlmClient['chat']>>;
    },
    async embed() {
      throw new Error('no embeddings');
    },
  };
}
