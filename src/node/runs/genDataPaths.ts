/**
 * Where Generate Dev Set writes: the dev file and the held-out test file of a run, from the
 * prompt's path or --out. Its own module: the language server names these files in a lens's
 * tooltip and a run's start, and must not load the whole run (and the OpenAI client) to do so.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { PROMPT_EXTENSIONS } from '../../core/files/fileKinds';

/** The dev file and the test file of a run, from the prompt's path or --out. */
export function genDataPaths(promptPath: string, out: string | undefined): { devPath: string; testPath: string } {
  const devPath = out !== undefined ? resolve(out) : join(dirname(resolve(promptPath)), `${promptName(promptPath)}.dev.jsonl`);
  const testPath = devPath.endsWith('.dev.jsonl') ? `${devPath.slice(0, -'.dev.jsonl'.length)}.test.jsonl` : devPath.replace(/(\.jsonl)?$/, '.test.jsonl');
  return { devPath, testPath };
}

function promptName(path: string): string {
  const name = basename(path);
  const ext = [...PROMPT_EXTENSIONS].sort((a, b) => b.length - a.length).find((e) => name.toLowerCase().endsWith(e));
  return ext ? name.slice(0, -ext.length) : name;
}
