import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { codeSpecTemplate, evaluatorFiles, suggestedCommand } from '../../../src/core/code/specTemplate';
import { validateRunSpecText } from '../../../src/core/setup/spec';
import { CODE_GATES } from '../../../src/core/gates/gateTable';

const SPEC = '/w/pack.mjs.ratchet.yaml';

describe('codeSpecTemplate', () => {
  it('writes a spec the schema and the code-spec checks accept, holding exactly the answers', () => {
    const text = codeSpecTemplate({ programName: 'pack.mjs', command: 'node evaluate.mjs {program} {results}', supportFiles: ['evaluate.mjs'], gate: 'pace+', proposals: 60, evaluations: 200 });
    expect(validateRunSpecText(SPEC, text)).toEqual([]);
    expect(parse(text)).toEqual({
      kind: 'code',
      evaluator: { command: 'node evaluate.mjs {program} {results}', supportFiles: ['evaluate.mjs'], timeoutSeconds: 600, deterministic: false },
      gate: 'pace+',
      budget: { proposals: 60, evaluations: 200 },
    });
    // Commented: the reader learns what the evaluator must print.
    expect(text).toContain('"combined_score"');
  });

  it.each(CODE_GATES)('accepts gate %s', (gate) => {
    const text = codeSpecTemplate({ programName: 'a.py', command: 'python3 eval.py {program} {results}', supportFiles: [], gate, proposals: 5 });
    expect(validateRunSpecText(SPEC, text)).toEqual([]);
    expect(parse(text)).toMatchObject({ gate, budget: { proposals: 5 } });
  });

  it('turns shards on when the command takes {instances}, and quotes what YAML would misread', () => {
    const command = 'node "my eval.mjs" {program} {results} {instances} # not a comment';
    const text = codeSpecTemplate({ programName: 'b.mjs', command, supportFiles: ['my eval.mjs', 'data: 1.json'], gate: 'pace', proposals: 10 });
    expect(validateRunSpecText(SPEC, text)).toEqual([]);
    expect(parse(text).evaluator).toMatchObject({ command, supportFiles: ['my eval.mjs', 'data: 1.json'], shards: true });
  });
});

describe('suggestedCommand', () => {
  it('runs the evaluator file with its interpreter and both placeholders', () => {
    expect(suggestedCommand('evaluate.py')).toBe('python3 evaluate.py {program} {results}');
    expect(suggestedCommand('evaluate.mjs')).toBe('node evaluate.mjs {program} {results}');
  });
});

describe('evaluatorFiles', () => {
  it('finds a score.mjs beside the program (Configure Code Search no longer prefills a missing evaluate.mjs)', () => {
    expect(evaluatorFiles(['solve.mjs', 'score.mjs', 'data.json', 'README.md'], 'solve.mjs')).toEqual(['score.mjs']);
    expect(suggestedCommand(evaluatorFiles(['solve.mjs', 'score.mjs'], 'solve.mjs')[0]!)).toBe('node score.mjs {program} {results}');
  });

  it('ranks evaluate first, then eval, score, grade…; never the program, a run spec or a non-script', () => {
    expect(evaluatorFiles(['grade.py', 'score.mjs', 'my_eval.sh', 'evaluate.py', 'score.mjs.ratchet.yaml', 'scores.csv'], 'x.py')).toEqual(['evaluate.py', 'my_eval.sh', 'score.mjs', 'grade.py']);
    expect(evaluatorFiles(['evaluate_me.py'], 'evaluate_me.py')).toEqual([]);
  });
});
