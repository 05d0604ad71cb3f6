// The lenses on a program with EVOLVE-BLOCK markers, by what the workspace says about it: set up
// (a kind: code sidecar, or ShinkaEvolve's evaluate.py beside it), not set up, markers that do not
// pair up, Restricted Mode.
import { TextDocument } from 'vscode-languageserver-textdocument';
import { describe, expect, it } from 'vitest';
import { RatchetCommands } from '../../../src/protocol/lsp';
import { MANAGE_TRUST_COMMAND, SHOW_PROBLEMS_COMMAND, codeSearchLenses, codeSpecLenses } from '../../../src/server/codeSearchLens';
import { memFiles } from '../data/fakeFiles';

const PROGRAM = 'import math\n\n# EVOLVE-BLOCK-START\nx = 1\n# EVOLVE-BLOCK-END\n';
const doc = (text: string, path = '/w/solve.py') => TextDocument.create(`file://${path}`, 'python', 1, text);
const summary = async (text: string, tree: Record<string, string>, trusted = true, path = '/w/solve.py') =>
  (await codeSearchLenses(doc(text, path), path, memFiles(tree), trusted)).map((l) => ({ command: l.command!.command, line: l.range.start.line, args: l.command!.arguments }));

describe('codeSearchLenses', () => {
  it('offers Start Code Search and Test Evaluator at the first marker line once a kind: code spec is beside it', async () => {
    const uri = 'file:///w/solve.py';
    expect(await summary(PROGRAM, { '/w/solve.py': PROGRAM, '/w/solve.py.ratchet.yaml': '# spec\nkind: code\nevaluator: { command: "python3 e.py {program} {results}" }\n' })).toEqual([
      { command: RatchetCommands.startCodeSearch, line: 2, args: [uri] },
      { command: RatchetCommands.testEvaluator, line: 2, args: [uri] },
    ]);
  });

  it('takes a ShinkaEvolve task folder (evaluate.py beside it) as set up', async () => {
    expect((await summary(PROGRAM, { '/w/solve.py': PROGRAM, '/w/evaluate.py': '' })).map((l) => l.command)).toEqual([RatchetCommands.startCodeSearch, RatchetCommands.testEvaluator]);
  });

  it('offers Configure Code Search without a code spec, and for a sidecar that is a prompt run spec', async () => {
    expect((await summary(PROGRAM, { '/w/solve.py': PROGRAM })).map((l) => l.command)).toEqual([RatchetCommands.configureCodeSearch]);
    expect((await summary(PROGRAM, { '/w/solve.py': PROGRAM, '/w/solve.py.ratchet.yaml': 'dataset: d.jsonl\n' })).map((l) => l.command)).toEqual([RatchetCommands.configureCodeSearch]);
  });

  it('points at the Problems instead of a Start that would fail, while the markers do not pair up', async () => {
    const broken = 'import math\n# EVOLVE-BLOCK-START\nx = 1\n';
    const [lens] = await codeSearchLenses(doc(broken), '/w/solve.py', memFiles({ '/w/solve.py.ratchet.yaml': 'kind: code\n' }), true);
    expect(lens!.command).toEqual({ title: '$(warning) Fix the EVOLVE-BLOCK markers before a search (line 2)', command: SHOW_PROBLEMS_COMMAND, arguments: [] });
  });

  it('says why nothing runs in Restricted Mode and offers Manage Workspace Trust', async () => {
    const lenses = await codeSearchLenses(doc(PROGRAM), '/w/solve.py', memFiles({ '/w/solve.py.ratchet.yaml': 'kind: code\n' }), false);
    expect(lenses.map((l) => l.command!.command)).toEqual([MANAGE_TRUST_COMMAND]);
    expect(lenses[0]!.command!.title).toContain('trust the workspace');
  });

  it('has nothing for a file without markers', async () => {
    expect(await summary('print(1)\n', { '/w/solve.py.ratchet.yaml': 'kind: code\n' })).toEqual([]);
  });
});

describe('codeSpecLenses', () => {
  it('gives a kind: code sidecar Start Code Search and Test Evaluator for its program, and leaves a prompt spec alone', () => {
    expect(codeSpecLenses('/w/solve.py.ratchet.yaml', 'kind: code\n', true)?.map((l) => [l.command!.command, l.command!.arguments])).toEqual([
      [RatchetCommands.startCodeSearch, ['file:///w/solve.py']],
      [RatchetCommands.testEvaluator, ['file:///w/solve.py']],
    ]);
    expect(codeSpecLenses('/w/solve.py.ratchet.yaml', 'kind: code\n', false)?.map((l) => l.command!.command)).toEqual([MANAGE_TRUST_COMMAND]);
    expect(codeSpecLenses('/w/task.ratchet.yaml', 'dataset: d.jsonl\n', true)).toBeUndefined();
  });
});
