/**
 * `evaluate`: a prompt file's mean score on its dev or test split, with a 95 % interval, within a
 * budget refused before any call when it could pass it, journaled as an `evaluate` run. The score
 * and the interval only: no item, no output (GATES.md A1).
 */
import { relative } from 'node:path';
import { z } from 'zod';
import { RatchetError } from '../core/errors';
import { isPromptPath, promptExtensionsText } from '../core/files/fileKinds';
import { loadRunSpec } from '../core/setup/spec';
import { NodeFiles } from '../node/files';
import { scorePromptFile } from '../node/runs/scoreRun';
import type { McpContext } from './context';
import { budgetInput } from './judgeTool';
import { progressOf } from './progress';
import { runUri } from './resources';

export function registerEvaluateTool(ctx: McpContext): void {
  ctx.server.registerTool(
    'evaluate',
    {
      title: 'Score a prompt file',
      description: "A prompt file's mean score on its dev or test split (its run spec's dataset and scorer), with a 95% interval. Use the test split to report a result; compare two texts with judge_edit, which decides with error control.",
      inputSchema: {
        file: z.string().min(1).describe("The prompt file, inside the client's roots."),
        split: z.enum(['dev', 'test']).optional().describe('Which split to score (default test).'),
        budget: budgetInput.optional(),
      },
      outputSchema: {
        split: z.enum(['dev', 'test']),
        // Absent (not null) when a budget stopped the evaluation: nullable types are less portable across clients.
        n: z.number().int().optional(),
        mean: z.number().optional(),
        lo: z.number().optional(),
        hi: z.number().optional(),
        stoppedBy: z.string().optional(),
        cost: z.object({ calls: z.number().int(), tokens: z.number().int(), dollars: z.number().optional().describe('Absent when a model is unpriced.') }),
        runId: z.string(),
        resource: z.string(),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      try {
        const { path, root } = await ctx.roots.resolve(args.file);
        if (!isPromptPath(path)) throw new RatchetError('badInput', `${path} is not a prompt file (${promptExtensionsText()}).`, { file: path, field: 'file' });
        const split = args.split ?? 'test';
        const { transport, free } = ctx.transportFor(await loadRunSpec(new NodeFiles(), path));
        const controller = ctx.controllerFor(extra.signal);
        const progress = progressOf(extra, 'scored');
        const o = await scorePromptFile({
          path,
          workspace: root,
          split,
          ...(args.budget ? { budget: args.budget } : {}),
          endpointDefaults: ctx.options.endpoint,
          ...(transport ? { transport, clientModels: free } : {}),
          untrusted: !ctx.options.trusted,
          onEvent: progress.onEvent,
          signal: controller.signal,
          version: ctx.options.version,
        });
        await progress.sent();
        if (o.status !== 'finished')
          throw o.status === 'cancelled' ? new RatchetError('cancelled', `The evaluation was cancelled (run ${o.runId}).`) : new RatchetError('internal', `The evaluation failed (run ${o.runId}): ${o.error?.message ?? 'unknown error'}`);
        const s = o.score;
        const shown = relative(root, path);
        const text = s
          ? `${shown} scores ${s.mean.toFixed(3)} on its ${split} split (95% interval ${s.lo.toFixed(3)}–${s.hi.toFixed(3)}, n = ${s.n}). Run ${o.runId}.`
          : `The budget stopped the evaluation of ${shown} before every ${split} item was scored (${o.stoppedBy ?? 'a budget ran out'}), so no score is reported; raise the budget. Run ${o.runId}.`;
        return ctx.result(text, {
          split,
          ...(s ? { n: s.n, mean: s.mean, lo: s.lo, hi: s.hi } : {}),
          ...(o.stoppedBy ? { stoppedBy: o.stoppedBy } : {}),
          cost: { calls: o.cost.calls, tokens: o.cost.tokens, ...(o.cost.dollars === undefined ? {} : { dollars: o.cost.dollars }) },
          runId: o.runId,
          resource: runUri(o.runId),
        });
      } catch (err) {
        return ctx.error(err);
      }
    },
  );
}
