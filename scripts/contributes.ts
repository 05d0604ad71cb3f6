/**
 * The manifest's generated parts, rendered from the tables: `contributes.commands` (the command
 * table), `contributes.menus` (the menu table), `contributes.keybindings` (the key table),
 * `contributes.colors` (the theme-colour table), `contributes.configuration` (the settings table,
 * each price's shape from the server schema), `contributes.yamlValidation` and the
 * `workspaceContains:` and programs' `onLanguage:` activation events (the file-kind table), and the untrusted-workspace
 * `restrictedConfigurations` (the settings marked `restricted`), and what agents get
 * (`contributes.mcpServerDefinitionProviders`: the agent table). Everything else in package.json
 * is written by hand and kept as it is, in its place.
 *
 * Pure text → text, like the other renderers of scripts/tables.ts; `npm run manifest` applies it.
 */
import { BY_NAME_GLOBS, PROGRAM_LANGUAGE_IDS, RUN_SPEC_EXTENSIONS } from '../src/core/files/fileKinds';
import { CATEGORY, COMMANDS, COMMAND_NAMES, commandId } from '../src/extension/commandTable';
import type { CommandSpec } from '../src/extension/commandTable';
import { KEYBINDINGS } from '../src/extension/keyTable';
import { MCP_SERVER_PROVIDER } from '../src/extension/agentTable';
import { MENUS } from '../src/extension/menuTable';
import { ISLAND_COLORS, THEME_COLORS } from '../src/extension/themeColors';
import { SECTION, SETTINGS, SETTING_KEYS } from '../src/extension/settings';
import type { SettingDef } from '../src/extension/settings';
import { PRICE_SCHEMA } from '../src/protocol/serverSettings';
import type { SettingSchema } from '../src/protocol/serverSettings';

export const MANIFEST_PATH = 'package.json';
export const SCHEMA_PATH = 'schemas/run-spec.schema.json';

type Json = Record<string, unknown>;

function command(name: (typeof COMMAND_NAMES)[number]): Json {
  const spec: CommandSpec = COMMANDS[name];
  return { command: commandId(name), title: spec.title, category: CATEGORY, ...(spec.icon ? { icon: `$(${spec.icon})` } : {}) };
}

function menus(): Json {
  return Object.fromEntries(
    Object.entries(MENUS).map(([menu, entries]) => [menu, entries.map((e) => ({ command: commandId(e.command), ...(e.when !== undefined ? { when: e.when } : {}), ...(e.group !== undefined ? { group: e.group } : {}) }))]),
  );
}

/** A server-schema node as the Settings editor reads it: without the problem-message words. */
function editorSchema(node: SettingSchema): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-expected') continue;
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Record<string, SettingSchema>).map(([k, v]) => [k, editorSchema(v)]));
    else if (key === 'additionalProperties' && value !== false) out[key] = editorSchema(value as SettingSchema);
    else out[key] = value;
  }
  return out;
}

/** One `ratchet.*` property; the keys in the order the Settings editor's JSON readers expect to see them. */
function setting(def: SettingDef): Json {
  const p: Json = { type: def.type, default: def.default };
  if (def.type === 'string') {
    if (def.enum) p.enum = [...def.enum];
    if (def.enumDescriptions) p.enumDescriptions = [...def.enumDescriptions];
    if (def.pattern !== undefined) p.pattern = def.pattern;
    if (def.patternErrorMessage !== undefined) p.patternErrorMessage = def.patternErrorMessage;
  }
  if (def.type === 'number' || def.type === 'integer') {
    if (def.minimum !== undefined) p.minimum = def.minimum;
    if (def.maximum !== undefined) p.maximum = def.maximum;
  }
  p.scope = def.scope;
  if (def.type === 'object') p.additionalProperties = editorSchema(PRICE_SCHEMA);
  p.markdownDescription = def.description;
  return p;
}

function configuration(title: unknown): Json {
  const properties = Object.fromEntries(SETTING_KEYS.map((key) => [`${SECTION}.${key}`, setting(SETTINGS[key])]));
  return { title, properties };
}

/** A JSON text as the manifest is written: two-space indent, non-ASCII as \u escapes, a final newline. */
export function manifestJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2).replace(/[^\x20-\x7e\n]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${text}\n`;
}

/** package.json with its generated parts rewritten from the tables; key order and the rest as they were. */
export function renderManifest(text: string): string {
  const pkg = JSON.parse(text) as Json & { contributes: Json; capabilities: { untrustedWorkspaces: Json }; activationEvents: string[] };
  // Assigning an existing key keeps its place, so a regenerated manifest diffs only where a table changed.
  const programs = PROGRAM_LANGUAGE_IDS.map((id) => `onLanguage:${id}`);
  const generated = (e: string) => e.startsWith('workspaceContains:') || programs.includes(e);
  pkg.activationEvents = [...BY_NAME_GLOBS.map((glob) => `workspaceContains:${glob}`), ...programs, ...pkg.activationEvents.filter((e) => !generated(e))];
  pkg.capabilities.untrustedWorkspaces.restrictedConfigurations = SETTING_KEYS.filter((key) => (SETTINGS[key] as SettingDef).restricted === true).map((key) => `${SECTION}.${key}`);
  const c = pkg.contributes;
  c.commands = COMMAND_NAMES.map(command);
  c.menus = menus();
  c.keybindings = KEYBINDINGS.map((k) => ({ command: commandId(k.command), key: k.key, mac: k.mac, when: k.when }));
  c.colors = [...Object.values(THEME_COLORS), ...ISLAND_COLORS].map((t) => ({ id: t.id, description: t.description, defaults: { ...t.defaults } }));
  c.configuration = configuration((c.configuration as Json | undefined)?.title ?? 'Ratchet');
  c.yamlValidation = RUN_SPEC_EXTENSIONS.map((e) => ({ fileMatch: `*${e}`, url: `./${SCHEMA_PATH}` }));
  c.mcpServerDefinitionProviders = [{ ...MCP_SERVER_PROVIDER }];
  return manifestJson(pkg);
}
