// The shipped JSON schema is what editors validate with; the resolver's defaults are what the
// engine runs with. They must say the same thing.
import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODE_DEFAULTS } from '../../../src/core/code/spec';
import { DEFAULTS } from '../../../src/core/run/specTypes';
import { RUN_SPEC_SCHEMA } from '../../../src/core/setup/specSchema';
import { SCORER_TYPES } from '../../../src/core/data/scorers/types';
import { ROLES } from '../../../src/core/llm/types';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; definitions?: Record<string, Schema>; anyOf?: Schema[]; oneOf?: Schema[] };
const schema = RUN_SPEC_SCHEMA as Schema;
const defs = schema.definitions!;
const gateObject = defs.gate!.anyOf![1]!;
const scorerBranches = defs.scorer!.anyOf![1]!.oneOf!;
const branch = (type: string): Schema => scorerBranches.find((b) => (b.properties!.type as { const: string }).const === type)!;
const defaultsOf = (s: Schema): Record<string, unknown> => Object.fromEntries(Object.entries(s.properties ?? {}).flatMap(([k, v]) => ('default' in v ? [[k, v.default]] : [])));

describe('run-spec schema', () => {
  it('is the file that ships, and compiles under strict draft-07 Ajv', () => {
    expect(JSON.parse(readFileSync('schemas/run-spec.schema.json', 'utf8'))).toEqual(schema);
    const ajv = new Ajv({ strict: true, discriminator: true });
    ajv.addVocabulary(['x-expected']);
    expect(() => ajv.compile(schema)).not.toThrow();
    expect(ajv.validateSchema(schema)).toBe(true);
  });

  it('has additionalProperties: false on every mapping, so a typo is an error', () => {
    const open: string[] = [];
    const visit = (s: unknown, where: string): void => {
      if (Array.isArray(s)) return s.forEach((x, i) => visit(x, `${where}[${i}]`));
      if (typeof s !== 'object' || s === null) return;
      const o = s as Schema;
      if (o.properties && o.additionalProperties !== false) open.push(where);
      for (const [k, v] of Object.entries(o)) visit(v, `${where}/${k}`);
    };
    visit(schema, '#');
    // The scorer union's outer object only holds the discriminator; each branch is closed.
    expect(open).toEqual(['#/definitions/scorer/anyOf[1]']);
  });

  it('states the same defaults as the resolver', () => {
    expect(defaultsOf(schema)).toEqual({
      kind: 'prompt',
      islands: CODE_DEFAULTS.islands,
      seed: DEFAULTS.seed,
      mode: DEFAULTS.mode,
      maxPromptTokens: DEFAULTS.maxPromptTokens,
      merge: DEFAULTS.merge,
      concurrency: DEFAULTS.concurrency,
      callTimeoutSeconds: DEFAULTS.callTimeoutSeconds,
    });
    const { name: _name, rewardFreeName: _rf, ...gateDefaults } = DEFAULTS.gate;
    expect({ ...defaultsOf(gateObject), focus: defaultsOf(gateObject.properties!.focus!), elo: defaultsOf(gateObject.properties!.elo!) }).toEqual(gateDefaults);
    expect(defaultsOf(defs.budget!)).toEqual(DEFAULTS.budget);
    for (const [type, d] of Object.entries(DEFAULTS.scorer)) expect(defaultsOf(branch(type)), type).toEqual(d);
    expect(defaultsOf(defs.harness!)).toEqual({ type: DEFAULTS.harness.type, ...DEFAULTS.harness.command });
  });

  it('states the same code-search defaults as the code resolver', () => {
    const { limits, scoreRange, ...evaluator } = CODE_DEFAULTS.evaluator;
    const slurm = CODE_DEFAULTS.slurm;
    expect(defaultsOf(defs.evaluator!)).toEqual({ ...evaluator, scoreRange: [...scoreRange] });
    expect(defaultsOf(defs.evaluator!.properties!.limits!)).toEqual(limits);
    expect(defaultsOf(defs.evaluator!.properties!.slurm!)).toEqual({ ...slurm, sbatch: [...slurm.sbatch] });
    const { mix, bandit, novelty, ...search } = CODE_DEFAULTS.search;
    expect(defaultsOf(defs.search!)).toEqual(search);
    expect(defaultsOf(defs.search!.properties!.mix!)).toEqual(mix);
    expect(defaultsOf(defs.search!.properties!.bandit!)).toEqual(bandit);
    expect(defaultsOf(defs.search!.properties!.novelty!)).toEqual(novelty);
  });

  it('knows every scorer type and role the engine knows', () => {
    expect(scorerBranches.map((b) => (b.properties!.type as { const: string }).const)).toEqual([...SCORER_TYPES]);
    expect((defs.scorer!.anyOf![0]! as { enum: string[] }).enum).toEqual([...SCORER_TYPES]);
    expect(Object.keys(defs.models!.properties!)).toEqual(['default', ...ROLES]);
  });

  it('gives every union an x-expected message for errors', () => {
    const unions: string[] = [];
    const visit = (s: unknown, where: string): void => {
      if (Array.isArray(s)) return s.forEach((x, i) => visit(x, `${where}[${i}]`));
      if (typeof s !== 'object' || s === null) return;
      const o = s as Schema;
      if (o.anyOf && typeof o['x-expected'] !== 'string') unions.push(where);
      for (const [k, v] of Object.entries(o)) visit(v, `${where}/${k}`);
    };
    visit(schema, '#');
    expect(unions).toEqual([]);
  });
});
