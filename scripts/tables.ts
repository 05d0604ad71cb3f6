/**
 * Every checked-in file written from the tables, with its renderer: the run-spec schema (JSON,
 * read by editors without running any code) and the README's gates table from the gate table
 * (src/core/gates/gateTable.ts), and the manifest from the command, menu, settings and file-kind
 * tables (scripts/contributes.ts). Renderers are pure text → text, so a test can say whether the
 * files are current; `npm run manifest` (scripts/generate.ts) applies them or, with `--check`,
 * says which are stale.
 */
import { GATE_NAMES, GATE_PARAMS, GATE_TABLE, gatesReading, isGateName } from '../src/core/gates/gateTable';
import type { GateKind } from '../src/core/gates/gateTable';
import { SCHEDULE_TABLE } from '../src/core/gates/schedules';
import { CHECK_POLICY_TABLE } from '../src/core/check/policy';
import { DEFAULTS } from '../src/core/run/specTypes';
import { MANIFEST_PATH, SCHEMA_PATH, renderManifest } from './contributes';

export const README_PATH = 'README.md';

const list = (names: readonly string[]): string => names.join(', ');
const GATE_LIST = /\((?:[a-z+-]+, )+[a-z+-]+\)/;
const isGateList = (group: string): boolean => group.slice(1, -1).split(', ').every(isGateName);

interface SchemaNode {
  [key: string]: unknown;
  definitions: Record<string, Record<string, unknown> & { anyOf?: Record<string, unknown>[] }>;
}

/** The schema with every gate list and gate sentence rewritten from the table; the rest as it was. */
export function renderSchema(text: string): string {
  const schema = JSON.parse(text) as SchemaNode;
  const defs = schema.definitions;
  defs.gateName = {
    description: GATE_TABLE.map((g) => `${g.name}: ${g.description}`).join('\n'),
    enum: [...GATE_NAMES],
  };
  const gate = defs.gate!;
  gate['x-expected'] = `a gate name (${list(GATE_NAMES)}) or a mapping with a \`name\``;
  gate.description = `The acceptance gate. Default ${DEFAULTS.gate.name} (${DEFAULTS.gate.rewardFreeName} when the run is reward-free).`;
  // The bare-name branch repeats the enum rather than a $ref, so its error reads like the mapping's.
  gate.anyOf![0] = { enum: [...GATE_NAMES] };
  // A parameter's description names the gates that read it, in parentheses.
  const params = (gate.anyOf![1] as { properties: Record<string, Record<string, unknown> & { description?: string }> }).properties;
  for (const key of GATE_PARAMS) {
    const p = params[key];
    if (p?.description) p.description = p.description.replace(GATE_LIST, (group) => (isGateList(group) ? `(${list(gatesReading(key))})` : group));
  }
  // The schedules and what each guarantees, from their table (src/core/gates/schedules.ts).
  params.schedule = {
    enum: SCHEDULE_TABLE.map((s) => s.name),
    default: DEFAULTS.gate.schedule,
    description: ['What the run guarantees about false commits (a code search defaults to per-candidate and cannot screen).', ...SCHEDULE_TABLE.map((s) => `${s.name}: ${s.description}`)].join('\n'),
  };
  params.horizon!.description = `Declared number of candidates T for ${list(SCHEDULE_TABLE.filter((s) => s.horizon).map((s) => s.name))} (default: budget.candidates).`;
  // `ratchet check`'s policies, from their table (src/core/check/policy.ts).
  (defs.check!.properties as Record<string, unknown>).require = {
    enum: CHECK_POLICY_TABLE.map((p) => p.name),
    description: ['The policy this file is held to by ratchet check; it wins over --require, the default for files that do not say.', ...CHECK_POLICY_TABLE.map((p) => `${p.name}: ${p.description}`)].join('\n'),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

const KIND_TEXT: Record<GateKind, string> = {
  scored: 'scores (a scorer, labels)',
  'reward-free': "the validator's verdicts",
  rating: "the validator's verdicts; ratings pick parents",
};

const README_START = '<!-- gates:start: generated from src/core/gates/gateTable.ts by `npm run manifest` -->';
const README_END = '<!-- gates:end -->';

/** The README's gates table, between its markers. */
export function renderReadme(text: string): string {
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`${README_PATH}: the markers ${README_START} … ${README_END} are missing`);
  const rows = GATE_TABLE.map((g) => {
    const name = `\`${g.name}\`${g.name === DEFAULTS.gate.name ? ' (default)' : g.name === DEFAULTS.gate.rewardFreeName ? ' (default, reward-free)' : ''}`;
    return `| ${name} | ${KIND_TEXT[g.kind]} | ${g.description} | ${g.controls} |`;
  });
  const block = [README_START, '| Gate | Decides from | What it is | What a commit controls |', '| --- | --- | --- | --- |', ...rows, README_END].join('\n');
  return text.slice(0, start) + block + text.slice(end + README_END.length);
}

const SCHEDULES_START = '<!-- schedules:start: generated from src/core/gates/schedules.ts by `npm run manifest` -->';
const SCHEDULES_END = '<!-- schedules:end -->';

/** The README's schedules table, between its markers. */
function renderSchedules(text: string): string {
  const start = text.indexOf(SCHEDULES_START);
  const end = text.indexOf(SCHEDULES_END);
  if (start < 0 || end < start) throw new Error(`${README_PATH}: the markers ${SCHEDULES_START} … ${SCHEDULES_END} are missing`);
  const rows = SCHEDULE_TABLE.map((s) => `| \`${s.name}\`${s.name === DEFAULTS.gate.schedule ? ' (default)' : ''} | ${s.description} |`);
  const block = [SCHEDULES_START, '| Schedule | What the run guarantees |', '| --- | --- |', ...rows, SCHEDULES_END].join('\n');
  return text.slice(0, start) + block + text.slice(end + SCHEDULES_END.length);
}

/** Every generated file, with its renderer. */
export const GENERATED: readonly { path: string; render: (text: string) => string }[] = [
  { path: SCHEMA_PATH, render: renderSchema },
  { path: MANIFEST_PATH, render: renderManifest },
  { path: README_PATH, render: (text) => renderSchedules(renderReadme(text)) },
];
