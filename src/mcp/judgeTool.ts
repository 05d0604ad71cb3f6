/**
 * `judge_edit`: is this edit of a prompt file really better? The paired anytime-valid test of the
 * candidate against the file's current text on the file's dev items and scorer (its run spec),
 * within a budget refused before any call when the test could pass it, journaled as a run. With
 * `apply`, the file is written on commit only, and only over the text that was judged.
 *
 * What comes back is the verdict and the test's totals (evidence against 1/α, pairs won and lost,
 * ties, abstentions), the cost and the run id — never a dev item, an output or a per-item outcome:
 * an agent that saw them could tune its next edit to this dev set, and the next test would no
 * longer say anything about the task (GATES.md A1).
 */
import { relative } from 'node:path';
import { applyPatch } from 'diff';
import { z } from 'zod';
import { RatchetError } from '../core/errors';
import { verdictSentence } from '../core/judgeEdit/evidence';
import { loadRunSpec } from '../core/setup/spec';
import { isPromptPath } from '../core/files/fileKinds';
import { NodeFiles } from '../node/files';
import { fileApply } from '../node/runs/fileApply';
import { judgePromptEdit } from '../node/runs/judgeRun';
import { judgeProgramEdit } from '../node/runs/judgeProgramRun';
import type { JudgeRunOutcome } from '../node/runs/judgeRun';
import type { McpContext } from './context';
import { progressOf } from './progress';
import { runUri } from './resources';

export const budgetInput = z
  .object({
    calls: z.number().int().min(1).optional().describe('LLM calls, all roles (default 200).'),
    evaluations: z.number().int().min(1).optional().describe('Outputs evaluated, one per version and dev item (default 100).'),
    dollars: z.number().positive().optional().describe('USD (default 1 when every model is priced; sampled and local models count $0).'),
  })
  .strict()
  .describe('Limits for this call. The test is refused before any call when it could need more.');

const input = {
  file: z
    .string()
    .min(1)
    .describe(
      "The file whose edit is judged: a path (absolute, or relative to the first root) or a file:// URI inside the client's roots. A prompt file's run spec (front matter or <name>.ratchet.yaml) gives the dev items, scorer and gate; a program's (<file>.ratchet.yaml, kind: code) its evaluator, whose instances the test runs on (only the EVOLVE-BLOCK regions may change).",
    ),
  candidate: z.string().optional().describe("The candidate: the file's whole new text (give this or diff)."),
  diff: z.string().optional().describe("The candidate as a unified diff against the file's current text (give this or candidate)."),
  rationale: z.string().max(4000).optional().describe('Why the edit should help, in your words; kept with the candidate in the run’s journal.'),
  apply: z.boolean().optional().describe('Write the candidate into the file if, and only if, the verdict is commit (default false). A file changed during the test is not written over.'),
  budget: budgetInput.optional(),
};

const evidence = z.object({
  wealth: z.number().describe("The e-process's evidence when the test stopped (×1 at the start)."),
  threshold: z.number().describe('What the evidence had to reach to commit: 1/α.'),
  alpha: z.number(),
  pairs: z.number().int().describe('Discordant pairs: dev items where one version did better than the other.'),
  wins: z.number().int(),
  losses: z.number().int(),
  ties: z.number().int(),
  abstentions: z.number().int().describe('Items the judge gave no verdict on, left out of the test.'),
  itemsUsed: z.number().int(),
  devItems: z.number().int().describe('The items the test could use: dev items, or a program’s evaluator instances.'),
  unit: z.enum(['dev item', 'instance']),
  reason: z.string().describe('evidence (committed), futile, budget (dev items ran out), infeasible, or stopped (the call budget ran out).'),
});

export const judgeOutput = {
  verdict: z.enum(['commit', 'reject', 'undecided']),
  summary: z.string(),
  evidence,
  gate: z.string().describe('The gate that decided: the spec’s when it is anytime-valid, else PACE+ (scores) or reward-free PACE (a judge model).'),
  specGate: z.string().optional().describe('The spec’s own gate, when it has no error control and another decided.'),
  applied: z.enum(['applied', 'stale', 'not-requested', 'not-committed']),
  cost: z.object({ calls: z.number().int(), tokens: z.number().int(), dollars: z.number().optional().describe('Absent when a model is unpriced.') }),
  budget: z.object({ calls: z.number().int(), evaluations: z.number().int(), dollars: z.number().optional() }),
  runId: z.string(),
  resource: z.string().describe('The run as an MCP resource: ratchet://runs/<runId>.'),
  testsOnThisText: z.number().int().describe("Candidates judged against the file's current text so far, this one included: each passes by luck with probability at most α, so across them up to this many × α."),
  warnings: z.array(z.string()),
};

export function registerJudgeTool(ctx: McpContext): void {
  ctx.server.registerTool(
    'judge_edit',
    {
      title: 'Judge an edit',
      description:
        "Is this edit of a prompt file (or of a program's EVOLVE-BLOCK regions) really better? Runs the paired anytime-valid test (PACE+) of the candidate against the file's current text on the file's own dev items and scorer (a program: its evaluator's instances), and answers commit, reject or undecided with the evidence. A candidate that is not better is committed with probability at most α (0.05 by default) per call. Never returns dev items or outputs. With apply: true the file is written only on commit.",
      inputSchema: input,
      outputSchema: judgeOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      try {
        const { path, root } = await ctx.roots.resolve(args.file);
        const files = new NodeFiles();
        const current = await files.readText(path);
        const candidateText = candidateOf(args, current, path);
        const controller = ctx.controllerFor(extra.signal);
        const progress = progressOf(extra, 'steps');
        const common = {
          path,
          workspace: root,
          candidateText,
          ...(args.rationale ? { reasoning: args.rationale } : {}),
          ...(args.apply ? { apply: { decide: async () => 'accept' as const, apply: fileApply(files) } } : {}),
          endpointDefaults: ctx.options.endpoint,
          untrusted: !ctx.options.trusted,
          onEvent: progress.onEvent,
          signal: controller.signal,
          version: ctx.options.version,
        };
        // A prompt, instructions or a skill: its dev items and scorer. Any other file: a program, judged by its evaluator.
        const transport = isPromptPath(path) ? ctx.transportFor(await loadRunSpec(files, path)) : undefined;
        const outcome = transport
          ? await judgePromptEdit({ ...common, ...(args.budget ? { budget: args.budget } : {}), ...(transport.transport ? { transport: transport.transport, clientModels: transport.free } : {}) })
          : await judgeProgramEdit({ ...common, ...(args.budget?.evaluations === undefined ? {} : { budget: { evaluations: args.budget.evaluations } }) });
        await progress.sent();
        if (outcome.status !== 'finished')
          throw outcome.status === 'cancelled'
            ? new RatchetError('cancelled', `The test was cancelled (run ${outcome.runId}).`)
            : new RatchetError('internal', `The test failed (run ${outcome.runId}): ${outcome.error?.message ?? 'unknown error'}`);
        // Named as the agent knows it: relative to its root.
        const shown = relative(root, path);
        return ctx.result(summaryOf(outcome, shown, args.apply === true), structured(outcome, shown, args.apply === true));
      } catch (err) {
        return ctx.error(err);
      }
    },
  );
}

/** The candidate's whole text: given, or the diff applied to the file's current text. */
export function candidateOf(args: { candidate?: string | undefined; diff?: string | undefined }, current: string, path: string): string {
  if ((args.candidate === undefined) === (args.diff === undefined)) {
    throw new RatchetError('badInput', 'Give the candidate either as its whole text (candidate) or as a unified diff against the file (diff), not both and not neither.', { field: 'candidate' });
  }
  if (args.candidate !== undefined) return args.candidate;
  const patched = applyPatch(current, args.diff!);
  if (patched === false) {
    throw new RatchetError('badInput', `The diff does not apply to the current text of ${path} (a hunk's context or line numbers do not match); send the candidate's whole text instead, or a diff made against the file as it is now.`, {
      file: path,
      field: 'diff',
    });
  }
  return patched;
}

function appliedOf(o: JudgeRunOutcome, asked: boolean): 'applied' | 'stale' | 'not-requested' | 'not-committed' {
  if (!asked) return 'not-requested';
  return o.applied ?? 'not-committed';
}

function summaryOf(o: JudgeRunOutcome, path: string, asked: boolean): string {
  const sentence = verdictSentence(o.verdict!, o.evidence, path, o.stoppedBy);
  const applied = appliedOf(o, asked);
  const written = applied === 'applied' ? ' The candidate was written into the file.' : applied === 'stale' ? ' The file changed during the test, so the candidate was not written.' : '';
  const substituted = o.substitutedGate ? ` (The run spec's gate ${o.substitutedGate} has no error control, so ${o.gate} decided.)` : '';
  const tries =
    o.testsOnText > 1 ? ` This is candidate ${o.testsOnText} judged against this text: across them, up to ${o.testsOnText} × α = ${Number((o.testsOnText * o.evidence.alpha).toPrecision(2))} commits are expected by luck alone.` : '';
  return `${sentence}${written}${substituted}${tries} Run ${o.runId}.`;
}

function structured(o: JudgeRunOutcome, path: string, asked: boolean): Record<string, unknown> {
  return {
    verdict: o.verdict,
    summary: verdictSentence(o.verdict!, o.evidence, path, o.stoppedBy),
    // The judge's gates are all of the PACE family: there is always a wealth.
    evidence: { ...o.evidence, wealth: o.evidence.wealth ?? 1 },
    gate: o.gate,
    ...(o.substitutedGate ? { specGate: o.substitutedGate } : {}),
    applied: appliedOf(o, asked),
    cost: { calls: o.cost.calls, tokens: o.cost.tokens, ...(o.cost.dollars === undefined ? {} : { dollars: o.cost.dollars }) },
    budget: o.budget,
    runId: o.runId,
    resource: runUri(o.runId),
    testsOnThisText: o.testsOnText,
    warnings: o.warnings,
  };
}
