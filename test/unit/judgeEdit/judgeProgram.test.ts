// What a program's judge run refuses before it runs anything, and which gate decides.
import { describe, expect, it } from 'vitest';
import { checkProgramCandidate, judgeProgramGate } from '../../../src/core/judgeEdit/judgeProgram';
import { PROGRAM } from '../../integration/searchWorkspace';

describe('checkProgramCandidate', () => {
  it('takes a change inside the EVOLVE-BLOCK regions, refuses one outside them, a moved marker, or no change', () => {
    expect(() => checkProgramCandidate('step.mjs', PROGRAM, PROGRAM.replace('0.300', '0.500'))).not.toThrow();
    expect(() => checkProgramCandidate('step.mjs', PROGRAM, PROGRAM.replace('return rate;', 'return 0.5;'))).toThrow(/The candidate changes step\.mjs outside its EVOLVE-BLOCK regions/);
    expect(() => checkProgramCandidate('step.mjs', PROGRAM, PROGRAM.replace('  // EVOLVE-BLOCK-END\n', '').replace('  return rate;\n', '  return rate;\n  // EVOLVE-BLOCK-END\n'))).toThrow(/outside its EVOLVE-BLOCK regions/);
    expect(() => checkProgramCandidate('step.mjs', PROGRAM, PROGRAM)).toThrow(/there is no edit to judge/);
  });
});

describe('judgeProgramGate', () => {
  const gate = (name: string) => ({ gate: { name, alpha: 0.05, schedule: 'e-lond', population: 'infinite', horizon: 10 } as never });
  it('keeps PACE and PACE+ at one candidate’s threshold, replaces greedy and pairwise with PACE+', () => {
    expect(judgeProgramGate(gate('pace'))).toEqual({ gate: { name: 'pace', alpha: 0.05, schedule: 'per-candidate', population: 'infinite', horizon: 10 } });
    expect(judgeProgramGate(gate('greedy'))).toMatchObject({ gate: { name: 'pace+' }, substituted: 'greedy' });
    expect(judgeProgramGate(gate('pairwise'))).toMatchObject({ gate: { name: 'pace+' }, substituted: 'pairwise' });
  });
});
