// The manifest (package.json `contributes`) and the code agree: every `ratchet.*` setting is read by
// the settings table and vice versa, with the same type, default, scope and enum; every command of
// the table is contributed with category "Ratchet" and the same title, and vice versa; menus,
// views, walkthrough media and the JSON schema point at things that exist.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BY_NAME_GLOBS, RUN_SPEC_EXTENSIONS, byNameWhenRegex } from '../../../src/core/files/fileKinds';
import { DEFAULTS } from '../../../src/core/run/specTypes';
import { CATEGORY, COMMANDS, COMMAND_NAMES, LENS_COMMAND_IDS, commandId } from '../../../src/extension/commandTable';
import { SETTINGS, SETTING_KEYS } from '../../../src/extension/settings';
import type { SettingDef } from '../../../src/extension/settings';

const root = join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributes = pkg.contributes;
const properties: Record<string, Record<string, unknown>> = contributes.configuration.properties;
const commands: { command: string; title: string; category?: string }[] = contributes.commands;

describe('settings ↔ manifest', () => {
  it('contributes exactly the settings the table reads', () => {
    expect(Object.keys(properties).sort()).toEqual(SETTING_KEYS.map((k) => `ratchet.${k}`).sort());
  });

  it.each(SETTING_KEYS)('ratchet.%s has the table type, default, scope, enum and bounds', (key) => {
    const def: SettingDef = SETTINGS[key];
    const p = properties[`ratchet.${key}`]!;
    expect({ type: p.type, default: p.default, scope: p.scope }).toEqual({ type: def.type, default: def.default, scope: def.scope });
    if (def.type === 'string') expect(p.enum).toEqual(def.enum);
    else if (def.type === 'number' || def.type === 'integer') expect({ minimum: p.minimum, maximum: p.maximum }).toEqual({ minimum: def.minimum, maximum: def.maximum });
    expect(typeof (p.markdownDescription ?? p.description)).toBe('string');
  });

  it('names settings ratchet.<group>.<name>', () => {
    for (const key of Object.keys(properties)) expect(key).toMatch(/^ratchet\.[a-z]+\.[a-zA-Z]+$/);
  });

  it("defaults equal the engine's, so the manifest does not document a default the engine does not use", () => {
    expect(SETTINGS['gate.name'].default).toBe(DEFAULTS.gate.name);
    expect(SETTINGS['gate.alpha'].default).toBe(DEFAULTS.gate.alpha);
    expect(SETTINGS['run.concurrency'].default).toBe(DEFAULTS.concurrency);
    expect(SETTINGS['run.callTimeoutSeconds'].default).toBe(DEFAULTS.callTimeoutSeconds);
    expect(SETTINGS['run.mode'].default).toBe(DEFAULTS.mode);
    expect(SETTINGS['run.budgetCandidates'].default).toBe(DEFAULTS.budget.candidates);
  });

  it('keeps the key-receiving base URL out of untrusted workspaces', () => {
    expect(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations).toEqual(['ratchet.endpoint.baseUrl']);
    expect(pkg.capabilities.untrustedWorkspaces.supported).toBe('limited');
    expect(pkg.capabilities.untrustedWorkspaces.description.length).toBeGreaterThan(40);
  });
});

describe('commands ↔ manifest', () => {
  it('contributes exactly the commands of the table', () => {
    expect(commands.map((c) => c.command).sort()).toEqual(COMMAND_NAMES.map(commandId).sort());
  });

  it.each(COMMAND_NAMES)('ratchet.%s has the table title and category "Ratchet"', (name) => {
    const c = commands.find((x) => x.command === commandId(name));
    expect({ title: c?.title, category: c?.category }).toEqual({ title: COMMANDS[name].title, category: CATEGORY });
  });

  it('registers every command the server puts on a code lens', () => {
    for (const id of LENS_COMMAND_IDS) expect(COMMAND_NAMES.map(commandId)).toContain(id);
  });

  it('has the issue #5 ids', () => {
    expect(COMMAND_NAMES.map(commandId)).toEqual(
      expect.arrayContaining([
        'ratchet.evolve',
        'ratchet.startCodeSearch',
        'ratchet.evaluate',
        'ratchet.generateDevSet',
        'ratchet.acceptSuggestion',
        'ratchet.rejectSuggestion',
        'ratchet.showDiff',
        'ratchet.showEvidence',
        'ratchet.showPanel',
        'ratchet.cancelRun',
        'ratchet.resumeRun',
        'ratchet.setApiKey',
        'ratchet.selectModel',
        'ratchet.openJournal',
        'ratchet.restartServer',
        'ratchet.configure',
      ]),
    );
  });

  it('menus name only contributed commands and the contributed view', () => {
    const ids = new Set(commands.map((c) => c.command));
    for (const [menu, entries] of Object.entries(contributes.menus as Record<string, { command: string; when?: string }[]>)) {
      for (const e of entries) {
        expect(ids.has(e.command), `${menu}: ${e.command}`).toBe(true);
        if (menu.startsWith('view/')) expect(e.when).toContain('view == ratchet.runs');
      }
    }
    expect(contributes.views.ratchet.map((v: { id: string }) => v.id)).toEqual(['ratchet.runs']);
    expect(contributes.viewsContainers.activitybar[0].id).toBe('ratchet');
  });
});

describe('activation and packaging', () => {
  it('activates on its files (those of the file-kind table that are Ratchet\'s by name), its panel and its commands, never on *', () => {
    expect(pkg.activationEvents).not.toContain('*');
    const byName = (pkg.activationEvents as string[]).filter((e) => e.startsWith('workspaceContains:'));
    expect(byName).toEqual(BY_NAME_GLOBS.map((glob) => `workspaceContains:${glob}`));
    expect(pkg.activationEvents).toContain('onWebviewPanel:ratchet.panel');
    for (const e of pkg.activationEvents as string[]) expect(e).not.toMatch(/^onStartupFinished$|^\*$/);
  });

  it('offers its file actions on the files the table claims by name', () => {
    const whens = Object.values(contributes.menus as Record<string, { when?: string }[]>)
      .flat()
      .flatMap((m) => (m.when?.match(/resourceFilename =~ (\/\S+\/)/) ?? []).slice(1));
    expect(whens.length).toBeGreaterThan(0);
    for (const w of whens) expect(w).toBe(byNameWhenRegex());
  });

  it('validates every run-spec ending against the shipped schema', () => {
    expect(contributes.yamlValidation).toEqual(RUN_SPEC_EXTENSIONS.map((e) => ({ fileMatch: `*${e}`, url: './schemas/run-spec.schema.json' })));
    expect(existsSync(join(root, 'schemas/run-spec.schema.json'))).toBe(true);
  });

  it('ships every file the manifest points at', () => {
    const media = [
      contributes.viewsContainers.activitybar[0].icon,
      ...contributes.walkthroughs.flatMap((w: { steps: { media: { markdown?: string } }[] }) => w.steps.map((s) => s.media.markdown)),
    ];
    for (const file of media) expect(existsSync(join(root, file)), file).toBe(true);
    const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['!media/**', '!schemas/**', '!out/codicons/**', '!out/extension.js', '!out/server.js']));
  });

  it('walks through model → example → evolve → accept, each step completable', () => {
    const [walkthrough] = contributes.walkthroughs;
    expect(walkthrough.steps.map((s: { id: string }) => s.id)).toEqual(['model', 'example', 'evolve', 'accept']);
    for (const step of walkthrough.steps) expect(step.completionEvents.length).toBeGreaterThan(0);
  });
});
