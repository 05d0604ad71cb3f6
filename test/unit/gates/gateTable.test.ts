// Every place that lists the gates says what the gate table says: the schema the engine reads, the
// CLI's choices, the editor setting, the server's settings check. (The checked-in schema, README
// and manifest are what `npm run manifest` writes: test/unit/extension/manifest.test.ts.)
import { describe, expect, it } from 'vitest';
import { AUDIT_GATES, GATE_NAMES, GATE_TABLE, REWARD_FREE_GATES, SCORED_GATES, gateRow } from '../../../src/core/gates/gateTable';
import { DEFAULTS } from '../../../src/core/run/specTypes';
import { RUN_SPEC_SCHEMA } from '../../../src/core/setup/specSchema';
import { buildProgram } from '../../../src/cli/program';
import { SETTINGS } from '../../../src/extension/settings';
import { readSettings } from '../../../src/server/settings';

function choicesOf(command: string, option: string | undefined): readonly string[] | undefined {
  const cmd = buildProgram().commands.find((c) => c.name() === command)!;
  if (option === undefined) return (cmd.registeredArguments[0] as unknown as { argChoices?: string[] }).argChoices;
  return (cmd.options.find((o) => o.long === option) as unknown as { argChoices?: string[] }).argChoices;
}

describe('the gate table', () => {
  it('gives the schema its enum, both where a name goes', () => {
    const defs = RUN_SPEC_SCHEMA.definitions as Record<string, { enum?: string[]; anyOf?: { enum?: string[] }[] }>;
    expect(defs.gateName!.enum).toEqual(GATE_NAMES);
    expect(defs.gate!.anyOf![0]!.enum).toEqual(GATE_NAMES);
  });

  it('gives `ratchet evolve --gate` every gate and `ratchet gate` the ones it can replay', () => {
    expect(choicesOf('evolve', '--gate')).toEqual(GATE_NAMES);
    expect(choicesOf('gate', undefined)).toEqual(AUDIT_GATES);
    expect(AUDIT_GATES).toEqual(['pace+', 'pace', 'greedy', 'sign']);
  });

  it('gives the editor setting its enum and one description per gate', () => {
    expect(SETTINGS['gate.name'].enum).toEqual(GATE_NAMES);
    expect(SETTINGS['gate.name'].enumDescriptions).toEqual(GATE_TABLE.map((g) => g.description));
  });

  it("accepts exactly the table's names in the server's settings", () => {
    for (const gate of GATE_NAMES) expect(readSettings({ gate })).toEqual({ settings: expect.objectContaining({ gate }), problems: [] });
    expect(readSettings({ gate: 'greedyy' }).problems).toEqual([`ratchet settings: gate must be one of ${GATE_NAMES.join(', ')}; ignored`]);
  });

  it('splits the gates into scored and reward-free, with a default of each', () => {
    expect([...SCORED_GATES, ...REWARD_FREE_GATES].sort()).toEqual([...GATE_NAMES].sort());
    expect(gateRow(DEFAULTS.gate.name).kind).toBe('scored');
    expect(gateRow(DEFAULTS.gate.rewardFreeName).kind).toBe('reward-free');
    expect(new Set(GATE_NAMES).size).toBe(GATE_NAMES.length);
  });
});
