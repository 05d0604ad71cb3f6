/**
 * The pull-request report of `ratchet check` in Markdown (a job summary, a PR comment): per file
 * the verdict in plain words, the evidence against the line it had to reach, the pairs, the worst
 * regressions with their inputs and outputs folded in <details>, the cost; then the repository's
 * budget. Everything shown is escaped: an input or an output is untrusted text.
 */
import type { CheckPolicy, CheckVerdict } from './policy';
import { FLAG_SOURCE, verdictWords } from './policy';

/** One item of a file's test, head against base: for the report's worst regressions. */
export interface ReportItem {
  itemId: string;
  /** Δ of head against base. */
  delta: number;
  input: string;
  expected?: string;
  baseOutput?: string;
  headOutput?: string;
}

export interface ReportFile {
  file: string;
  /** The policy the file was held to, and where it was set (`file:line` of its run spec, or `--require`). */
  policy: CheckPolicy;
  policyFrom: string;
  verdict: CheckVerdict;
  passed: boolean;
  /** The e-process's wealth when the test stopped, and the line it had to reach. */
  wealth: number;
  threshold: number;
  alphaSpent: number;
  itemsUsed: number;
  devItems: number;
  wins: number;
  losses: number;
  ties: number;
  items: readonly ReportItem[];
  cost: { calls: number; dollars: number | undefined };
  bundlePath: string;
  replayProblems?: readonly string[];
  /** An earlier check's verdict on the same texts, replayed instead of tested again. */
  reused?: boolean;
}

export interface ReportInput {
  base: string;
  head: string;
  /** The default policy (`--require`), for files whose run spec sets none. */
  policy: CheckPolicy;
  replay: boolean;
  passed: boolean;
  files: readonly ReportFile[];
  skipped: readonly { file: string; why: string }[];
  ledgerSentence: string | undefined;
}

/** How many of a file's losses the report unfolds. */
export const WORST_SHOWN = 5;
/** Longest input or output shown, in characters; the rest is cut with a mark. */
const CLIP = 600;

const factor = (x: number): string => (Number.isFinite(x) ? `×${Number(x.toPrecision(3))}` : x > 0 ? '×∞' : '×0');

/** Text safe in a table cell: no pipe, no newline, no HTML. */
function cell(text: string): string {
  return escapeHtml(text).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A fenced block no text can close early: the fence is longer than any backtick run inside. */
function fenced(text: string): string {
  const clipped = text.length > CLIP ? `${text.slice(0, CLIP)}… (${text.length - CLIP} more characters)` : text;
  const longest = Math.max(2, ...[...clipped.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${clipped}\n${fence}`;
}

export function checkReport(r: ReportInput): string {
  const out: string[] = [];
  const title = r.replay ? 'Ratchet check — replay' : 'Ratchet check';
  const failed = r.files.filter((f) => !f.passed || (f.replayProblems ?? []).length > 0).length;
  const status = r.files.length === 0 ? 'no changed file with a run spec' : r.passed ? `passed: ${r.files.length} file${r.files.length === 1 ? '' : 's'}` : `failed: ${failed} of ${r.files.length} file${r.files.length === 1 ? '' : 's'}`;
  // One policy for every file reads as before; files that set their own are named in the Policy column.
  const policies = [...new Set(r.files.length === 0 ? [r.policy] : r.files.map((f) => f.policy))];
  const perFile = r.files.some((f) => f.policyFrom !== FLAG_SOURCE);
  const only = policies.length === 1 ? policies[0] : undefined;
  out.push(`## ${r.passed ? '✅' : '❌'} ${title} (${perFile ? `policy per file, --require ${r.policy} by default` : `--require ${r.policy}`}) — ${status}`, '');
  const sentences = only ? policySentence(only) : policies.map((p) => `\`${p}\`: ${policySentence(p)}`).join(' ');
  out.push(`Base \`${r.base.slice(0, 12)}\`, head \`${r.head.slice(0, 12)}\`. ${sentences}`, '');
  if (r.files.length > 0) {
    out.push(`| File | Policy | Verdict | ${only ? evidenceHeader(only) : 'Evidence (its line)'} | Pairs: head won / lost / tied | Items used | Cost |`, '|---|---|---|---|---|---|---|');
    for (const f of r.files) {
      const mark = f.passed && (f.replayProblems ?? []).length === 0 ? '✅ pass:' : '❌ fail:';
      const cost = `${f.cost.calls} calls${f.cost.dollars === undefined ? '' : `, $${f.cost.dollars.toFixed(4)}`}`;
      const evidence = `${only ? '' : f.policy === 'better' ? 'head better ' : 'head worse '}${factor(f.wealth)} (${only ? '' : f.policy === 'better' ? 'passes at ' : 'fails at '}${factor(f.threshold)})`;
      out.push(`| \`${cell(f.file)}\` | ${cell(policyLabel(f))} | ${mark} ${cell(verdictWords(f.policy, f))} | ${evidence} | ${f.wins} / ${f.losses} / ${f.ties} | ${f.itemsUsed} of ${f.devItems} | ${cost} |`);
    }
    out.push('');
  }
  // The files that failed first: their worst items are what a reviewer opens.
  const failedFirst = [...r.files].sort((a, b) => Number(a.passed) - Number(b.passed));
  for (const f of failedFirst) {
    const problems = f.replayProblems ?? [];
    if (f.reused && problems.length === 0) out.push(`**${cell(f.file)}**: the verdict of an earlier check on these same texts, replayed from \`${cell(f.bundlePath)}\` with no LLM request; no α spent again.`, '');
    if (r.replay || (f.reused && problems.length > 0)) {
      out.push(
        problems.length === 0
          ? `**${cell(f.file)}**: replayed from \`${cell(f.bundlePath)}\` and the response cache with no LLM request; every bet and the verdict came out as recorded.`
          : `**${cell(f.file)}**: does not replay from \`${cell(f.bundlePath)}\`: ${cell(problems.join('; '))}.`,
        '',
      );
    }
    const worst = [...f.items]
      .filter((i) => i.delta < 0)
      .sort((a, b) => a.delta - b.delta || a.itemId.localeCompare(b.itemId))
      .slice(0, WORST_SHOWN);
    if (worst.length === 0) continue;
    out.push(`<details><summary>${escapeHtml(f.file)}: the ${worst.length === 1 ? 'item' : `${worst.length} items`} where head did worst (of ${f.losses} lost)</summary>`, '');
    for (const i of worst) {
      out.push(
        `**${escapeHtml(i.itemId)}** (Δ ${Number(i.delta.toPrecision(3))})${i.expected === undefined ? '' : ` — expected \`${cell(i.expected)}\``}`,
        '',
        'Input:',
        fenced(i.input),
        '',
        'Base answered:',
        fenced(i.baseOutput ?? '(not recorded)'),
        '',
        'Head answered:',
        fenced(i.headOutput ?? '(not recorded)'),
        '',
      );
    }
    out.push('</details>', '');
  }
  if (r.skipped.length > 0) out.push(`Not checked: ${r.skipped.map((s) => `\`${cell(s.file)}\` (${cell(s.why)})`).join(', ')}.`, '');
  const total = r.files.reduce((s, f) => ({ calls: s.calls + f.cost.calls, dollars: s.dollars === undefined || f.cost.dollars === undefined ? undefined : s.dollars + f.cost.dollars }), { calls: 0, dollars: 0 as number | undefined });
  out.push(`Cost: ${total.calls} LLM calls${total.dollars === undefined ? '' : `, $${total.dollars.toFixed(4)}`}. Evidence: \`.ratchet/evidence/\` (\`ratchet check --replay\` recomputes every verdict from it and the response cache).`);
  if (r.ledgerSentence) out.push('', cell(r.ledgerSentence.charAt(0).toUpperCase() + r.ledgerSentence.slice(1)));
  return `${out.join('\n')}\n`;
}

/** The policy a file was held to and where it was set: `better (prompts/a.ratchet.yaml:12)`, `not-worse (--require)`. */
export function policyLabel(f: Pick<ReportFile, 'policy' | 'policyFrom'>): string {
  return `${f.policy} (${f.policyFrom})`;
}

/** What the e-process's wealth is evidence of under the policy, and what its line means. */
export function evidenceHeader(policy: CheckPolicy): string {
  return policy === 'better' ? 'Evidence head is better (passes at)' : 'Evidence head is worse (fails at)';
}

function policySentence(policy: CheckPolicy): string {
  return policy === 'better'
    ? 'Each file passes only when head is shown better than base by an anytime-valid paired test: a head that is not better passes with probability at most the α it spent (1 / the line).'
    : 'Each file fails only when head is shown worse than base by an anytime-valid paired test: a head that is not worse fails with probability at most the α it spent (1 / the line).';
}
