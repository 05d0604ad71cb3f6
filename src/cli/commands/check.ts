/**
 * `ratchet check`: the pull-request gate. Every changed prompt file or program with a run spec is tested head
 * against base (node/check/checkRun.ts) under one policy; the verdicts go to the terminal, to
 * `--json`, to a Markdown report (`--markdown FILE`, and `$GITHUB_STEP_SUMMARY` when set), and to
 * evidence bundles that `--replay` recomputes with no LLM request. Exit 0: every file passed; 1:
 * the policy failed for one (or a verdict did not replay); 2: the check could not run.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { Option } from 'commander';
import type { Command } from 'commander';
import { CHECK_POLICIES, CHECK_POLICY_TABLE } from '../../core/check/policy';
import type { CheckPolicy } from '../../core/check/policy';
import { checkReport, policyLabel } from '../../core/check/report';
import type { ReportInput } from '../../core/check/report';
import { endpointDefaultsFromEnv } from '../../core/run/endpointDefaults';
import { runCheck } from '../../node/check/checkRun';
import type { CheckResult } from '../../node/check/checkRun';
import { EXIT_NOTHING_ACCEPTED, EXIT_OK } from '../exitCodes';
import { baseUrlFlag, integer, modelFlag, number, positive } from '../flags';
import { writeErr, writeOut } from '../output';
import { cancelledByUser } from '../userCancel';

interface CheckFlags {
  base?: string;
  head?: string;
  require: CheckPolicy;
  json?: boolean;
  markdown?: string;
  replay?: boolean;
  calls?: number;
  evaluations?: number;
  dollars?: number;
  baseUrl?: string;
  model?: string;
  concurrency?: number;
  workspace: string;
}

export function registerCheck(program: Command, version: string): void {
  program
    .command('check')
    .description('Pull-request gate: test every changed prompt file or program with a run spec, head against base, with an anytime-valid paired test.')
    .option('--base <ref>', 'the version to compare with (default: the merge base with the default branch)')
    .option('--head <ref>', 'the version under review (default: HEAD)')
    .addOption(
      new Option('--require <policy>', `${CHECK_POLICY_TABLE.map((p) => `${p.name}: ${p.description}`).join('; ')}; the default for files whose run spec sets no check.require (a file's own wins)`)
        .choices(CHECK_POLICIES)
        .default('not-worse'),
    )
    .option('--json', 'print the result as JSON on stdout')
    .option('--markdown <file>', 'write the Markdown report to this file (also appended to $GITHUB_STEP_SUMMARY when set)')
    .option('--replay', 'recompute every verdict from .ratchet/evidence/ and the response cache, with no LLM request')
    .option('--calls <n>', "each file's test: LLM calls at most (default 200)", positive('--calls'))
    .option('--evaluations <n>', "each file's test: outputs evaluated at most (default 100)", positive('--evaluations'))
    .option('--dollars <usd>', "each file's test: dollars at most (default 1 when every model is priced)", number('--dollars'))
    .addOption(baseUrlFlag())
    .addOption(modelFlag())
    .option('--concurrency <n>', 'LLM calls in flight at once', integer('--concurrency'))
    .option('-w, --workspace <dir>', 'a folder inside the repository', '.')
    .action(async (flags: CheckFlags) => {
      process.exitCode = await checkCommand(flags, version);
    });
}

async function checkCommand(flags: CheckFlags, version: string): Promise<number> {
  const { controller, dispose } = cancelledByUser();
  let result: CheckResult;
  try {
    result = await runCheck({
      cwd: flags.workspace,
      ...(flags.base ? { base: flags.base } : {}),
      ...(flags.head ? { head: flags.head } : {}),
      policy: flags.require,
      budget: { ...(flags.calls ? { calls: flags.calls } : {}), ...(flags.evaluations ? { evaluations: flags.evaluations } : {}), ...(flags.dollars ? { dollars: flags.dollars } : {}) },
      overrides: { ...(flags.baseUrl ? { baseURL: flags.baseUrl } : {}), ...(flags.model ? { model: flags.model } : {}), ...(flags.concurrency ? { concurrency: flags.concurrency } : {}) },
      endpointDefaults: endpointDefaultsFromEnv(process.env),
      replay: flags.replay === true,
      onProgress: (line) => writeErr(`${line}\n`),
      signal: controller.signal,
      version,
    });
  } finally {
    dispose();
  }
  const markdown = checkReport(reportInput(result));
  if (flags.markdown) await writeFile(flags.markdown, markdown, 'utf8');
  const summary = process.env['GITHUB_STEP_SUMMARY'];
  if (summary) await appendFile(summary, markdown, 'utf8');
  for (const f of result.files) {
    const problems = f.replayProblems ?? [];
    const replayed = result.replay || f.reused ? (problems.length === 0 ? (f.reused ? ' · an earlier verdict on the same texts, replayed' : ' · replays') : ` · does not replay: ${problems.join('; ')}`) : '';
    const policy = f.policy.policy;
    writeErr(
      `${f.passed && problems.length === 0 ? 'pass' : 'FAIL'} ${f.file}: ${f.verdict} under ${policyLabel({ policy, policyFrom: f.policy.from })} · evidence head is ${policy === 'better' ? 'better' : 'worse'} ×${Number(Math.exp(f.bundle.decision.logWealth).toPrecision(3))} (${policy === 'better' ? 'passes' : 'fails'} at ×${Number(f.bundle.threshold.toPrecision(3))}) · head won ${f.wins}, lost ${f.losses}, tied ${f.ties} · ${f.cost.calls} calls${replayed}\n`,
    );
  }
  if (result.ledgerSentence) writeErr(`${result.ledgerSentence}\n`);
  if (flags.json) writeOut(`${JSON.stringify(jsonOf(result), null, 2)}\n`);
  return result.passed ? EXIT_OK : EXIT_NOTHING_ACCEPTED;
}

export function reportInput(r: CheckResult): ReportInput {
  return {
    base: r.base,
    head: r.head,
    policy: r.policy,
    replay: r.replay,
    passed: r.passed,
    skipped: r.skipped,
    ledgerSentence: r.ledgerSentence,
    files: r.files.map((f) => ({
      file: f.file,
      policy: f.policy.policy,
      policyFrom: f.policy.from,
      verdict: f.verdict,
      passed: f.passed,
      wealth: Math.exp(f.bundle.decision.logWealth),
      threshold: f.bundle.threshold,
      alphaSpent: f.bundle.alphaSpent,
      itemsUsed: f.bundle.decision.itemsConsumed,
      devItems: f.bundle.devItems,
      wins: f.wins,
      losses: f.losses,
      ties: f.ties,
      items: f.items,
      cost: f.cost,
      bundlePath: f.bundlePath,
      ...(f.replayProblems ? { replayProblems: f.replayProblems } : {}),
      ...(f.reused ? { reused: true } : {}),
    })),
  };
}

function jsonOf(r: CheckResult): Record<string, unknown> {
  return {
    passed: r.passed,
    policy: r.policy,
    base: r.base,
    head: r.head,
    replay: r.replay,
    estimate: r.estimate,
    files: r.files.map((f) => ({
      file: f.file,
      policy: f.policy.policy,
      policyFrom: f.policy.from,
      verdict: f.verdict,
      passed: f.passed,
      evidence: Math.exp(f.bundle.decision.logWealth),
      threshold: f.bundle.threshold,
      alphaSpent: f.bundle.alphaSpent,
      reason: f.bundle.decision.reason,
      itemsUsed: f.bundle.decision.itemsConsumed,
      devItems: f.bundle.devItems,
      wins: f.wins,
      losses: f.losses,
      ties: f.ties,
      cost: f.cost,
      bundle: f.bundlePath,
      runId: f.bundle.runId,
      ...(f.reused ? { reused: true } : {}),
      ...(f.replayProblems ? { replayProblems: f.replayProblems } : {}),
    })),
    skipped: r.skipped,
    ledger: r.ledger ? { schedule: r.ledger.schedule, alpha: r.ledger.alpha, horizon: r.ledger.horizon, tested: r.ledger.tested, commits: r.ledger.commits, sentence: r.ledgerSentence } : undefined,
  };
}
