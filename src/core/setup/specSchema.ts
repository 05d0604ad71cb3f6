/**
 * Validates a run spec against schemas/run-spec.schema.json (the file that ships for editors) and
 * turns Ajv's errors into located, plain-language diagnostics: "unknown key "gatee" in run spec
 * (did you mean "gate"?)" at the key's line and column, not "must NOT have additional properties".
 *
 * Unions (`gate: pace+` or `gate: { name: … }`) make Ajv report every branch's failure; we keep the
 * errors of the branch whose JSON type matches the value (an object → the mapping branch), or one
 * "must be …" message from the union's `x-expected` annotation when no branch fits.
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import runSpecSchema from '../../../schemas/run-spec.schema.json';
import { describeValue, diagnostic, didYouMean } from '../data/diagnostics';
import type { Diagnostic, Location } from '../data/diagnostics';
import type { YamlPath } from '../data/yamlSource';

/** Locates a path of the spec value in its file (`part: 'key'` → the key, else the value). */
export type SpecLocate = (path: YamlPath, part?: 'key' | 'value') => Location;

export const RUN_SPEC_SCHEMA: Readonly<Record<string, unknown>> = runSpecSchema;

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!compiled) {
    // validateSchema: false — the schema ships with us and its test checks it against draft-07
    // (schema.test.ts); Ajv's meta-schema compiled for every first spec read took ~130 ms.
    const ajv = new Ajv({ allErrors: true, verbose: true, discriminator: true, strict: true, validateSchema: false });
    // Our annotation for union error messages; editors ignore unknown keywords.
    ajv.addVocabulary(['x-expected']);
    compiled = ajv.compile(runSpecSchema);
  }
  return compiled;
}

/** Dotted field name: gate.alpha, gate.lambdas[0]. */
export function fieldName(path: YamlPath): string {
  return path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

/** Every schema problem of a spec value, located with `locate`. */
export function schemaDiagnostics(value: unknown, locate: SpecLocate): Diagnostic[] {
  const validate = validator();
  if (validate(value)) return [];
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of relevantErrors(validate.errors ?? [])) {
    const m = describeError(e);
    if (!m) continue;
    const d = diagnostic(locate(m.path, m.part), m.message, { field: fieldName(m.path) });
    const key = `${d.line}:${d.column}:${d.message}`;
    if (!seen.has(key)) out.push(d);
    seen.add(key);
  }
  // Ajv reports in schema order; a reader expects file order.
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

function pathOf(instancePath: string): (string | number)[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

type JsonKind = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

function kindOf(v: unknown): JsonKind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonKind;
}

function branchAccepts(branch: unknown, kind: JsonKind): boolean {
  if (typeof branch !== 'object' || branch === null) return true;
  const b = branch as { type?: string | string[]; enum?: unknown[]; const?: unknown };
  const fits = (t: string): boolean => t === kind || (t === 'number' && kind === 'integer');
  if (b.type !== undefined) return (Array.isArray(b.type) ? b.type : [b.type]).some(fits);
  if (b.enum) return b.enum.some((x) => fits(kindOf(x)));
  if ('const' in b) return fits(kindOf(b.const));
  return true;
}

/** Drops the errors of union branches that do not apply to the value's JSON type. */
function relevantErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  let errs = [...errors];
  const unions = errs.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const u of unions) {
    if (!errs.includes(u)) continue;
    const prefix = `${u.schemaPath}/`;
    const under = (e: ErrorObject): boolean => e.schemaPath.startsWith(prefix) && (e.instancePath === u.instancePath || e.instancePath.startsWith(`${u.instancePath}/`));
    const branches = Array.isArray(u.schema) ? (u.schema as unknown[]) : [];
    const kind = kindOf(u.data);
    const fitting = branches.map((_, i) => i).filter((i) => branchAccepts(branches[i], kind));
    if (fitting.length === 1) {
      const keep = `${prefix}${fitting[0]}/`;
      errs = errs.filter((e) => e !== u && (!under(e) || e.schemaPath.startsWith(keep)));
    } else {
      errs = errs.filter((e) => !under(e));
    }
  }
  return errs;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a mapping (key: value lines)',
  array: 'a list',
  null: 'empty',
};

const COMPARISON: Record<string, string> = { minimum: '≥', maximum: '≤', exclusiveMinimum: '>', exclusiveMaximum: '<' };

interface Described {
  path: (string | number)[];
  part: 'key' | 'value';
  message: string;
}

function describeError(e: ErrorObject): Described | undefined {
  const path = pathOf(e.instancePath);
  const field = fieldName(path);
  const subject = field === '' ? 'the run spec' : field;
  const parent = (e.parentSchema ?? {}) as { properties?: Record<string, unknown>; 'x-expected'?: string };
  const params = e.params as Record<string, unknown>;
  const got = ` (got ${describeValue(e.data)})`;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = Object.keys(parent.properties ?? {});
      const hint = didYouMean(key, allowed);
      const where = field === '' ? 'run spec' : field;
      const tail = hint ? ` (did you mean "${hint}"?)` : allowed.length > 0 ? ` (expected one of: ${allowed.join(', ')})` : '';
      return { path: [...path, key], part: 'key', message: `unknown key "${key}" in ${where}${tail}` };
    }
    case 'required': {
      const missing = String(params.missingProperty);
      const data = e.data as Record<string, unknown> | undefined;
      const typed = typeof data?.type === 'string' ? ` of type "${data.type}"` : '';
      return { path, part: 'key', message: `${subject}${typed} needs "${missing}"` };
    }
    case 'type':
      return { path, part: 'value', message: `${subject} must be ${TYPE_WORDS[String(params.type)] ?? String(params.type)}${got}` };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const hint = typeof e.data === 'string' ? didYouMean(e.data, allowed) : undefined;
      const tail = hint ? `; did you mean "${hint}"?` : '';
      return { path, part: 'value', message: `${subject} must be one of ${allowed.join(', ')} (got ${describeValue(e.data)}${tail})` };
    }
    case 'const':
      return { path, part: 'value', message: `${subject} must be ${JSON.stringify(params.allowedValue)}${got}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { path, part: 'value', message: `${subject} must be ${COMPARISON[e.keyword]} ${String(params.limit)}${got}` };
    case 'minLength':
      return { path, part: 'value', message: `${subject} must not be empty` };
    case 'minItems':
      return { path, part: 'value', message: `${subject} must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}` };
    case 'minProperties':
      return { path, part: 'value', message: `${subject} must set at least one of ${Object.keys(parent.properties ?? {}).join(', ')}` };
    case 'pattern':
      return { path, part: 'value', message: `${subject} must be ${parent['x-expected'] ?? `text matching ${String(params.pattern)}`}${got}` };
    case 'discriminator': {
      const data = e.data as Record<string, unknown> | undefined;
      // A missing `type` is already reported by `required`.
      if (params.error === 'tag' && data?.type === undefined) return undefined;
      const branches = ((parent as { oneOf?: unknown[] }).oneOf ?? []) as { properties?: { type?: { const?: unknown } } }[];
      const types = branches.map((b) => b.properties?.type?.const).filter((t): t is string => typeof t === 'string');
      const value = data?.type;
      const hint = typeof value === 'string' ? didYouMean(value, types) : undefined;
      const tail = hint ? `; did you mean "${hint}"?` : '';
      return { path: [...path, 'type'], part: 'value', message: `${fieldName([...path, 'type'])} must be one of ${types.join(', ')} (got ${describeValue(value)}${tail})` };
    }
    case 'anyOf':
    case 'oneOf':
      return { path, part: 'value', message: `${subject} must be ${parent['x-expected'] ?? 'one of the allowed forms'}${got}` };
    default:
      return { path, part: 'value', message: `${subject} ${e.message ?? 'is invalid'}` };
  }
}
