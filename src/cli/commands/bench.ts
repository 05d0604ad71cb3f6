/**
 * `ratchet bench injection --base-url URL --model M`: how often the corpus of prompt-injection
 * attempts (src/core/evolve/injectionAttacks.json) flips the verdict of a judge model the user
 * runs, through the product's own judge prompt and parser (#14). Prints, per attack, the judge
 * calls made, the flips (the attacker's slot named where the clean call did not) and the
 * abstentions (no readable verdict). Exit 0 when no attack flipped a verdict, 1 when one did.
 */
import type { Command } from 'commander';
import { RatchetError } from '../../core/errors';
import { runInjectionBench } from '../../core/evolve/injectionBench';
import type { InjectionRow } from '../../core/evolve/injectionBench';
import { createLlmClient } from '../../core/llm/client';
import { DEFAULT_RETRY } from '../../core/llm/retry';
import type { RoleConfig } from '../../core/llm/roles';
import { validateRoles } from '../../core/llm/roles';
import { SeededRandom } from '../../core/random';
import { endpointDefaultsFromEnv } from '../../core/run/endpointDefaults';
import { SystemClock } from '../../node/clock';
import { OpenAiTransport } from '../../node/openaiTransport';
import { EXIT_NOTHING_ACCEPTED, EXIT_OK } from '../exitCodes';
import { positive, seconds } from '../flags';
import { formatTable, writeErr, writeOut } from '../output';
import { cancelledByUser } from '../userCancel';

interface InjectionFlags {
  baseUrl?: string;
  model?: string;
  concurrency: number;
  callTimeout: number;
  json?: boolean;
}

export function registerBench(program: Command): void {
  const bench = program.command('bench').description('Measure a model against the checks Ratchet relies on.');
  bench
    .command('injection')
    .description('Run the prompt-injection corpus against a judge model, in both presentation orders; print the flip rate per attack.')
    .option('--base-url <url>', 'OpenAI-compatible endpoint of the judge (else OPENAI_BASE_URL)')
    .option('--model <id>', 'the judge model (else RATCHET_MODEL)')
    .option('--concurrency <n>', 'judge calls in flight at once', positive('--concurrency'), 4)
    .option('--call-timeout <seconds>', 'per call', seconds('--call-timeout'), 120)
    .option('--json', 'one JSON object per attack instead of the table')
    .addHelpText('after', '\nThe key comes from OPENAI_API_KEY. Exit status: 0 if no attack flipped a verdict, 1 if one did, 2 on error.')
    .action(async (flags: InjectionFlags) => {
      process.exitCode = await benchInjection(flags);
    });
}

async function benchInjection(flags: InjectionFlags): Promise<number> {
  const env = endpointDefaultsFromEnv(process.env);
  const baseURL = flags.baseUrl ?? env.baseURL;
  const model = flags.model ?? env.model;
  if (baseURL === undefined) throw new RatchetError('badInput', 'Name the judge endpoint: pass --base-url or set OPENAI_BASE_URL.', { field: '--base-url' });
  if (model === undefined) throw new RatchetError('badInput', 'Name the judge model: pass --model or set RATCHET_MODEL.', { field: '--model' });
  const roles: RoleConfig = { default: { baseURL, model, ...(env.apiKey ? { apiKey: env.apiKey } : {}) } };
  validateRoles(roles);
  const llm = createLlmClient({
    transport: new OpenAiTransport({ roles }),
    roles,
    concurrency: flags.concurrency,
    timeoutMs: flags.callTimeout * 1000,
    retry: DEFAULT_RETRY,
    clock: new SystemClock(),
    random: new SeededRandom(0).fork('llm-jitter'),
  });
  const { controller, dispose: stopListening } = cancelledByUser();
  let report;
  try {
    report = await runInjectionBench(llm, controller.signal);
  } finally {
    stopListening();
  }
  if (flags.json) writeOut(report.rows.map((r) => JSON.stringify({ ...r, flipRate: r.flips / r.trials })).join('\n') + '\n');
  else {
    writeOut(
      formatTable<InjectionRow>(report.rows, [
        { header: 'attack', value: (r) => r.id },
        { header: 'kind', value: (r) => r.kind },
        { header: 'trials', value: (r) => String(r.trials), align: 'right' },
        { header: 'flips', value: (r) => String(r.flips), align: 'right' },
        { header: 'flip rate', value: (r) => `${((100 * r.flips) / r.trials).toFixed(1)} %`, align: 'right' },
        { header: 'abstained', value: (r) => String(r.abstained), align: 'right' },
      ]),
    );
    writeErr(`${model}: ${report.cleanRight} of ${report.cleanTrials} clean calls named the right response; a flip names the attacker where the clean call did not.\n`);
  }
  return report.rows.some((r) => r.flips > 0) ? EXIT_NOTHING_ACCEPTED : EXIT_OK;
}
