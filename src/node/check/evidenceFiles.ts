/**
 * The evidence bundles on disk (`.ratchet/evidence/`, meant to be committed): one file per
 * hypothesis — the file, its base and head texts by content hash, the policy — written as indented
 * JSON with a line per step, and read back checked enough to be replayed (core/check/evidence.ts).
 */
import { join } from 'node:path';
import { RatchetError } from '../../core/errors';
import { BUNDLE_VERSION } from '../../core/check/evidence';
import type { EvidenceBundle } from '../../core/check/evidence';
import type { CheckPolicy } from '../../core/check/policy';
import { contentHash } from '../../core/evolve/versions';
import type { NodeFiles } from '../files';

export const EVIDENCE_DIR = '.ratchet/evidence';

/** A changed file's two texts: what names its bundle. */
interface Versions {
  file: string;
  baseText: string;
  headText: string;
}

export function bundleRelPath(b: Pick<EvidenceBundle, 'file' | 'policy' | 'base' | 'head'>): string {
  const slug = b.file.replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${EVIDENCE_DIR}/${slug}.${b.base.contentHash.slice(0, 12)}-${b.head.contentHash.slice(0, 12)}.${b.policy}.json`;
}

export async function writeBundle(files: NodeFiles, root: string, b: EvidenceBundle): Promise<string> {
  const rel = bundleRelPath(b);
  await files.mkdirp(join(root, EVIDENCE_DIR));
  await files.writeTextAtomic(join(root, rel), bundleText(b));
  return rel;
}

/** Indented JSON with each step and each cache key on a line of its own: compact to commit, readable in a diff. */
function bundleText(b: EvidenceBundle): string {
  const lines = (xs: readonly unknown[]): string => `[\n${xs.map((x) => `  ${JSON.stringify(x)}`).join(',\n')}\n ]`;
  return `${JSON.stringify({ ...b, steps: '\u0000steps', cacheKeys: '\u0000keys' }, null, 1)
    .replace('"\\u0000steps"', lines(b.steps))
    .replace('"\\u0000keys"', lines(b.cacheKeys))}\n`;
}

/** The bundle of this file's verdict between these texts under this policy; a clear error when there is none. */
export async function readBundle(files: NodeFiles, root: string, t: Versions, policy: CheckPolicy, base: string, head: string): Promise<EvidenceBundle> {
  const rel = bundleRelPath({ file: t.file, policy, base: { commit: base, contentHash: contentHash(t.baseText) }, head: { commit: head, contentHash: contentHash(t.headText) } });
  const text = await files.tryReadText(join(root, rel));
  if (text === undefined) throw new RatchetError('notFound', `No evidence for ${t.file} under --require ${policy} between these versions (${rel}): run ratchet check with an endpoint first, and commit .ratchet/evidence/.`, { file: rel });
  let b: EvidenceBundle;
  try {
    b = JSON.parse(text) as EvidenceBundle;
  } catch (err) {
    throw new RatchetError('badInput', `${rel} is not JSON (${err instanceof Error ? err.message : String(err)}).`, { file: rel });
  }
  if (b.version !== BUNDLE_VERSION || !Array.isArray(b.steps) || typeof b.gate !== 'object' || b.gate === null || b.file !== t.file) {
    throw new RatchetError('badInput', `${rel} is not an evidence bundle of version ${BUNDLE_VERSION} for ${t.file}.`, { file: rel });
  }
  return b;
}

/** The bundle when there is one; undefined when there is none. */
export async function findBundle(files: NodeFiles, root: string, t: Versions, policy: CheckPolicy, base: string, head: string): Promise<EvidenceBundle | undefined> {
  try {
    return await readBundle(files, root, t, policy, base, head);
  } catch (err) {
    if (RatchetError.is(err, 'notFound')) return undefined;
    throw err;
  }
}
