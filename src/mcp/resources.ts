/**
 * Runs and their decisions as MCP resources, so a client can show the evidence behind a verdict:
 * `ratchet://runs/<runId>` (the run: file, status, cost, every decision) and
 * `ratchet://runs/<runId>/decisions/<n>` (one decision, in numbers and in plain words). Both are
 * JSON, read from the run's journal in whichever root holds it (runRecords.ts says what is left out).
 * And `explain_decision`, the same words as a tool, for clients that do not read resources.
 */
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { listRuns } from '../core/journal/listRuns';
import { runPaths } from '../core/journal/journal';
import { NodeFiles } from '../node/files';
import { isOwnerAlive } from '../node/process';
import type { McpContext } from './context';
import { pickDecision, readRunView } from './runRecords';

export function runUri(runId: string): string {
  return `ratchet://runs/${runId}`;
}

export function decisionUri(runId: string, n: number): string {
  return `${runUri(runId)}/decisions/${n}`;
}

const JSON_TYPE = 'application/json';

export function registerResources(ctx: McpContext): void {
  const files = new NodeFiles();
  const rootOf = (runId: string) => ctx.roots.rootOfRun(runId, (root) => files.exists(runPaths(files, root, runId).runJson));
  const single = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

  ctx.server.registerResource(
    'run',
    new ResourceTemplate('ratchet://runs/{runId}', {
      list: async () => {
        const resources = [];
        for (const root of await ctx.roots.folders()) {
          for (const r of await listRuns(files, root, { isOwnerAlive, now: Date.now() })) {
            resources.push({
              uri: runUri(r.runId),
              name: r.runId,
              title: `${r.kind ?? 'run'} ${r.runId}`,
              description: `${r.kind ?? 'run'} of ${r.target ?? '?'}: ${r.status}, ${r.commits} committed of ${r.candidates}`,
              mimeType: JSON_TYPE,
            });
          }
        }
        return { resources };
      },
    }),
    { title: 'Ratchet run', description: 'A run journaled under .ratchet/runs: its file, status, cost and every decision with its evidence.', mimeType: JSON_TYPE },
    async (uri, { runId }) => {
      const id = checkedRunId(single(runId));
      const view = await readRunView(files, await rootOf(id), id);
      return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: ctx.scrub(JSON.stringify(view, null, 2)) }] };
    },
  );

  ctx.server.registerResource(
    'decision',
    new ResourceTemplate('ratchet://runs/{runId}/decisions/{n}', { list: undefined }),
    { title: 'Ratchet decision', description: 'One gate decision of a run (1-based): the evidence against 1/α, pairs won and lost, ties, and what it means in plain words.', mimeType: JSON_TYPE },
    async (uri, { runId, n }) => {
      const id = checkedRunId(single(runId));
      const view = await readRunView(files, await rootOf(id), id);
      const decision = pickDecision(view, Number(single(n)));
      return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: ctx.scrub(JSON.stringify({ runId: id, file: view.file, ...decision }, null, 2)) }] };
    },
  );

  ctx.server.registerTool(
    'explain_decision',
    {
      title: 'Explain a decision',
      description: "A gate decision of a run in plain words: why the candidate was committed or not, its evidence against the 1/α line, the pairs it won and lost. The run's last decision unless `decision` names one (1-based).",
      inputSchema: { runId: z.string().min(1), decision: z.number().int().min(1).optional() },
      outputSchema: {
        runId: z.string(),
        n: z.number().int(),
        candidateId: z.string(),
        decision: z.enum(['commit', 'reject']),
        reason: z.string(),
        evidence: z.number().optional().describe('Absent for a gate without an e-process.'),
        threshold: z.number(),
        wins: z.number().int(),
        losses: z.number().int(),
        ties: z.number().int(),
        explanation: z.string(),
        resource: z.string(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ runId, decision }) => {
      try {
        const id = checkedRunId(runId);
        const view = await readRunView(files, await rootOf(id), id);
        const d = pickDecision(view, decision);
        return ctx.result(d.explanation, {
          runId: id,
          n: d.n,
          candidateId: d.candidateId,
          decision: d.decision,
          reason: d.reason,
          ...(d.evidence === null ? {} : { evidence: d.evidence }),
          threshold: d.threshold,
          wins: d.wins,
          losses: d.losses,
          ties: d.ties,
          explanation: d.explanation,
          resource: decisionUri(id, d.n),
        });
      } catch (err) {
        return ctx.error(err);
      }
    },
  );
}

/** A run id names a folder under .ratchet/runs: nothing that could climb out of it. */
export function checkedRunId(runId: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(runId)) throw new Error(`"${runId}" is not a run id (ratchet runs list shows them).`);
  return runId;
}
