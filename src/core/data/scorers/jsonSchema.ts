/**
 * The json-schema scorer: 1 when the output is JSON that satisfies the schema. Models often wrap
 * JSON in a ```json fence; the first fenced block is taken when there is one.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { isPlainObject } from '../item';
import { scorerConfigError } from './types';
import type { Scorer, ScorerDeps, ScorerSpecOf } from './types';

const FENCE = /```[ \t]*(?:json|JSON|jsonc)?[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```/;

/** The JSON text in an output: the first fenced block if any, else the whole output. */
export function extractJsonText(output: string): string {
  const m = FENCE.exec(output);
  return (m ? m[1]! : output).trim();
}

/**
 * Compiles a user schema. Draft 2020-12 when the schema says so, draft-07 otherwise. Not strict:
 * schemas written for other tools carry keywords Ajv does not know, and formats are not checked
 * (no format plug-in is bundled), which must not make a valid schema unusable.
 */
export function compileUserSchema(schema: Record<string, unknown>, deps: Pick<ScorerDeps, 'locate'>): ValidateFunction {
  const is2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  const options = { allErrors: true, strict: false, validateFormats: false } as const;
  try {
    return is2020 ? new Ajv2020(options).compile(schema) : new Ajv(options).compile(schema);
  } catch (err) {
    throw scorerConfigError(deps, 'schema', `not a valid JSON schema: ${err instanceof Error ? err.message : String(err)}`, err);
  }
}

/** The schema from the spec: inline, or a .json/.yaml file relative to the spec. */
export async function resolveSchema(spec: ScorerSpecOf<'json-schema'>, deps: ScorerDeps): Promise<Record<string, unknown>> {
  if (typeof spec.schema !== 'string') return spec.schema;
  if (!deps.files) throw scorerConfigError(deps, 'schema', 'a schema file needs file access (no Files port given)');
  const path = deps.files.resolve(deps.baseDir, spec.schema);
  const text = await deps.files.tryReadText(path);
  if (text === undefined) throw scorerConfigError(deps, 'schema', `schema file not found: ${path}`);
  let value: unknown;
  try {
    value = parseYaml(text); // JSON is YAML, so one parser reads both file kinds
  } catch (err) {
    throw scorerConfigError(deps, 'schema', `${path} is not valid JSON or YAML: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  if (!isPlainObject(value)) throw scorerConfigError(deps, 'schema', `${path} must contain a JSON schema object`);
  return value;
}

export async function jsonSchemaScorer(spec: ScorerSpecOf<'json-schema'>, deps: ScorerDeps): Promise<Scorer> {
  const validate = compileUserSchema(await resolveSchema(spec, deps), deps);
  return {
    type: 'json-schema',
    needsExpected: false,
    requiresTrust: false,
    score: (output) => {
      let value: unknown;
      try {
        value = JSON.parse(extractJsonText(output));
      } catch (err) {
        return Promise.resolve({ score: 0, reason: `output is not valid JSON (${err instanceof Error ? err.message : String(err)})` });
      }
      if (validate(value)) return Promise.resolve({ score: 1 });
      const why = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
      return Promise.resolve({ score: 0, reason: `output does not match the schema: ${why.join('; ')}` });
    },
  };
}
