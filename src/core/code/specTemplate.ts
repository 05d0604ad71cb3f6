/**
 * The commented `<program>.ratchet.yaml` that "Configure Code Search" writes (kind: code), from the
 * few answers its Quick Pick asks for: the evaluator command, the gate, the budget. Every other key
 * is left at its default and named in a comment, so the file reads as a guide to what can be set.
 * Pure: the extension writes the text through the editor (undoable), a test validates it against
 * the run-spec schema.
 */
import { gateRow } from '../gates/gateTable';
import type { CodeGateName } from '../gates/gateTable';
import { CODE_DEFAULTS } from './spec';

export interface CodeSpecAnswers {
  /** The program's file name (the comment names it). */
  programName: string;
  /** With {program}, {results}, and {instances} when the evaluator runs a subset of instances. */
  command: string;
  /** Relative to the spec's folder: the evaluator's own files, copied beside the program in the sandbox. */
  supportFiles: string[];
  gate: CodeGateName;
  proposals: number;
  /** Absent: only proposals bound the search. */
  evaluations?: number;
}

/** Words in a file's name that say it scores programs: each earlier word ranks its files first. */
const EVALUATOR_WORDS = ['evaluate', 'eval', 'score', 'grade', 'judge', 'fitness', 'bench'] as const;

/**
 * The files of a program's folder that look like its evaluator (a script named for scoring:
 * evaluate.mjs, score.mjs, grade.py…), best first: by the word its name holds, then by name.
 * The program itself, run specs and non-scripts are never one.
 */
export function evaluatorFiles(names: readonly string[], program: string): string[] {
  const rank = (name: string) => EVALUATOR_WORDS.findIndex((w) => name.toLowerCase().includes(w));
  return names.filter((name) => name !== program && /\.(m?js|cjs|py|sh)$/.test(name) && rank(name) >= 0).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The command of an evaluator file beside the program, for the Quick Pick's first suggestion. */
export function suggestedCommand(evaluatorFile: string): string {
  const run = evaluatorFile.endsWith('.py') ? 'python3' : evaluatorFile.endsWith('.sh') ? 'sh' : 'node';
  return `${run} ${evaluatorFile} {program} {results}`;
}

/** A YAML flow scalar: plain when YAML would read it back unchanged, else double-quoted (JSON's escapes are YAML's). */
function scalar(s: string): string {
  return /^[\w./-][\w./ {}-]*$/.test(s) && !/^(true|false|null|yes|no|on|off|~|[-+.\d].*)$/i.test(s) && !s.endsWith(' ') ? s : JSON.stringify(s);
}

export function codeSpecTemplate(a: CodeSpecAnswers): string {
  const d = CODE_DEFAULTS.evaluator;
  const shards = a.command.includes('{instances}');
  const budget = a.evaluations === undefined ? `{ proposals: ${a.proposals} }` : `{ proposals: ${a.proposals}, evaluations: ${a.evaluations} }`;
  return [
    `# Run spec for ${a.programName}: a code search (Ratchet: Start Code Search). A proposer rewrites the`,
    '# code between the EVOLVE-BLOCK-START and EVOLVE-BLOCK-END lines; the code outside them is kept.',
    'kind: code',
    'evaluator:',
    '  # Runs in a sandbox directory holding a copy of the candidate and the support files, with no',
    "  # network. {program} is the candidate's file, {results} a directory for result files",
    '  # ({instances}: a file of instance ids to run, one per line). It prints one JSON object, or writes',
    '  # {results}/metrics.json: {"correct": true, "combined_score": 0.5, "instances": {"id": 0.5},',
    '  # "public": {…}, "private": {…}, "text_feedback": "…"}. Higher scores are better; correct: false,',
    '  # a score that is not a number or a non-zero exit marks the candidate incorrect.',
    `  command: ${scalar(a.command)}`,
    `  supportFiles: [${a.supportFiles.map(scalar).join(', ')}]`,
    `  timeoutSeconds: ${d.timeoutSeconds}`,
    '  # true when the same program always scores the same: each candidate is then evaluated once.',
    `  deterministic: ${d.deterministic}`,
    ...(shards ? ['  # The command reads {instances}: the gate can test a candidate on a few instances at a time.', '  shards: true'] : []),
    '  # scoreRange: [0, 1]     # the range combined_score lies in (the gate needs it)',
    `# How a candidate must beat its parent to be kept: ${gateRow(a.gate).description}`,
    `gate: ${a.gate}`,
    '# proposals: LLM proposals in all; evaluations: evaluator runs in all. Also: calls, tokens, dollars, wallTimeMinutes.',
    `budget: ${budget}`,
    "# concurrency: 2          # evaluator slots (default: the machine's cores - 1)",
    `# islands: ${CODE_DEFAULTS.islands}               # populations that evolve apart and trade their best now and then`,
    '# models: { proposer: { model: gpt-4o-mini } }',
    '',
  ].join('\n');
}
