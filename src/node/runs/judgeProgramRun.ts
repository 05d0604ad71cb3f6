/**
 * A judge run of a program as a Node face starts it (`ratchet mcp`'s judge_edit on a code-search
 * file): its run spec (the `<file>.ratchet.yaml` sidecar, or a ShinkaEvolve task folder), the
 * evaluator in the code search's sandbox through the evaluation cache, a budget of evaluator runs
 * refused before any when it cannot hold the file's evaluation and one of the candidate's, and the
 * journal (kind `judge`). The evaluator is workspace code: refused in an untrusted workspace.
 */
import { dirname, resolve } from 'node:path';
import { RatchetError } from '../../core/errors';
import { CODE_DEFAULTS } from '../../core/code/spec';
import { textHash } from '../../core/code/novelty';
import type { ProgramEvaluator } from '../../core/code/search';
import type { JournaledEvent } from '../../core/journal/events';
import type { RunControl } from '../../core/journal/control';
import { checkProgramCandidate, judgeProgramGate, runJudgeProgram } from '../../core/judgeEdit/judgeProgram';
import { budgetError } from '../../core/run/budget';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import { SystemClock } from '../clock';
import { NodeFiles } from '../files';
import { NodeLog } from '../log';
import { CryptoEntropy } from '../entropy';
import { openRunJournal } from './runShell';
import { cachedEvaluator, evaluatorIdentity } from './evaluationCache';
import { judgeOpening, judgeRunOutcome } from './judgeRun';
import type { JudgeRunOutcome } from './judgeRun';
import { sandboxEvaluator } from './searchSandbox';
import { loadCodeSpec, namedFiles, withCommandFiles } from './searchSpecFile';
import { DEFAULT_TEST_BUDGET } from './testBudget';
import type { CodeGateSpec } from '../../core/code/gate';
import type { RunLedger } from '../../core/gates/thresholds';
import type { TestBudget } from './testBudget';

export interface JudgeProgramRunOptions {
  path: string;
  workspace: string;
  candidateText: string;
  /** The program to judge the candidate against, when not the file's own (a pull-request check's base). */
  incumbentText?: string;
  reasoning?: string;
  /** Evaluator runs (the file's program whole, then the candidate's shards); LLM calls and dollars do not apply: none is made. */
  budget?: Partial<Pick<TestBudget, 'evaluations'>>;
  apply?: RunControl;
  /** A run-level schedule's state and the ledger's own α and horizon (a pull-request check's); absent: one candidate at 1/α. */
  ledger?: RunLedger;
  schedule?: CodeGateSpec['schedule'];
  gateOverrides?: Partial<Pick<CodeGateSpec, 'alpha' | 'horizon'>>;
  endpointDefaults: EndpointDefaults;
  untrusted?: boolean;
  onEvent: (e: JournaledEvent) => void;
  signal: AbortSignal;
  version: string;
}

export async function judgeProgramEdit(o: JudgeProgramRunOptions): Promise<JudgeRunOutcome> {
  const files = new NodeFiles();
  const path = resolve(o.path);
  const workspace = resolve(o.workspace);
  if (o.untrusted) throw new RatchetError('badInput', `Judging ${path} runs its evaluator, which is workspace code: trust the workspace first (ratchet mcp --trust, or Workspace Trust in the editor).`, { file: path });
  const incumbentText = o.incumbentText ?? (await files.readText(path));
  checkProgramCandidate(path, incumbentText, o.candidateText);
  const spec = await withCommandFiles(files, await loadCodeSpec(files, path, {}), path);
  const judged = judgeProgramGate(spec);
  const gate: CodeGateSpec = { ...judged.gate, ...(o.schedule ? { schedule: o.schedule } : {}), ...o.gateOverrides };
  const substituted = judged.substituted;
  const evaluations = o.budget?.evaluations ?? DEFAULT_TEST_BUDGET.evaluations;
  // The file's program whole, and at least one run of the candidate: less could decide nothing.
  if (evaluations < 2)
    throw new RatchetError('badInput', `Judging ${path} needs at least 2 evaluator runs (its program's, then the candidate's) and the budget allows ${evaluations}: raise budget.evaluations.`, { field: 'budget.evaluations' });
  const shinkaDir = spec.evaluator.command === undefined ? dirname(path) : undefined;
  const identity = await evaluatorIdentity(files, {
    spec: spec.evaluator,
    filesRun: [...new Set([...spec.evaluator.supportFiles, ...(await namedFiles(files, spec.evaluator.command, path)), ...(shinkaDir ? [files.join(shinkaDir, CODE_DEFAULTS.shinkaEvaluator)] : [])])],
  });
  const cached = cachedEvaluator(files, files.join(workspace, '.ratchet', 'cache', 'eval'), identity, sandboxEvaluator(spec, path, shinkaDir, o.endpointDefaults));
  // Every evaluator run counts, found in the cache or not: the budget bounds what a test may ask for.
  let runs = 0;
  const evaluate: ProgramEvaluator = (text, ids, signal, repeat) => {
    if (runs >= evaluations) return Promise.reject(budgetError(`${runs} of ${evaluations} evaluations`));
    runs++;
    return cached.evaluate(text, ids, signal, repeat);
  };
  const clock = new SystemClock();
  const log = new NodeLog({ level: 'warn' });
  try {
    const { opening, journal, testsBefore } = await judgeOpening(files, {
      workspace,
      path,
      incumbent: textHash(incumbentText),
      seed: spec.seed,
      version: o.version,
      spec: { program: true, gate: gate.name, alpha: gate.alpha, budget: { evaluations } },
      runKind: 'search',
      onEvent: o.onEvent,
    });
    // No model is called: the journal alone, without the shell's LLM client.
    const run = await openRunJournal({ files, clock, log, entropy: new CryptoEntropy(), workspace }, opening, journal);
    try {
      const outcome = await runJudgeProgram(
        {
          runId: run.runId,
          spec,
          file: path,
          incumbentText,
          candidateText: o.candidateText,
          evaluate,
          clock,
          gate,
          ...(o.ledger ? { ledger: o.ledger } : {}),
          ...(o.apply ? { apply: run.control(o.apply) } : {}),
          ...(o.reasoning ? { reasoning: o.reasoning } : {}),
          budget: { candidates: 1 },
        },
        run.write,
        o.signal,
      );
      return judgeRunOutcome(
        outcome,
        { runId: run.runId, gate, substituted, testsBefore, unit: 'instance' },
        { cost: { calls: 0, tokens: 0, dollars: 0 }, budget: { calls: 0, evaluations }, estimate: { calls: 0, evaluations: runs }, cacheKeys: [], warnings: [] },
      );
    } finally {
      await run.writer.flush().catch(() => undefined);
    }
  } finally {
    await log.close();
  }
}
