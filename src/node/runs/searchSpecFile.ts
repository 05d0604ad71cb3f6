/**
 * A code search's run spec as a file gives it: the sidecar next to the program (`<file>.ratchet.yaml`),
 * else a ShinkaEvolve task folder's defaults, with the command line's flags on top; the files its
 * evaluator command names (support files beside the program, absolute paths that key the cache).
 */
import { availableParallelism } from 'node:os';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { badInputError, diagnostic, errorsOf } from '../../core/data/diagnostics';
import type { SearchOverrides } from '../../core/run/overrides';
import { CODE_DEFAULTS, resolveCodeSpec } from '../../core/code/spec';
import type { CodeRunSpec } from '../../core/code/spec';
import { commandUsesInstances } from '../../core/code/evaluation';
import { commandFileWords, isBesideName } from '../../core/code/commandFiles';
import { schemaDiagnostics } from '../../core/setup/specSchema';
import { mergeSpecTexts, readSpecText } from '../../core/setup/specSource';
import { RUN_SPEC_EXTENSIONS } from '../../core/files/fileKinds';
import type { NodeFiles } from '../files';

/** Files the evaluator command names by absolute path (those beside the program are support files): they key the evaluation cache. */
export async function namedFiles(files: NodeFiles, command: string | undefined, programPath: string): Promise<string[]> {
  if (command === undefined) return [];
  const found: string[] = [];
  for (const w of commandFileWords(command, basename(programPath))) {
    if (isAbsolute(w) && (await files.isFile(w))) found.push(w);
  }
  return found;
}

/**
 * A command naming a file beside the program (`--evaluator "node evaluate.mjs {program} {results}"`)
 * gets that file copied into the sandbox, as Configure Code Search's supportFiles do: the sandbox
 * runs in a fresh folder, where the relative name would otherwise not be found.
 */
export async function withCommandFiles(files: NodeFiles, spec: CodeRunSpec, programPath: string): Promise<CodeRunSpec> {
  const { command, supportFiles } = spec.evaluator;
  if (command === undefined) return spec;
  const beside = commandFileWords(command, basename(programPath)).filter(isBesideName);
  const extra: string[] = [];
  for (const w of beside) {
    const path = resolve(dirname(programPath), w);
    if (!supportFiles.includes(path) && (await files.isFile(path))) extra.push(path);
  }
  return extra.length === 0 ? spec : { ...spec, evaluator: { ...spec.evaluator, supportFiles: [...supportFiles, ...extra] } };
}

/** The sidecar next to the program, else a ShinkaEvolve task folder's defaults, with the flags on top. */
export async function loadCodeSpec(files: NodeFiles, programPath: string, o: SearchOverrides): Promise<CodeRunSpec> {
  const sidecars = RUN_SPEC_EXTENSIONS.map((ext) => `${programPath}${ext}`);
  let sidecar: string | undefined;
  for (const path of sidecars) if (await files.exists(path)) sidecar = path;
  const shinkaTask = await files.exists(files.join(dirname(programPath), CODE_DEFAULTS.shinkaEvaluator));
  const file = sidecar ?? sidecars[0]!;
  const text = sidecar ? await files.readText(sidecar) : 'kind: code\n';
  const { spec: read, diagnostics } = readSpecText(file, text);
  if (!read) throw badInputError(diagnostics);
  if (read.value.kind !== 'code') {
    const kind = read.value.kind === undefined ? 'no kind (a prompt run spec)' : `kind ${JSON.stringify(read.value.kind)}`;
    throw badInputError([diagnostic(read.locate(['kind']), `this run spec has ${kind}; a code search needs kind: code`, { field: 'kind' })]);
  }
  const schema = schemaDiagnostics(read.value, read.locate);
  if (errorsOf(schema).length > 0) throw badInputError(schema);
  const { merged } = mergeSpecTexts([read], file);
  const baseDir = dirname(file);
  const resolved = resolveCodeSpec(merged, { programPath, baseDir, resolvePath: (p) => resolve(baseDir, p), shinkaTask: shinkaTask || o.evaluator !== undefined, defaultSlots: Math.max(1, availableParallelism() - 1) });
  if (errorsOf(resolved.diagnostics).length > 0) throw badInputError(resolved.diagnostics);
  const spec = resolved.spec;
  return {
    ...spec,
    evaluator: {
      ...spec.evaluator,
      ...(o.evaluator === undefined ? {} : { command: o.evaluator, shards: spec.evaluator.shards && commandUsesInstances(o.evaluator) }),
      ...(o.timeoutSeconds === undefined ? {} : { timeoutSeconds: o.timeoutSeconds }),
    },
    gate: { ...spec.gate, ...(o.gate ? { name: o.gate as CodeRunSpec['gate']['name'] } : {}), ...(o.alpha === undefined ? {} : { alpha: o.alpha }) },
    budget: {
      ...spec.budget,
      ...(o.proposals === undefined ? {} : { proposals: o.proposals }),
      ...(o.evaluations === undefined ? {} : { evaluations: o.evaluations }),
      ...(o.budgetDollars === undefined ? {} : { dollars: o.budgetDollars }),
    },
    ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
    ...(o.islands === undefined ? {} : { islands: o.islands }),
    ...(o.seed === undefined ? {} : { seed: o.seed }),
  };
}
