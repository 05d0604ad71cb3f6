/**
 * `harness: type: command` — a version of a Copilot file (or any prompt) applied to a real agent:
 * for each item, the user's command runs in the evaluation sandbox (src/node/sandbox: a fresh
 * temporary folder, its own process group killed as a whole, resource limits, an allow-listed
 * environment that never holds a provider key), and what it prints is the output the scorer scores.
 *
 * The sandbox's folder stands for the workspace: the candidate file is at its place there
 * (`.github/skills/triage/SKILL.md`), so an agent CLI started in it finds the file where it looks
 * for it, beside the spec's `supportFiles`. `{file}` is that copy, `{input}` a file holding the
 * user message (the rendered prompt for a prompt file, the item's message for instructions, agents
 * and skills), `{item}` a file holding the item as JSON; both paths are relative to the command's
 * working folder.
 *
 * A command that exits non-zero or runs past its timeout scores 0 on the item, with the reason in
 * words: the candidate's agent run failed there. One that cannot start (not found) fails the run.
 * Outputs are kept on disk by content (the file's text, the item, the harness), like the LLM
 * response cache, so a resume replays the outputs it had instead of asking an agent again.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import type { EvaluationSandbox } from '../../core/code/evaluatorPort';
import type { DataItem } from '../../core/data/item';
import { stableJson } from '../../core/data/item';
import { itemMessage } from '../../core/data/itemMessage';
import type { AgentAnswer, AgentHarness } from '../../core/evolve/harness';
import { evaluatedAs } from '../../core/files/fileKinds';
import { fileTextWith } from '../../core/prompt/evolvable';
import type { PromptFile } from '../../core/prompt/promptFile';
import type { Template } from '../../core/prompt/template';
import { renderPrompt } from '../../core/prompt/template';
import { sha256Hex } from '../../core/random';
import type { HarnessSpec } from '../../core/run/specTypes';
import type { NodeFiles } from '../files';
import { evaluatorIdentity } from './evaluationCache';

type CommandHarnessSpec = Extract<HarnessSpec, { type: 'command' }>;

export interface CommandHarnessOptions {
  spec: CommandHarnessSpec;
  prompt: PromptFile;
  template: Template;
  /** The folder the sandbox's copy stands for: paths in it are relative to this. */
  workspace: string;
  files: NodeFiles;
  /** Where outputs are kept (`.ratchet/cache/harness`). */
  cacheDir: string;
  /** Values that must never reach the command (the run's API keys). */
  secrets: string[];
  sandbox: EvaluationSandbox;
}

/** Where the item's message and the item go in the sandbox, relative to its working folder. */
const INPUT_DIR = '.ratchet-input';
const INPUT = `${INPUT_DIR}/message.txt`;
const ITEM = `${INPUT_DIR}/item.json`;

/** How many characters of the command's stderr a failure's reason quotes. */
const STDERR_TAIL = 300;

export async function commandHarness(o: CommandHarnessOptions): Promise<AgentHarness> {
  const { spec, prompt } = o;
  const inWorkspace = (path: string): string => {
    const rel = relative(o.workspace, path);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? basename(path) : rel.split(sep).join('/');
  };
  const programName = inWorkspace(prompt.path);
  const identity = await evaluatorIdentity(o.files, { spec: { harness: spec, programName }, filesRun: spec.supportFiles });
  // Placeholders of the sandbox's own command language stand in for the harness's.
  const command = spec.command
    .replace(/\{file\}/g, '{program}')
    .replace(/\{input\}/g, INPUT)
    .replace(/\{item\}/g, ITEM);
  const how = evaluatedAs(prompt.kind);
  const messageOf = (versionText: string, item: DataItem): string => (how === 'user-message' ? renderPrompt({ ...o.template, text: versionText }, item.vars, item.id) : itemMessage(item, spec.message));

  const cachePath = (key: string) => join(o.cacheDir, key.slice(0, 2), `${key}.json`);
  return {
    async answer(versionText, item, signal): Promise<AgentAnswer> {
      const fileText = fileTextWith(prompt, versionText);
      const input = messageOf(versionText, item);
      const key = sha256Hex(stableJson({ harness: identity, file: sha256Hex(fileText), item: { id: item.id, vars: item.vars, expected: item.expected ?? null } }));
      const kept = await o.files.tryReadText(cachePath(key));
      if (kept !== undefined) {
        try {
          return JSON.parse(kept) as AgentAnswer;
        } catch {
          // A torn entry (a crash mid-write) is run again and rewritten.
        }
      }
      const scratch = await mkdtemp(join(tmpdir(), 'ratchet-harness-'));
      try {
        await writeFile(join(scratch, 'message.txt'), input);
        await writeFile(join(scratch, 'item.json'), JSON.stringify({ id: item.id, vars: item.vars, expected: item.expected ?? null }));
        const run = await o.sandbox.run({
          command,
          programText: fileText,
          programName,
          supportFiles: [...spec.supportFiles.map((from) => ({ from, to: inWorkspace(from) })), { from: join(scratch, 'message.txt'), to: INPUT }, { from: join(scratch, 'item.json'), to: ITEM }],
          timeoutMs: spec.timeoutSeconds * 1000,
          env: spec.env,
          network: spec.network,
          // The harness runs the user's own agent (its CLI, its credentials under HOME), not code an
          // LLM wrote: no jail, as before the evaluator sandbox had one (docs/sandbox.md, #26).
          isolation: 'off',
          secrets: o.secrets,
          signal,
        });
        if (run.cancelled) signal.throwIfAborted();
        const answer = answerOf(run, spec, input);
        if (!signal.aborted) {
          await o.files.mkdirp(o.files.dirname(cachePath(key)));
          await o.files.writeTextAtomic(cachePath(key), JSON.stringify(answer));
        }
        return answer;
      } finally {
        await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
      }
    },
  };
}

function answerOf(run: Awaited<ReturnType<EvaluationSandbox['run']>>, spec: CommandHarnessSpec, input: string): AgentAnswer {
  const stderr = run.stderr.trim();
  const tail = stderr.length > STDERR_TAIL ? `…${stderr.slice(-STDERR_TAIL)}` : stderr;
  const failed = (why: string): AgentAnswer => ({ input, output: `(the harness command ${why})`, decided: { score: 0, reason: `the harness command ${why}` } });
  if (run.timedOut) return failed(`ran past its ${spec.timeoutSeconds} s timeout and was stopped`);
  if (run.exitCode !== 0) return failed(`${run.exitCode === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with code ${run.exitCode}`}${tail ? `: ${tail}` : ''}`);
  return { input, output: run.stdout.replace(/\s+$/, '') };
}
