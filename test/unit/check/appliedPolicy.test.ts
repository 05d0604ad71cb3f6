// Which policy `ratchet check` holds a file to: its run spec's `check.require` wins over `--require`.
import { describe, expect, it } from 'vitest';
import { appliedPolicy, governingPolicy } from '../../../src/core/check/policy';
import { readSpecText } from '../../../src/core/setup/specSource';

const spec = (text: string) => readSpecText('prompts/a.ratchet.yaml', text).spec;

describe('appliedPolicy', () => {
  it("a file's own check.require wins, and says where it was set", () => {
    expect(appliedPolicy(spec('seed: 1\ncheck:\n  require: better\n'), 'not-worse')).toEqual({ policy: 'better', from: 'prompts/a.ratchet.yaml:3' });
    expect(appliedPolicy(spec('check: { require: not-worse }\n'), 'better')).toEqual({ policy: 'not-worse', from: 'prompts/a.ratchet.yaml:1' });
  });

  it('a spec that says nothing, or no spec, takes the flag’s default', () => {
    expect(appliedPolicy(spec('seed: 1\n'), 'better')).toEqual({ policy: 'better', from: '--require' });
    expect(appliedPolicy(spec('check: {}\n'), 'not-worse')).toEqual({ policy: 'not-worse', from: '--require' });
    expect(appliedPolicy(undefined, 'not-worse')).toEqual({ policy: 'not-worse', from: '--require' });
  });

  it('a policy it does not know is an error at its file and line', () => {
    expect(() => appliedPolicy(spec('seed: 1\ncheck:\n  require: beter\n'), 'not-worse')).toThrow(/^prompts\/a\.ratchet\.yaml:3: check\.require must be one of better, not-worse \(got "beter"\)/);
    expect(() => appliedPolicy(spec('check: better\n'), 'not-worse')).toThrow(/^prompts\/a\.ratchet\.yaml:1: check must be a mapping/);
  });
});

describe('governingPolicy: a change may tighten its own policy, never loosen it', () => {
  const at = (policy: 'better' | 'not-worse', from: string) => ({ policy, from });
  it("head loosening better to not-worse is held to the base's better, and the source says so", () => {
    expect(governingPolicy(at('not-worse', 'a.yaml:3'), at('better', 'a.yaml:3'))).toEqual({ policy: 'better', from: 'a.yaml:3 at base (head asks only not-worse)' });
    expect(governingPolicy(at('not-worse', 'a.yaml:3'), at('better', '--require'))).toEqual({ policy: 'better', from: '--require at base (head asks only not-worse)' });
  });
  it('head tightening, or keeping, its policy governs; no spec at base leaves head alone', () => {
    expect(governingPolicy(at('better', 'a.yaml:3'), at('not-worse', 'a.yaml:3'))).toEqual(at('better', 'a.yaml:3'));
    expect(governingPolicy(at('not-worse', 'a.yaml:3'), at('not-worse', '--require'))).toEqual(at('not-worse', 'a.yaml:3'));
    expect(governingPolicy(at('not-worse', 'a.yaml:3'), undefined)).toEqual(at('not-worse', 'a.yaml:3'));
  });
});
