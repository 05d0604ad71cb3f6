// The world of the judge tests (mcp.test.ts, the judge engine's unit tests, npm run mcp:inspector):
// the arithmetic workspace of evolveWorkspace.ts and a scenario whose edit markers make a candidate
// better, worse or neutral against the file's text.
import { PROMPT_BODY, makeWorkspace } from './evolveWorkspace';
import type { Workspace } from './evolveWorkspace';
import type { ScenarioInput } from '../fixtures/fakeOpenAI/scenario';

/**
 * The world of these tests (evolveWorkspace.ts): 40 dev items, base accuracy 0.6, deterministic
 * answers. Markers a candidate may carry: `better` turns every wrong item right (+0.4), `worse`
 * turns two thirds of the right ones wrong (−0.4), `n<k>` re-draws every item at the same accuracy
 * (a neutral edit: against the file's text an item is a win with probability 0.4 · 0.6 = 0.24 and a
 * loss with 0.24).
 */
export function scenario(ws: Workspace, seed: number, neutral: readonly string[] = ['n1']): ScenarioInput {
  return {
    seed,
    items: ws.items.map((it) => ({ id: it.id, question: it.question, answer: it.answer })),
    agent: {
      baseAccuracy: 0.6,
      noise: 0,
      effects: { better: { kind: 'gain', delta: 0.4 }, worse: { kind: 'harm', delta: 0.4 }, ...Object.fromEntries(neutral.map((m) => [m, { kind: 'neutral', churn: 1 }])) },
    },
    validator: { accuracy: 0.9, positionBias: 0, tieRate: 1 },
  };
}

/** The prompt file's text with an edit marker appended: the candidate an agent would send. */
export function withMarker(marker: string): string {
  return `---\ndescription: arithmetic\n---\n${PROMPT_BODY}\n<!-- edit:${marker} -->\n`;
}

export function workspace(seed = 1): Workspace {
  return makeWorkspace({ seed });
}
