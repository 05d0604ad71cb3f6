// Lists are written once (issue #12): the gates in src/core/gates/gateTable.ts, the file kinds in
// src/core/files/fileKinds.ts, the run states in src/core/journal/runStates.ts (issue #27). This test reads the source, the schema and the manifest and fails
// where such a list is spelled by hand again. A single name where one gate's own code runs
// (`case 'sign':`) is code, not a list; two names side by side in an array, a set or a type union
// are a list, and so is a gate name anywhere in the JSON files outside the generated spots. For
// files: any pattern or literal of a file ending outside the table (the manifest's copies are
// written from it by `npm run manifest`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_NAMES } from '../../src/core/gates/gateTable';
import { RUN_STATE_NAMES } from '../../src/core/journal/runStates';

const TABLE = 'src/core/gates/gateTable.ts';
const FILE_TABLE = 'src/core/files/fileKinds.ts';
const RUN_STATE_TABLE = 'src/core/journal/runStates.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

const escape = (s: string): string => s.replace(/[+]/g, '\\+');
const NAME = `(?:${[...GATE_NAMES]
  .sort((a, b) => b.length - a.length)
  .map(escape)
  .join('|')})`;
/** Two quoted gate names next to each other: `'pace', 'pace+'` or `'pace' | 'pace+'`, across lines too. */
const ADJACENT = new RegExp(`(['"\`])${NAME}\\1\\s*[,|]\\s*(['"\`])${NAME}\\2`, 'g');

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

describe('gate names are listed only in the gate table', () => {
  const files = ['src', 'webview', 'scripts'].flatMap(sources).filter((f) => f !== TABLE);

  it('finds no hand-written list of gate names in src/, webview/ or scripts/', () => {
    const found = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(ADJACENT)].map((m) => `${file}:${lineOf(m.input, m.index)}: ${m[0]}`));
    expect(found).toEqual([]);
  });

  it("spells 'greedy-re' (the gate `--gate` once lost) only in the table and the code that runs it", () => {
    const found = files.filter((file) => /['"`]greedy-re['"`]/.test(readFileSync(file, 'utf8')));
    expect(found).toEqual(['src/core/evolve/gateRunner.ts']);
  });

  it('the probe bites: it finds the list this issue removed', () => {
    expect("const GATES = ['greedy', 'greedy-re', 'pace'];".match(ADJACENT)).toHaveLength(1);
    expect("type T = 'pace' |\n  'pace+';".match(ADJACENT)).toHaveLength(1);
    expect("case 'pace':\n    case 'pace+':".match(ADJACENT)).toBeNull();
  });

  it.each([
    // Written by `npm run manifest` (scripts/tables.ts).
    ['schemas/run-spec.schema.json', [/^\/definitions\/gateName\/enum\/\d+$/, /^\/definitions\/gate\/anyOf\/0\/enum\/\d+$/]],
    // Enum and default are written from the settings table (the default pinned to the engine's by test/unit/extension/manifest.test.ts); a keyword is a word.
    ['package.json', [/^\/contributes\/configuration\/properties\/ratchet\.gate\.name\/(enum\/\d+|default)$/, /^\/keywords\/\d+$/]],
  ])('%s holds gate names only where they are generated or pinned', (file, allowed) => {
    const found: string[] = [];
    const visit = (v: unknown, path: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${path}/${i}`));
      else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, `${path}/${k}`);
      else if (typeof v === 'string' && (GATE_NAMES as readonly string[]).includes(v) && !allowed.some((a) => a.test(path))) found.push(path);
    };
    visit(JSON.parse(readFileSync(file, 'utf8')), '');
    expect(found).toEqual([]);
  });
});

describe('file endings are listed only in the file-kind table', () => {
  // The panel's candidate documents are virtual (`ratchet-candidate:/run/c1.md`), not a file kind.
  const elsewhere = new Set([FILE_TABLE, 'src/extension/panel/register.ts']);
  const files = ['src', 'webview'].flatMap(sources).filter((f) => !elsewhere.has(f));
  const code = (file: string): [number, string][] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i): [number, string] => [i + 1, line])
      .filter(([, line]) => !/^\s*(\*|\/\/|\/\*)/.test(line));
  /** A regex over endings (`/\.(prompt\.md|…)$/`), a bare ending (`'.txt'`) or name (`'SKILL.md'`), or two endings in one string. */
  const PATTERN = /\\\.\(?(?:prompt|prompty|md|markdown|txt|ratchet|agent|chatmode|instructions)\b|(?:SKILL|AGENTS|copilot-instructions)\\\.md/;
  const BARE = /['"`](?:\*\*\/)?(?:\*?\.(?:prompt\.md|prompty|md|markdown|txt|ratchet\.ya?ml|agent\.md|chatmode\.md|instructions\.md)|SKILL\.md|AGENTS\.md|(?:\.github\/)?copilot-instructions\.md)['"`]/;
  const ENDING = /\.(?:prompt\.md|prompty|markdown|ratchet\.ya?ml|agent\.md|chatmode\.md|instructions\.md|md|txt)\b/g;
  const offends = (line: string): boolean => PATTERN.test(line) || BARE.test(line) || new Set(line.match(ENDING)).size >= 2;

  it('finds no hand-written file pattern in src/ or webview/', () => {
    const found = files.flatMap((file) => code(file).flatMap(([n, line]) => (offends(line) ? [`${file}:${n}: ${line.trim()}`] : [])));
    expect(found).toEqual([]);
  });

  it('the probe bites: it finds the patterns this issue removed', () => {
    expect(offends('const PROMPT_FILE = /\\.(prompt\\.md|prompty|md|markdown|txt)$/i;')).toBe(true);
    expect(offends("const PROMPT_EXTENSIONS = ['.prompt.md', '.prompty', '.md', '.txt'];")).toBe(true);
    expect(offends("{ scheme: 'file', pattern: '**/*.prompty' },")).toBe(true);
    expect(offends("'Name the prompt file to evolve, e.g. `ratchet evolve prompts/x.prompt.md`.'")).toBe(false);
    // Copilot's files (issue #31): a name written where the table's row belongs.
    expect(offends("const skill = join(dir, 'SKILL.md');")).toBe(true);
    expect(offends("if (/\\.instructions\\.md$/.test(path)) return 'instructions';")).toBe(true);
    expect(offends("'Convert to Skill writes a skill from this prompt file.'")).toBe(false);
  });
});

describe('run states are listed only in the run-state table', () => {
  const files = ['src', 'webview', 'scripts'].flatMap(sources).filter((f) => f !== RUN_STATE_TABLE);
  // A list that holds a word only a run's state uses (`interrupted`, `corrupt`) next to another
  // state's name. The common words alone ('finished' | 'cancelled' | 'failed') are also how an
  // engine call ends (its outcome, not a run's state), and `pending` a suggestion's: not probed.
  const STATE = `(?:${[...RUN_STATE_NAMES].sort((a, b) => b.length - a.length).join('|')})`;
  const OWN = '(?:interrupted|corrupt)';
  const Q = '[\'"`]';
  const ADJACENT_STATES = new RegExp(`${Q}(?:${OWN}${Q}\\s*[,|]\\s*${Q}${STATE}|${STATE}${Q}\\s*[,|]\\s*${Q}${OWN})${Q}`, 'g');

  it('finds no hand-written list of run states in src/, webview/ or scripts/', () => {
    const found = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(ADJACENT_STATES)].map((m) => `${file}:${lineOf(m.input, m.index)}: ${m[0]}`));
    expect(found).toEqual([]);
  });

  it('the probe bites: it finds the lists this issue removed', () => {
    expect("type LiveRunState = 'running' | 'waiting-for-you' | 'finished' | 'failed' | 'cancelled' | 'interrupted';".match(ADJACENT_STATES)).toHaveLength(1);
    expect("new Set(['finished', 'failed', 'cancelled', 'interrupted'])".match(ADJACENT_STATES)).toHaveLength(1);
    expect("Exclude<LiveRunState, 'waiting-for-you' | 'interrupted'>".match(ADJACENT_STATES)).toHaveLength(1);
    expect("icon: 'cancelled' | 'interrupted' | 'corrupt';".match(ADJACENT_STATES)).toHaveLength(1);
    expect("status: 'finished' | 'cancelled' | 'failed';".match(ADJACENT_STATES)).toBeNull();
  });
});
