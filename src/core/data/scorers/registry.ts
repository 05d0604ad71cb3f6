/**
 * `createScorer(spec, deps)`: one place that turns a resolved scorer spec into a Scorer, checking
 * its configuration before any LLM call. Ports come in `deps`: the LLM client for llm-rubric, the
 * process runner for command, a module loader for module (src/node/scorers.ts supplies it).
 */
import { RatchetError } from '../../errors';
import { assertNever } from '../../errors';
import { isPlainObject } from '../item';
import type { DataItem } from '../item';
import { commandScorer } from './command';
import { jsonSchemaScorer } from './jsonSchema';
import { numericScorer } from './numeric';
import { rubricScorer } from './rubric';
import { containsScorer, exactScorer, regexScorer } from './text';
import { checkScore, scorerConfigError } from './types';
import type { Scorer, ScorerDeps, ScorerSpec, ScorerSpecOf, ScoreResult } from './types';

export async function createScorer(spec: ScorerSpec, deps: ScorerDeps): Promise<Scorer> {
  switch (spec.type) {
    case 'exact':
      return exactScorer(spec);
    case 'contains':
      return containsScorer(spec);
    case 'regex':
      return regexScorer(spec, deps);
    case 'numeric':
      return numericScorer(spec);
    case 'json-schema':
      return jsonSchemaScorer(spec, deps);
    case 'llm-rubric':
      if (!deps.llm) throw new RatchetError('internal', 'the llm-rubric scorer needs an LLM client');
      return rubricScorer(spec, deps.llm);
    case 'module':
      return moduleScorer(spec, deps);
    case 'command':
      return commandScorer(spec, deps);
    default:
      return assertNever(spec, 'scorer type');
  }
}

/** What a scorer module's function may return. */
export type ModuleScoreFn = (output: string, item: DataItem) => unknown;

async function moduleScorer(spec: ScorerSpecOf<'module'>, deps: ScorerDeps): Promise<Scorer> {
  if (!deps.importModule || !deps.files) {
    throw new RatchetError('internal', 'the module scorer needs a module loader and file access (see src/node/scorers.ts)');
  }
  const path = deps.files.resolve(deps.baseDir, spec.path);
  if (!(await deps.files.exists(path))) throw scorerConfigError(deps, 'path', `module not found: ${path}`);
  let mod: unknown;
  try {
    mod = await deps.importModule(path);
  } catch (err) {
    throw scorerConfigError(deps, 'path', `could not load ${path}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  const fn = findExport(mod, spec.export);
  if (!fn) {
    throw scorerConfigError(deps, 'export', `${path} does not export a function named "${spec.export}" (write export function ${spec.export}(output, item) { … })`);
  }
  return wrapScoreFunction(fn, 'module');
}

function findExport(mod: unknown, name: string): ModuleScoreFn | undefined {
  if (!isPlainObject(mod) && typeof mod !== 'function') return undefined;
  const m = mod as Record<string, unknown>;
  const direct = m[name];
  if (typeof direct === 'function') return direct as ModuleScoreFn;
  // A CommonJS module imported as ESM arrives as { default: module.exports }.
  const viaDefault = isPlainObject(m.default) ? m.default[name] : undefined;
  if (typeof viaDefault === 'function') return viaDefault as ModuleScoreFn;
  if (name === 'score' && typeof m.default === 'function') return m.default as ModuleScoreFn;
  return undefined;
}

/** Adapts a user function returning a number, `{ score, reason }` or a promise of either. */
export function wrapScoreFunction(fn: ModuleScoreFn, type: 'module'): Scorer {
  return {
    type,
    needsExpected: false,
    requiresTrust: true,
    score: async (output, item): Promise<ScoreResult> => {
      const value = await fn(output, item);
      if (isPlainObject(value)) {
        const score = checkScore(value.score, type, item);
        return typeof value.reason === 'string' ? { score, reason: value.reason } : { score };
      }
      // Booleans are a natural pass/fail answer from a hand-written check.
      if (typeof value === 'boolean') return { score: value ? 1 : 0 };
      return { score: checkScore(value, type, item) };
    },
  };
}
