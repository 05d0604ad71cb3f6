/**
 * Gated evolution and code search, started and followed from the agent: `start_run` (answered with
 * the run id once its journal exists), `run_status` (the live status while this server runs it,
 * else what its journal says), `cancel_run`, `list_runs`. Each run is budgeted: small defaults
 * when the call names none, so a forgotten budget spends little.
 */
import { z } from 'zod';
import { RatchetError } from '../core/errors';
import { isPromptPath } from '../core/files/fileKinds';
import { listRuns } from '../core/journal/listRuns';
import { runPaths } from '../core/journal/journal';
import { loadRunSpec } from '../core/setup/spec';
import { NodeFiles } from '../node/files';
import { isOwnerAlive } from '../node/process';
import type { McpContext } from './context';
import { checkedRunId, runUri } from './resources';
import { InProcessRuns } from './runHost';
import { daemonRunStatuses } from './daemonRuns';
import { readRunView } from './runRecords';

/** What a run started from an agent may spend when the call does not say. */
export const DEFAULT_RUN_BUDGET = Object.freeze({ candidates: 5, calls: 200, proposals: 10, evaluations: 40 });

const runBudget = z
  .object({
    candidates: z.number().int().min(1).optional().describe('evolve: candidates to test (default 5).'),
    calls: z.number().int().min(1).optional().describe('evolve: LLM calls in all (default 200).'),
    proposals: z.number().int().min(1).optional().describe('search: programs to propose (default 10).'),
    evaluations: z.number().int().min(1).optional().describe('search: evaluator runs (default 40).'),
    dollars: z.number().positive().optional().describe('search: USD (its models must be priced).'),
  })
  .strict();

const status = {
  runId: z.string(),
  state: z.string().describe('running, waiting-for-you, finished, failed, cancelled, interrupted (or corrupt).'),
  kind: z.string().optional(),
  file: z.string().optional(),
  line: z.string().describe('One line of progress.'),
  tested: z.number().int(),
  commits: z.number().int(),
  error: z.string().optional(),
  live: z.boolean().describe('Whether its status is live — this server runs it, or the editor’s run daemon does — rather than read from its journal.'),
  resource: z.string(),
};

export function registerRunTools(ctx: McpContext): InProcessRuns {
  const files = new NodeFiles();
  const runs = new InProcessRuns(files);

  ctx.server.registerTool(
    'start_run',
    {
      title: 'Start a gated run',
      description:
        'Starts a gated evolution of a prompt file (kind evolve) or a code search of a program with EVOLVE-BLOCK regions (kind search), journaled under .ratchet/runs, and answers with its run id at once; follow it with run_status. An edit reaches the file only when the gate commits it, and only with apply: true (evolve: each commit as it comes; search: the best program at the end).',
      inputSchema: {
        file: z.string().min(1).describe("The prompt file or program, inside the client's roots."),
        kind: z.enum(['evolve', 'search']).optional().describe('Default: evolve for a prompt file, search for anything else.'),
        apply: z.boolean().optional().describe('Write committed edits into the file (default false: decisions only).'),
        budget: runBudget.optional(),
      },
      outputSchema: { runId: z.string(), kind: z.enum(['evolve', 'search']), file: z.string(), resource: z.string(), budget: z.record(z.string(), z.number()) },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    async (args) => {
      try {
        const { path, root } = await ctx.roots.resolve(args.file);
        const kind = args.kind ?? (isPromptPath(path) ? 'evolve' : 'search');
        const b = args.budget ?? {};
        let budget: Record<string, number>;
        let started: { runId: string };
        if (kind === 'evolve') {
          const { transport } = ctx.transportFor(await loadRunSpec(files, path));
          budget = { candidates: b.candidates ?? DEFAULT_RUN_BUDGET.candidates, calls: b.calls ?? DEFAULT_RUN_BUDGET.calls };
          started = await runs.start({
            kind,
            path,
            root,
            apply: args.apply === true,
            evolve: { candidates: budget.candidates!, budgetCalls: budget.calls! },
            endpoint: ctx.options.endpoint,
            ...(transport ? { transport } : {}),
            untrusted: !ctx.options.trusted,
            version: ctx.options.version,
          });
        } else {
          if (ctx.transportFor(undefined).transport) {
            throw new RatchetError('badInput', 'A code search calls an OpenAI-compatible endpoint for its proposals, and ratchet mcp has none configured: set OPENAI_API_KEY (and OPENAI_BASE_URL) in its environment or pass --base-url.', {
              field: 'endpoint',
            });
          }
          budget = { proposals: b.proposals ?? DEFAULT_RUN_BUDGET.proposals, evaluations: b.evaluations ?? DEFAULT_RUN_BUDGET.evaluations, ...(b.dollars === undefined ? {} : { dollars: b.dollars }) };
          const search = { proposals: budget.proposals!, evaluations: budget.evaluations!, ...(b.dollars === undefined ? {} : { budgetDollars: b.dollars }) };
          started = await runs.start({ kind, path, root, apply: args.apply === true, search, endpoint: ctx.options.endpoint, untrusted: !ctx.options.trusted, version: ctx.options.version });
        }
        return ctx.result(`Started ${kind} run ${started.runId} on ${path}; follow it with run_status.`, { runId: started.runId, kind, file: path, resource: runUri(started.runId), budget });
      } catch (err) {
        return ctx.error(err);
      }
    },
  );

  ctx.server.registerTool(
    'run_status',
    {
      title: 'Run status',
      description: "A run's status: live while this server or the editor's run daemon runs it, else read from its journal (runs started by the CLI too).",
      inputSchema: { runId: z.string().min(1) },
      outputSchema: status,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ runId }) => {
      try {
        const id = checkedRunId(runId);
        const live = runs.status(id) ?? (await daemonRunStatuses(ctx.options.workspaces, ctx.options.version)).get(id);
        const root = await ctx.roots.rootOfRun(id, (r) => files.exists(runPaths(files, r, id).runJson));
        const view = await readRunView(files, root, id);
        const s = live
          ? { runId: id, state: live.state, kind: view.kind, file: view.file, line: live.line, tested: live.tested, commits: live.commits, ...(live.error ? { error: live.error } : {}), live: true }
          : {
              runId: id,
              state: view.status,
              kind: view.kind,
              file: view.file,
              line: `${view.candidates} candidates, ${view.commits} committed`,
              tested: view.decisions.length,
              commits: view.commits,
              ...(view.reason ? { error: view.reason } : {}),
              live: false,
            };
        const structured = Object.fromEntries(Object.entries({ ...s, resource: runUri(id) }).filter(([, v]) => v !== undefined));
        return ctx.result(`Run ${id} (${s.kind ?? 'run'} of ${s.file ?? '?'}): ${s.state} — ${s.line}.`, structured);
      } catch (err) {
        return ctx.error(err);
      }
    },
  );

  ctx.server.registerTool(
    'cancel_run',
    {
      title: 'Cancel a run',
      description: 'Stops a run this server started; what it journaled stays, and it can be resumed with `ratchet runs resume`.',
      inputSchema: { runId: z.string().min(1) },
      outputSchema: { runId: z.string(), cancelled: z.boolean() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ runId }) => {
      try {
        const id = checkedRunId(runId);
        const cancelled = runs.cancel(id);
        return ctx.result(cancelled ? `Run ${id} is being stopped.` : `Run ${id} is not running in this server (already over, or started elsewhere).`, { runId: id, cancelled });
      } catch (err) {
        return ctx.error(err);
      }
    },
  );

  ctx.server.registerTool(
    'list_runs',
    {
      title: 'List runs',
      description: "The runs journaled under each root's .ratchet/runs, newest first: evolve, search, judge, evaluate and dev-set runs, whoever started them.",
      inputSchema: { limit: z.number().int().min(1).max(500).optional().describe('At most this many (default 50).') },
      outputSchema: {
        runs: z.array(
          z.object({
            runId: z.string(),
            kind: z.string().optional(),
            file: z.string().optional(),
            status: z.string(),
            candidates: z.number().int(),
            commits: z.number().int(),
            calls: z.number().int().optional(),
            dollars: z.number().optional(),
            resource: z.string(),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ limit }) => {
      try {
        const rows = [];
        const daemon = await daemonRunStatuses(ctx.options.workspaces, ctx.options.version);
        for (const root of await ctx.roots.folders()) {
          for (const r of await listRuns(files, root, { isOwnerAlive, now: Date.now() })) {
            rows.push({
              runId: r.runId,
              ...(r.kind ? { kind: r.kind } : {}),
              ...(r.target ? { file: r.target } : {}),
              status: runs.status(r.runId)?.state ?? daemon.get(r.runId)?.state ?? r.status,
              candidates: r.candidates,
              commits: r.commits,
              ...(r.cost ? { calls: r.cost.llmCalls, ...(r.cost.dollars === undefined ? {} : { dollars: r.cost.dollars }) } : {}),
              resource: runUri(r.runId),
            });
          }
        }
        rows.sort((a, b) => (a.runId < b.runId ? 1 : -1));
        const shown = rows.slice(0, limit ?? 50);
        const text = shown.length === 0 ? 'No runs yet.' : shown.map((r) => `${r.runId}  ${r.kind ?? '?'}  ${r.status}  ${r.commits}/${r.candidates} committed  ${r.file ?? ''}`).join('\n');
        return ctx.result(text, { runs: shown });
      } catch (err) {
        return ctx.error(err);
      }
    },
  );
  return runs;
}
