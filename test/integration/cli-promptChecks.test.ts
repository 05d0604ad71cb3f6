// Starting prompts that cannot work, through the built CLI against the fake endpoint: an empty
// body, binary content and a prompt over maxPromptTokens are refused before the first call (exit
// 2, a message naming the file and line, no call reaching the server, no run folder); a prompt
// that uses none of the dataset's fields runs, with a warning naming the file.
import { existsSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, runCli, runIds } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const SEED = 5;

async function evolveWith(body: string | Buffer, extra: string[] = []) {
  const w = makeWorkspace({ seed: SEED, items: 50, candidates: 1, split: { feedback: 10, dev: 30, test: 10 } });
  writeFileSync(w.promptPath, Buffer.concat([Buffer.from('---\ndescription: arithmetic\n---\n'), Buffer.from(body)]));
  const server = await startFakeServer({ scenario: scenarioFor(w, { seed: SEED }) });
  try {
    const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir, ...extra]);
    return { ...r, calls: server.calls.length, runs: runIds(w.dir), prompt: w.promptPath };
  } finally {
    await server.close();
  }
}

describe('a starting prompt that cannot work', () => {
  it('is refused before the first call: an empty body, binary content, a prompt over maxPromptTokens', async () => {
    const empty = await evolveWith('\n  \n');
    const binary = await evolveWith(Buffer.from([0x51, 0x3a, 0x20, 0x41, 0x0a, 0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    // 2 MB, placeholder and all: it would be sent with every item.
    const huge = await evolveWith(`Question: {{question}}\n${'Think it through carefully. '.repeat(75_000)}\n`);
    for (const r of [empty, binary, huge]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.calls).toBe(0);
      expect(r.runs).toEqual([]);
    }
    expect(empty.stderr).toBe(`ratchet: ${empty.prompt}:4:1: the prompt has no body (nothing follows the front matter): write the prompt the run should evolve\n`);
    // Not UTF-8 (a PNG's signature), refused as the file is read, at its first such byte.
    expect(binary.stderr).toBe(`ratchet: ${binary.prompt}:5: byte 37 (0x89) is not UTF-8; Ratchet reads prompts, run specs and datasets as UTF-8 — save the file as UTF-8 (from latin-1: iconv -f latin1 -t utf-8).\n`);
    expect(huge.stderr).toBe(`ratchet: ${huge.prompt}:4:1: the prompt is about 525006 tokens, over the run's maxPromptTokens of 4000, and would be sent with every item: shorten it, or raise maxPromptTokens in the run spec\n`);
  });

  it('that uses none of the dataset’s fields runs, with a warning naming the file', async () => {
    const r = await evolveWith('You solve arithmetic problems. End with "The answer is N".\n', ['--budget-calls', '60']);
    expect(r.calls).toBeGreaterThan(0);
    expect(r.stderr).toContain(`warning: ${r.prompt}:4: the prompt uses none of the dataset's fields ({{question}}), so every item gets the same prompt: add a placeholder such as {{question}}\n`);
  });
});
