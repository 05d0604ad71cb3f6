// The manifest's generated parts are what the tables render (`npm run manifest -- --check`, run
// here on temporary copies), and the parts written by hand point only at things that exist: the
// commands the walkthrough and the welcome view link to, the settings their events and
// descriptions name, the context keys the menus test, the files they show.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manifestCommand } from '../../../scripts/generate';
import { GENERATED } from '../../../scripts/tables';
import { DEFAULTS } from '../../../src/core/run/specTypes';
import { PROGRAM_LANGUAGE_IDS } from '../../../src/core/files/fileKinds';
import { COMMAND_NAMES, LENS_COMMAND_IDS, commandId } from '../../../src/extension/commandTable';
import { CONTEXT_KEYS } from '../../../src/extension/menuTable';
import { SETTINGS, SETTING_KEYS, readSettings as readClientSettings, toServerSettings } from '../../../src/extension/settings';
import type { SettingDef, SettingKey } from '../../../src/extension/settings';
import { readSettings as readServerSettings } from '../../../src/server/settings';

const root = join(__dirname, '../../..');
const pkgText = readFileSync(join(root, 'package.json'), 'utf8');
const pkg = JSON.parse(pkgText);
const contributes = pkg.contributes;

/** Runs `npm run manifest` with these arguments in `dir`, collecting what it prints. */
function manifest(argv: string[], dir: string) {
  const lines: string[] = [];
  const code = manifestCommand(argv, dir, { log: (l) => lines.push(l), error: (l) => lines.push(l) });
  return { code, lines };
}

describe('npm run manifest', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A folder holding copies of every generated file as checked in. */
  function copy(): string {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-manifest-'));
    dirs.push(dir);
    for (const { path } of GENERATED) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      copyFileSync(join(root, path), join(dir, path));
    }
    return dir;
  }

  it('--check passes on the checked-in files: they are what the tables render', () => {
    expect(manifest(['--check'], root)).toEqual({ code: 0, lines: [] });
  });

  it('--check fails on a stale package.json, names it and the first differing key, and writes nothing', () => {
    const dir = copy();
    const stale = pkgText.replace('"title": "Evolve Prompt"', '"title": "Evolve It"');
    writeFileSync(join(dir, 'package.json'), stale);
    expect(manifest(['--check'], dir)).toEqual({
      code: 1,
      lines: ['package.json is stale (first at /contributes/commands/0/title): run npm run manifest and commit what it writes'],
    });
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(stale);
  });

  it('names every stale file, the README by line', () => {
    const dir = copy();
    const pkgPath = join(dir, 'package.json');
    writeFileSync(pkgPath, pkgText.replace('"ratchet.endpoint.baseUrl"\n', '"ratchet.endpoint.somewhereElse"\n'));
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    writeFileSync(join(dir, 'README.md'), readme.replace('| `pace+` (default) |', '| `pace+` |'));
    const { code, lines } = manifest(['--check'], dir);
    expect(code).toBe(1);
    expect(lines).toEqual([
      'package.json is stale (first at /capabilities/untrustedWorkspaces/restrictedConfigurations/0): run npm run manifest and commit what it writes',
      expect.stringMatching(/^README\.md is stale \(first at line \d+\): /),
    ]);
  });

  it('rewrites a stale file to what --check accepts, and a second run writes nothing', () => {
    const dir = copy();
    writeFileSync(join(dir, 'package.json'), pkgText.replace('"icon": "$(play)"', '"icon": "$(rocket)"'));
    expect(manifest([], dir)).toEqual({ code: 0, lines: ['wrote package.json'] });
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(pkgText);
    expect(manifest([], dir)).toEqual({ code: 0, lines: [] });
  });

  it('refuses an argument it does not know, writing nothing', () => {
    expect(manifest(['--chek'], copy())).toEqual({ code: 2, lines: ['unknown argument --chek; usage: npm run manifest [-- --check]'] });
  });
});

/** Every `command:ratchet.x` link and `onCommand:` event in the hand-written parts. */
function linkedCommands(): string[] {
  const text = JSON.stringify({ viewsWelcome: contributes.viewsWelcome, walkthroughs: contributes.walkthroughs });
  return [...text.matchAll(/(?:command:|onCommand:)(ratchet\.[A-Za-z]+)/g)].map((m) => m[1]!);
}

describe('what the manifest points at exists', () => {
  const ids = COMMAND_NAMES.map(commandId);

  it('links only to commands of the table, from the welcome view and the walkthrough', () => {
    const linked = linkedCommands();
    expect(linked.length).toBeGreaterThan(5);
    for (const id of linked) expect(ids, id).toContain(id);
  });

  it('registers every command the server puts on a code lens', () => {
    for (const id of LENS_COMMAND_IDS) expect(ids).toContain(id);
  });

  it('names only settings of the table, in walkthrough events and in `#ratchet.x#` links of descriptions', () => {
    const keys = SETTING_KEYS.map((k) => `ratchet.${k}`);
    const text = JSON.stringify(contributes);
    const named = [...text.matchAll(/onSettingChanged:(ratchet\.[\w.]+)|#(ratchet\.[\w.]+)#/g)].map((m) => m[1] ?? m[2]!);
    expect(named.length).toBeGreaterThan(0);
    for (const key of named) expect(keys, key).toContain(key);
  });

  it('tests only context keys the extension sets, and the extension sets each of them', () => {
    const whens = [...Object.values(contributes.menus as Record<string, { when?: string }[]>).flat(), ...(contributes.keybindings as { when?: string }[])]
      .map((e) => e.when ?? '')
      // `view == ratchet.runs` names a view, not a context key.
      .join(' ')
      .replace(/\bview == \S+/g, '');
    const events = (contributes.walkthroughs as { steps: { completionEvents: string[] }[] }[]).flatMap((w) => w.steps.flatMap((s) => s.completionEvents));
    const used = new Set([...[...whens.matchAll(/\bratchet\.[A-Za-z]+/g)].map((m) => m[0]), ...events.filter((e) => e.startsWith('onContext:')).map((e) => e.slice('onContext:'.length))]);
    expect([...used].sort()).toEqual(Object.values(CONTEXT_KEYS).sort());
    const setters = ['src/extension/main.ts', 'src/extension/review/inlineReview.ts', 'src/extension/commands/runCommands.ts', 'src/extension/commands/reviewCommands.ts', 'src/extension/views/evolveBlocks.ts'];
    const sources = setters.map((f) => readFileSync(join(root, f), 'utf8')).join('\n');
    // Set directly, or through walkthrough.ts (the keys only the walkthrough listens for).
    for (const name of Object.keys(CONTEXT_KEYS)) expect(sources, name).toMatch(new RegExp(`('setContext', |walkthroughStepDone\\()CONTEXT_KEYS\\.${name}\\b`));
  });

  it('ships every file the manifest points at', () => {
    const media = [
      contributes.viewsContainers.activitybar[0].icon,
      ...contributes.yamlValidation.map((v: { url: string }) => v.url),
      ...contributes.walkthroughs.flatMap((w: { steps: { media: { markdown?: string } }[] }) => w.steps.map((s) => s.media.markdown)),
    ];
    for (const file of media) expect(existsSync(join(root, file)), file).toBe(true);
    const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['!media/**', '!schemas/**', '!out/codicons/**', '!out/extension.js', '!out/server.js']));
  });

  it('activates on its files and its panel, never on startup', () => {
    expect(pkg.activationEvents).toContain('onWebviewPanel:ratchet.panel');
    expect(pkg.activationEvents.some((e: string) => e.startsWith('workspaceContains:'))).toBe(true);
    for (const e of pkg.activationEvents as string[]) expect(e).not.toMatch(/^onStartupFinished$|^\*$/);
  });

  it('activates on opening a program of a language a code search evolves, so EVOLVE-BLOCK markers get their lens with no run spec', () => {
    expect(pkg.activationEvents).toEqual(expect.arrayContaining(['onLanguage:python', 'onLanguage:javascript', 'onLanguage:typescript']));
    expect(pkg.activationEvents).toEqual(expect.arrayContaining(PROGRAM_LANGUAGE_IDS.map((id) => `onLanguage:${id}`)));
  });

  it('walks through model → example → evolve → accept, each step completable', () => {
    const [walkthrough] = contributes.walkthroughs;
    expect(walkthrough.steps.map((s: { id: string }) => s.id)).toEqual(['model', 'connection', 'example', 'evolve', 'accept']);
    for (const step of walkthrough.steps) expect(step.completionEvents.length).toBeGreaterThan(0);
  });
});

describe('the settings table agrees with the engine and the server', () => {
  it("documents the engine's defaults, so the Settings editor shows what a run uses when unset", () => {
    expect(SETTINGS['gate.name'].default).toBe(DEFAULTS.gate.name);
    expect(SETTINGS['gate.alpha'].default).toBe(DEFAULTS.gate.alpha);
    expect(SETTINGS['run.concurrency'].default).toBe(DEFAULTS.concurrency);
    expect(SETTINGS['run.callTimeoutSeconds'].default).toBe(DEFAULTS.callTimeoutSeconds);
    expect(SETTINGS['run.mode'].default).toBe(DEFAULTS.mode);
    expect(SETTINGS['run.budgetCandidates'].default).toBe(DEFAULTS.budget.candidates);
  });

  /** The client settings with every ranged one at its bound `end` (or its default past 0), all set. */
  function atBounds(end: 'minimum' | 'maximum'): Partial<Record<SettingKey, unknown>> {
    const set: Partial<Record<SettingKey, unknown>> = {};
    for (const key of SETTING_KEYS) {
      const def: SettingDef = SETTINGS[key];
      if (def.type === 'number' || def.type === 'integer') set[key] = def[end] ?? def.default;
      else if (def.type === 'string' && def.enum) set[key] = end === 'minimum' ? def.enum[0] : def.enum.at(-1);
    }
    return set;
  }

  it.each(['minimum', 'maximum'] as const)('every value the editor accepts at its %s, the server accepts', (end) => {
    const set = atBounds(end);
    const client = readClientSettings({ value: (key) => (key in set ? set[key] : SETTINGS[key].default), isSet: (key) => key in set });
    const sent = toServerSettings(client, { apiKey: 'sk-test', trusted: true });
    expect(readServerSettings(sent)).toEqual({ settings: expect.objectContaining(sent), problems: [] });
  });
});
