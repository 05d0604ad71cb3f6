/**
 * A structural check that a parsed JSON value is an EngineEvent. The journal writer runs it before
 * writing and the reader after parsing, so whatever one accepts the other can read back: an event
 * with a NaN score fails at append time, where the bug is, not at replay time, weeks later.
 * `seq` is optional here; the reader numbers events that lack it (replay.ts).
 */
import type { EngineEvent, EngineEventType } from './events';

type Field = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'string?';

/**
 * The fields each event type must carry. Keyed by the union's `type`, so adding an event type to
 * events.ts fails to compile until it is described here.
 */
const REQUIRED: { [T in EngineEventType]: Record<string, Field> } = {
  'run/started': { info: 'object' },
  'dataset/loaded': { items: 'array' },
  'candidate/proposed': { candidateId: 'string', parentId: 'string?', contentHash: 'string', text: 'string' },
  'item/evaluated': { candidateId: 'string', itemId: 'string', score: 'number', cached: 'boolean' },
  verdict: { candidateId: 'string', parentId: 'string', order: 'string', winner: 'string' },
  'wealth/step': {
    candidateId: 'string',
    k: 'number',
    itemId: 'string',
    delta: 'number',
    logWealth: 'number',
    logThreshold: 'number',
    logBest: 'number',
  },
  decision: { record: 'object' },
  suggestion: { candidateId: 'string', file: 'string', baseText: 'string', newText: 'string' },
  'edit/applied': { candidateId: 'string', file: 'string', by: 'string' },
  'edit/rejected': { candidateId: 'string', file: 'string', by: 'string', reason: 'string?' },
  'cost/update': { cost: 'object', llmCalls: 'number' },
  'rubric/updated': { version: 'number', rubric: 'string' },
  ratings: { ratings: 'array' },
  'report/test': { n: 'number', baseline: 'object', final: 'object', difference: 'object' },
  log: { level: 'string', message: 'string' },
  'llm/waiting': { role: 'string', model: 'string?', why: 'string', waitMs: 'number', message: 'string' },
  'run/resumed': { elapsedMs: 'number' },
  'proposal/failed': { parentId: 'string', island: 'number', kind: 'string', attempt: 'number', reason: 'string', message: 'string' },
  'program/evaluated': { candidateId: 'string', island: 'number', correct: 'boolean', instances: 'number' },
  'program/migrated': { generation: 'number', moves: 'array' },
  'sandbox/preflight': { isolation: 'object', setting: 'string', jail: 'string', limits: 'string', swept: 'string?', caveats: 'array' },
  'meta/notes': { afterProgram: 'string', recommendations: 'array' },
  'candidate/stopped': { candidateId: 'string', reason: 'string', budget: 'string' },
  'zero/round': { round: 'number', requested: 'number', written: 'number', discarded: 'object', kept: 'array', heldOut: 'array', reliability: 'array', exemplars: 'array' },
  'slurm/submitted': { jobId: 'string', programHash: 'string', attempt: 'number', dir: 'string', tasks: 'array' },
  'slurm/task': { jobId: 'string', index: 'number', key: 'string', attempt: 'number', state: 'string' },
  'slurm/cancelled': { jobId: 'string', indices: 'array', why: 'string' },
  'slurm/attached': { jobId: 'string', indices: 'array' },
  'slurm/status': { state: 'string', message: 'string' },
  'run/finished': { commits: 'number', candidates: 'number', incumbentId: 'string?', stopped: 'string?' },
  'run/failed': { error: 'object' },
  'run/cancelled': {},
};

/** undefined when `value` is an EngineEvent; otherwise what is wrong with it, for an error message. */
export function eventShapeProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v.type !== 'string') return 'no "type" field';
  if (!Object.hasOwn(REQUIRED, v.type)) return `unknown event type "${v.type}"`;
  if (typeof v.runId !== 'string') return `${v.type} has no string "runId"`;
  if (!isFiniteNumber(v.at)) return `${v.type} has no numeric "at"`;
  // Optional: the engine emits events without it, and journals written before it lack it.
  if (v.seq !== undefined && !(Number.isInteger(v.seq) && (v.seq as number) >= 1)) return `${v.type} field "seq" should be a whole number of at least 1, got ${JSON.stringify(v.seq)}`;
  for (const [name, kind] of Object.entries(REQUIRED[v.type as EngineEventType])) {
    if (!matches(v[name], kind)) return `${v.type} field "${name}" should be ${describe(kind)}, got ${JSON.stringify(v[name]) ?? 'nothing'}`;
  }
  return undefined;
}

export function isEngineEvent(value: unknown): value is EngineEvent {
  return eventShapeProblem(value) === undefined;
}

function matches(x: unknown, kind: Field): boolean {
  switch (kind) {
    case 'string':
      return typeof x === 'string';
    case 'string?':
      return x === undefined || typeof x === 'string';
    case 'number':
      return isFiniteNumber(x);
    case 'boolean':
      return typeof x === 'boolean';
    case 'object':
      return x !== null && typeof x === 'object' && !Array.isArray(x);
    case 'array':
      return Array.isArray(x);
  }
}

function describe(kind: Field): string {
  return kind === 'string?' ? 'a string or absent' : kind === 'object' ? 'an object' : kind === 'array' ? 'an array' : `a ${kind}`;
}

function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}
