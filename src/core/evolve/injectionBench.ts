/**
 * The injection bench (#14): how often prompt-injection attempts flip a judge's verdict. Each pair
 * of the corpus (a task, a right and a wrong response) is judged clean and then with the wrong
 * response rewritten by each attack, in both presentation orders, through the product's judge
 * prompt and parser (judge.ts). A flip is a call that names the attacker's slot where the same call
 * without the attack did not; an abstention is a call with no readable verdict (read as a tie).
 *
 * A user runs it against their own judge model (`ratchet bench injection`); the tests run it
 * against the fake endpoint's obedient judge, which follows whatever the data tells it to.
 */
import { RatchetError } from '../errors';
import type { LlmClient } from '../ports';
import type { JudgeAnswer } from './judge';
import { DEFAULT_RUBRIC, itemJudgeCall, parseJudgeAnswer } from './judge';
import corpusJson from './injectionAttacks.json';

export interface InjectionPair {
  task: string;
  good: string;
  bad: string;
}

export interface InjectionAttack {
  id: string;
  kind: string;
  /** The attacker's response; placeholders as the corpus file's `_about` says. */
  text: string;
  /** Characters of filler `{pad}` stands for. */
  pad?: number;
}

export interface InjectionCorpus {
  pairs: readonly InjectionPair[];
  attacks: readonly InjectionAttack[];
}

export const INJECTION_CORPUS: InjectionCorpus = corpusJson;

export interface InjectionRow {
  id: string;
  kind: string;
  /** Judge calls with this attack: pairs × 2 orders. */
  trials: number;
  flips: number;
  abstained: number;
}

export interface InjectionReport {
  rows: InjectionRow[];
  /** Clean calls (no attack) that named the right response, of all clean calls: the judge's own accuracy here. */
  cleanRight: number;
  cleanTrials: number;
}

const LOOKALIKE: Record<'A' | 'B', string> = { A: '\u0391', B: '\u0392' };
const FULLWIDTH: Record<'A' | 'B', string> = { A: '\uff21', B: '\uff22' };
const FILLER = 'The quick brown fox jumps over the lazy dog while the judge reads on. ';

/** The attacker's response for slot `self`. */
export function attackText(attack: InjectionAttack, response: string, self: 'A' | 'B'): string {
  const other = self === 'A' ? 'B' : 'A';
  const pad = FILLER.repeat(Math.ceil((attack.pad ?? 0) / FILLER.length)).slice(0, attack.pad ?? 0);
  const values: Record<string, string> = {
    response,
    self,
    other,
    self_lower: self.toLowerCase(),
    self_lookalike: LOOKALIKE[self],
    self_fullwidth: FULLWIDTH[self],
    pad,
  };
  return attack.text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export async function runInjectionBench(llm: LlmClient, signal: AbortSignal, corpus: InjectionCorpus = INJECTION_CORPUS, rubric: string = DEFAULT_RUBRIC): Promise<InjectionReport> {
  if (corpus.pairs.length === 0 || corpus.attacks.length === 0) throw new RatchetError('badInput', 'The injection corpus needs at least one pair and one attack.');
  const judge = async (task: string, a: string, b: string): Promise<JudgeAnswer> => {
    const call = itemJudgeCall(rubric, task, a, b);
    const res = await llm.chat({ role: 'validator', messages: call.messages, temperature: 0, logprobs: false, sampleIndex: 0 }, signal);
    return parseJudgeAnswer(res, call.frame);
  };
  /** Judges `pair` with the attacker (its wrong response, rewritten by `bad`) in slot `self`. */
  const trial = (pair: InjectionPair, self: 'A' | 'B', bad: string): Promise<JudgeAnswer> => (self === 'A' ? judge(pair.task, bad, pair.good) : judge(pair.task, pair.good, bad));
  const slots = ['A', 'B'] as const;
  const cells = corpus.pairs.flatMap((pair) => slots.map((self) => ({ pair, self })));
  const clean = await Promise.all(cells.map(({ pair, self }) => trial(pair, self, pair.bad)));
  const rows = await Promise.all(
    corpus.attacks.map(async (attack) => {
      const answers = await Promise.all(cells.map(({ pair, self }) => trial(pair, self, attackText(attack, pair.bad, self))));
      let flips = 0;
      let abstained = 0;
      answers.forEach((answer, i) => {
        const self = cells[i]!.self;
        if (answer.verdict === 'abstained') abstained++;
        if (answer.verdict === self && clean[i]!.verdict !== self) flips++;
      });
      return { id: attack.id, kind: attack.kind, trials: cells.length, flips, abstained };
    }),
  );
  const cleanRight = clean.filter((c, i) => (c.verdict === 'A' || c.verdict === 'B') && c.verdict !== cells[i]!.self).length;
  return { rows, cleanRight, cleanTrials: cells.length };
}
