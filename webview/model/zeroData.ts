/**
 * The Zero-data tab's view model (pure): per round, what became of every task the Challenger wrote
 * (kept, held out, or dropped and why — the segments add up to what it wrote), the judge's
 * reliability on the two kinds of known-order pair as two curves over the rounds, one round's
 * difficulty and dispersion histograms, and the words for its exemplars. Every number comes from
 * the `zero/round` events (core/zero/rounds.ts decides); nothing here judges anything.
 */
import { generatedLine } from '../../src/core/journal/runStatus';
import type { GeneratedTally } from '../../src/core/journal/runStatus';
import { isTerminalRunState } from '../../src/core/journal/runStates';
import { count } from './format';
import type { HistogramBin } from '../../src/core/journal/payloadTypes';
import type { PairType, Reliability } from '../../src/core/journal/payloadTypes';
import type { Exemplar } from '../../src/core/journal/payloadTypes';
import type { RunState, ZeroRoundRow } from '../../src/panelState/types';

/** Where each task the Challenger wrote ended up: the two splits written, then the reasons for dropping one. */
export const TASK_FATES = ['kept', 'heldOut', 'notInTopK', 'lowDispersion', 'duplicate', 'format', 'unjudged'] as const;
export type TaskFate = (typeof TASK_FATES)[number];

export const FATE_WORDS: Readonly<Record<TaskFate, { name: string; means: string }>> = {
  kept: { name: 'kept', means: 'In the dev set: the tasks whose judged answers disagreed most (the top K by dispersion).' },
  heldOut: { name: 'held out', means: 'The generated test split, kept apart from the dev set; the judge’s reliability is measured on these.' },
  notInTopK: { name: 'not in top K', means: 'Some spread in the judged answers, but less than the K kept: shown to the proposer as feedback.' },
  lowDispersion: { name: 'low dispersion', means: 'Every answer was scored alike (all passed or all failed): such a task cannot tell two prompts apart.' },
  duplicate: { name: 'duplicate', means: 'A near-copy (sentence BLEU ≥ 0.5) of another task of this round or an earlier one.' },
  format: { name: 'format', means: 'A block that could not be read: a missing or unclosed tag, not JSON, a missing variable, empty, or too long.' },
  unjudged: { name: 'unjudged', means: 'The judge abstained on every answer to it.' },
};

const FORMAT_WORDS: Readonly<Record<keyof ZeroRoundRow['discarded']['format'], string>> = {
  missingTag: 'missing tag',
  unclosedTag: 'unclosed tag',
  notJson: 'not JSON',
  missingVariable: 'missing variable',
  empty: 'empty',
  overLength: 'too long',
};

export const PAIR_WORDS: Readonly<Record<PairType, { name: string; means: string; better: string; worse: string }>> = {
  roleAsymmetry: {
    name: 'Role asymmetry',
    means: 'The Solver’s answer (the prompt) against the Challenger’s own answer to the task it wrote to be hard for itself: the Solver’s should win.',
    better: 'Better: the Solver’s answer',
    worse: 'Worse: the Challenger’s own answer',
  },
  amplification: {
    name: 'Subtask amplification',
    means: 'An answer composed from the Solver’s answers to the task’s subtasks against its one-shot answer: the composed one should win.',
    better: 'Better: composed from the subtasks’ answers',
    worse: 'Worse: the one-shot answer',
  },
};

export interface FateSegment {
  fate: TaskFate;
  count: number;
  /** Of what the Challenger wrote this round, in [0, 1]. */
  fraction: number;
}

export interface TasksRow {
  round: number;
  /** "Round 1: 12 written of 12 asked — 3 kept, 2 held out, 1 low dispersion, 2 format (1 empty, 1 unclosed tag)" */
  label: string;
  written: string;
  /** The fates this round had, in TASK_FATES order; they add up to `written`. */
  segments: FateSegment[];
}

export function tasksRows(s: RunState | undefined): TasksRow[] {
  return (s?.zeroRounds ?? []).map((r) => {
    const counts = fateCounts(r);
    const segments = TASK_FATES.filter((f) => counts[f] > 0).map((fate) => ({ fate, count: counts[fate], fraction: r.written > 0 ? counts[fate] / r.written : 0 }));
    const formats = formatDetail(r);
    const parts = segments.map((x) => `${x.count} ${FATE_WORDS[x.fate].name}${x.fate === 'format' && formats ? ` (${formats})` : ''}`);
    const repaired = repairDetail(r);
    return {
      round: r.round,
      label: `Round ${r.round}: ${r.written} written of ${r.requested} asked${parts.length > 0 ? ` — ${parts.join(', ')}` : ''}${repaired ? `; JSON repaired: ${repaired}` : ''}`,
      written: `${r.written} of ${r.requested}`,
      segments,
    };
  });
}

/** How many of the round's written tasks met each fate (core/zero/rounds.ts: every task meets exactly one). */
export function fateCounts(r: ZeroRoundRow): Record<TaskFate, number> {
  return {
    kept: r.kept,
    heldOut: r.heldOut,
    notInTopK: r.discarded.notInTopK,
    lowDispersion: r.discarded.lowDispersion,
    duplicate: r.discarded.duplicate,
    format: Object.values(r.discarded.format).reduce((a, b) => a + b, 0),
    unjudged: r.discarded.unjudged,
  };
}

/** "1 empty, 1 unclosed tag": the format discards by reason. */
export function formatDetail(r: ZeroRoundRow): string {
  return (Object.entries(r.discarded.format) as [keyof typeof FORMAT_WORDS, number][])
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${n} ${FORMAT_WORDS[reason]}`)
    .join(', ');
}

const REPAIR_WORDS: Readonly<Record<keyof NonNullable<ZeroRoundRow['repaired']>, string>> = {
  fence: 'fence removed',
  label: 'label line removed',
  comment: 'comment removed',
  trailingComma: 'trailing comma',
  lineBreak: 'line break in a string',
  other: 'other',
};

/** "2 trailing comma, 1 fence removed": how the Challenger's JSON had to be repaired. */
export function repairDetail(r: ZeroRoundRow): string {
  return (Object.entries(r.repaired ?? {}) as [keyof typeof REPAIR_WORDS, number][])
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${REPAIR_WORDS[kind]}`)
    .join(', ');
}

// ---- the judge's reliability ------------------------------------------------------------------

export interface ReliabilityChartData {
  /** The rounds. */
  x: number[];
  /** Per pair type, the agreement with the known order and its 95 % interval; null where no pair said anything. */
  series: Record<PairType, { mean: (number | null)[]; lo: (number | null)[]; hi: (number | null)[] }>;
  /** A judge that ignores the content sits here. */
  chance: number[];
  /** The chart's words: its accessible name and its stand-in without canvas. */
  summary: string;
}

const PAIR_TYPES: readonly PairType[] = ['roleAsymmetry', 'amplification'];

export function reliabilityChartData(s: RunState | undefined): ReliabilityChartData {
  const rounds = s?.zeroRounds ?? [];
  const series = Object.fromEntries(
    PAIR_TYPES.map((type) => {
      const of = rounds.map((r) => r.reliability.find((x) => x.type === type));
      const value = (pick: (x: Reliability) => number) => of.map((x) => (x?.agreement === undefined ? null : pick(x)));
      return [type, { mean: value((x) => x.agreement!), lo: value((x) => x.lo), hi: value((x) => x.hi) }];
    }),
  ) as ReliabilityChartData['series'];
  const curve = (type: PairType) => `${PAIR_WORDS[type].name.toLowerCase()} ${rounds.map((r) => agreementText(r.reliability.find((x) => x.type === type))).join(' → ')}`;
  const summary =
    rounds.length === 0
      ? 'No zero-data round yet: the judge’s reliability is measured on each round’s held-out tasks.'
      : `The judge’s agreement with the known order, by round: ${PAIR_TYPES.map(curve).join('; ')}. ½ is what a judge that ignores the answers gets.`;
  return { x: rounds.map((r) => r.round), series, chance: rounds.map(() => 0.5), summary };
}

/** "0.75 (n 4)", or "— (n 2, all ties)" when no pair said anything. */
export function agreementText(r: Reliability | undefined): string {
  if (r === undefined || r.pairs === 0) return '— (no pairs)';
  if (r.agreement === undefined) return `— (n ${r.pairs}, all ties)`;
  return `${r.agreement.toFixed(2)} (n ${r.pairs})`;
}

export interface ReliabilityCell {
  text: string;
  /** Hover: how the pairs were judged. */
  title: string;
}

export interface ReliabilityRow {
  round: number;
  cells: Record<PairType, ReliabilityCell>;
}

/** The chart's numbers as a table: agreement with its interval and how each pair was judged. */
export function reliabilityRows(s: RunState | undefined): ReliabilityRow[] {
  return (s?.zeroRounds ?? []).map((r) => ({
    round: r.round,
    cells: Object.fromEntries(
      PAIR_TYPES.map((type) => {
        const x = r.reliability.find((y) => y.type === type);
        const text = x?.agreement === undefined ? agreementText(x) : `${x.agreement.toFixed(2)} [${x.lo.toFixed(2)}, ${x.hi.toFixed(2)}] n ${x.pairs}`;
        const title = x === undefined ? 'No pairs of this kind this round.' : `${x.right} right in both orders, ${x.wrong} wrong in both, ${x.split} split (followed the slot), ${x.ties} ties; 95% interval.`;
        return [type, { text, title }];
      }),
    ) as Record<PairType, ReliabilityCell>,
  }));
}

// ---- one round ----------------------------------------------------------------------------------

/** The round on screen: the one picked, else the latest. */
export function shownRound(s: RunState | undefined, picked: number | undefined): ZeroRoundRow | undefined {
  const rounds = s?.zeroRounds ?? [];
  return rounds.find((r) => r.round === picked) ?? rounds.at(-1);
}

export interface HistogramBar {
  /** "0.3–0.4" */
  range: string;
  count: number;
  /** Of the tallest bar, in [0, 1]: the bar's height. */
  height: number;
  /** "0.3–0.4: 2 tasks" */
  label: string;
}

export interface HistogramModel {
  bars: HistogramBar[];
  total: number;
  /** The axis's ends, under the bars. */
  from: string;
  to: string;
}

export function histogramModel(bins: readonly HistogramBin[]): HistogramModel {
  const max = Math.max(0, ...bins.map((b) => b.count));
  const edge = (x: number) => String(Number(x.toFixed(2)));
  const bars = bins.map((b) => {
    const range = `${edge(b.lo)}–${edge(b.hi)}`;
    return { range, count: b.count, height: max > 0 ? b.count / max : 0, label: `${range}: ${count(b.count, 'task')}` };
  });
  return { bars, total: bins.reduce((n, b) => n + b.count, 0), from: bins.length > 0 ? edge(bins[0]!.lo) : '0', to: bins.length > 0 ? edge(bins.at(-1)!.hi) : '1' };
}

/** Under the difficulty histogram: how many were judged, and the extremes the next round's Challenger is told of. */
export function difficultyNote(r: ZeroRoundRow): string {
  const judged = r.difficultyHistogram.reduce((n, b) => n + b.count, 0);
  return `Difficulty = 1 − the mean judged score, over the ${count(judged, 'task')} of the dev pool judged this round: ${r.tooEasy} too easy (every answer top-scored), ${r.tooHard} too hard (every answer failed).`;
}

export function dispersionNote(r: ZeroRoundRow): string {
  return `Dispersion = the spread of a task’s judged answers (0 when all score alike, ½ at most). A task at 0 is dropped; of the rest, the ${count(r.kept, 'task')} with the most spread ${r.kept === 1 ? 'was' : 'were'} kept.`;
}

/** What the round's held-out tasks said of the prompt that answered them. */
export function heldOutNote(r: ZeroRoundRow): string | undefined {
  const h = r.heldOutScore;
  if (!h) return undefined;
  return `Held-out tasks: the prompt’s mean judged score ${h.mean.toFixed(2)} [${h.lo.toFixed(2)}, ${h.hi.toFixed(2)}] over ${count(h.n, 'answer')}.`;
}

export interface ExemplarCard {
  pairId: string;
  /** "Role asymmetry · wrong in both orders" */
  heading: string;
  /** Why it was picked and how it is shown. */
  note: string;
  task: string;
  better: { label: string; text: string };
  worse: { label: string; text: string };
}

/** The judge's worked examples: pairs it got wrong (texts as the host sent them; the view sets them as text). */
export function exemplarCards(exemplars: readonly Exemplar[]): ExemplarCard[] {
  return exemplars.map((x) => {
    const words = PAIR_WORDS[x.type];
    const how = x.judgement === 'wrong' ? 'wrong in both orders' : 'split: it followed the slot, not the answer';
    return {
      pairId: x.pairId,
      heading: `${words.name} · ${how}`,
      note: `Shown to the next round’s judge as a worked example, the better answer in slot ${x.betterSlot}.`,
      task: x.task,
      better: { label: words.better, text: x.better },
      worse: { label: words.worse, text: x.worse },
    };
  });
}

/** Exemplars the round chose, in words, for when their texts are not on screen. */
export function exemplarsNote(r: ZeroRoundRow): string {
  const used = r.exemplarsUsed === 0 ? 'This round’s judge was shown no worked example' : `This round’s judge was shown ${count(r.exemplarsUsed, 'worked example')} from the round before`;
  const chose = r.exemplars === 0 ? 'it misjudged no pair, so none was chosen for the next round.' : `${count(r.exemplars, 'pair')} it misjudged became the next round’s.`;
  return `${used}; ${chose}`;
}

// ---- the run ------------------------------------------------------------------------------------

/** What a dev-set generation wrote so far, by the same count as its live status line. */
export function generatedTally(s: RunState): GeneratedTally {
  const of = s.info?.rounds;
  return {
    rounds: s.zeroRounds.length,
    dev: s.zeroRounds.reduce((n, r) => n + r.kept, 0),
    test: s.zeroRounds.reduce((n, r) => n + r.heldOut, 0),
    ...(of === undefined ? {} : { of }),
  };
}

/** The tab's first line: "2 of 2 rounds · 6 dev tasks and 4 held-out from 2 rounds". */
export function zeroSummary(s: RunState | undefined): string {
  if (!s || s.zeroRounds.length === 0) {
    return s?.info?.kind === 'gen-data' && !isTerminalRunState(s.status) ? 'Round 1 is under way: the Challenger writes tasks, the prompt answers each several times, the judge scores the answers.' : 'No zero-data round in this run.';
  }
  const open = !isTerminalRunState(s.status);
  const what = s.info?.kind !== 'gen-data' ? 'Generated for this run' : open ? 'So far' : s.status === 'finished' ? 'Written' : 'Generated (not written: the run did not finish)';
  return `${what}: ${generatedLine(generatedTally(s))}.`;
}
