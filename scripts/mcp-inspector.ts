// `npm run mcp:inspector`: the MCP Inspector's CLI (a client nobody here wrote, from the npm
// registry) against the built `ratchet mcp`, on the integration tests' arithmetic workspace with
// the fake OpenAI-compatible endpoint: tools/list with its schema-portability check, judge_edit of
// a better and of a worse prompt, the run and decision resources. Prints what the Inspector
// printed; exits non-zero when a call fails or a verdict is not the expected one.
//
// The Inspector is installed once into .tools/inspector (git-ignored), pinned to INSPECTOR.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeServer } from '../test/fixtures/fakeOpenAI/server';
import { makeWorkspace } from '../test/integration/evolveWorkspace';
import { scenario, withMarker } from '../test/integration/judgeWorld';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
// npm runs scripts in the repository's root (run-ts compiles this file elsewhere).
const root = process.cwd();
const cli = join(root, 'out', 'cli.js');
const home = join(root, '.tools', 'inspector');
const bin = join(home, 'node_modules', '.bin', 'mcp-inspector');

function install(): void {
  if (existsSync(bin)) return;
  mkdirSync(home, { recursive: true });
  if (!existsSync(join(home, 'package.json'))) writeFileSync(join(home, 'package.json'), '{ "private": true }\n');
  console.log(`installing ${INSPECTOR} into ${home} …`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', INSPECTOR], { cwd: home, stdio: 'inherit' });
}

async function main(): Promise<void> {
  if (!existsSync(cli)) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  install();
  const ws = makeWorkspace({ seed: 1 });
  const fake = await startFakeServer({ scenario: scenario(ws, 1) });
  let failures = 0;
  // Asynchronous: the fake endpoint answers from this very process while the Inspector runs.
  const inspect = async (label: string, args: string[], expect?: RegExp): Promise<string> => {
    const r = await promisify(execFile)(bin, ['--cli', '-e', `OPENAI_BASE_URL=${fake.url}`, '-e', 'OPENAI_API_KEY=inspector-key', process.execPath, cli, 'mcp', '--workspace', ws.dir, ...args], {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 1 << 24,
    }).then(
      (ok) => ({ status: 0, stdout: ok.stdout, stderr: ok.stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({ status: err.code ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' }),
    );
    const out = `${r.stdout}${r.stderr}`.trim();
    console.log(`\n$ mcp-inspector --cli … ratchet mcp ${args.join(' ').replace(/candidate=[\s\S]*$/, 'candidate=<the file with an edit marker>')}\n${out}`);
    if (r.status !== 0 || (expect && !expect.test(out))) {
      failures++;
      console.log(`!! ${label}: exit ${r.status}${expect ? `, expected ${String(expect)}` : ''}`);
    }
    return out;
  };
  try {
    await inspect('tools/list', ['--method', 'tools/list', '--strict'], /"name": "judge_edit"/);
    const better = await inspect('judge_edit better', ['--method', 'tools/call', '--tool-name', 'judge_edit', '--tool-arg', 'file=task.prompt.md', `candidate=${withMarker('better')}`], /"verdict": ?"commit"/);
    await inspect('judge_edit worse', ['--method', 'tools/call', '--tool-name', 'judge_edit', '--tool-arg', 'file=task.prompt.md', `candidate=${withMarker('worse')}`], /"verdict": ?"reject"/);
    const runId = /"runId": ?"([^"]+)"/.exec(better)?.[1];
    if (runId) {
      await inspect('resources/read run', ['--method', 'resources/read', '--uri', `ratchet://runs/${runId}`], /kind\\?": ?\\?"judge/);
      await inspect('resources/read decision', ['--method', 'resources/read', '--uri', `ratchet://runs/${runId}/decisions/1`], /discordant pair/);
    }
    await inspect('resources/templates/list', ['--method', 'resources/templates/list'], /ratchet:\/\/runs\/\{runId\}/);
    console.log(`\n${fake.calls.length} calls reached the fake endpoint; the file is unchanged: ${readFileSync(ws.promptPath, 'utf8') === withMarker('better') ? 'no' : 'yes'}.`);
  } finally {
    await fake.close();
  }
  if (failures > 0) {
    console.log(`\n${failures} Inspector call(s) did not answer as expected.`);
    process.exitCode = 1;
  }
}

void main();
