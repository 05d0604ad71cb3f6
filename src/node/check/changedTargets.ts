/**
 * Which files `ratchet check` tests: the prompt files and programs modified between base and head
 * that have a run spec at head, each with the policy its spec sets (core/check/policy.ts governs
 * between base's and head's), and the modified files it skips, with why.
 */
import { join, relative, sep } from 'node:path';
import { RatchetError } from '../../core/errors';
import { FLAG_SOURCE, appliedPolicy, governingPolicy } from '../../core/check/policy';
import type { AppliedPolicy, CheckPolicy } from '../../core/check/policy';
import { RUN_SPEC_EXTENSION, RUN_SPEC_EXTENSIONS, fileRole } from '../../core/files/fileKinds';
import { mergeSpecTexts, readSpecText, sidecarPathFor } from '../../core/setup/specSource';
import type { SpecText } from '../../core/setup/specSource';
import { modifiedFiles, textAt } from './git';

/** A changed file `ratchet check` tests: its texts at base and head, and the policy that governs it. */
export interface CheckTarget {
  file: string;
  kind: 'prompt' | 'program';
  policy: AppliedPolicy;
  /** A program's run spec (its sidecar at head): what its evaluator is. */
  specText?: string;
  path: string;
  baseText: string;
  headText: string;
}

/**
 * Prompt files and programs modified between the commits that have a run spec at head (front
 * matter or sidecar), each with the policy its spec at head sets, else `fallback`.
 */
export async function changedTargets(root: string, base: string, head: string, fallback: CheckPolicy): Promise<{ targets: CheckTarget[]; skipped: { file: string; why: string }[] }> {
  const targets: CheckTarget[] = [];
  const skipped: { file: string; why: string }[] = [];
  for (const file of await modifiedFiles(root, base, head)) {
    const baseText = await textAt(root, base, file);
    const headText = await textAt(root, head, file);
    if (baseText === undefined || headText === undefined) continue;
    const role = fileRole(file, headText);
    const path = join(root, file);
    if (role === 'code') {
      const found = await firstText(
        root,
        head,
        RUN_SPEC_EXTENSIONS.map((ext) => `${file}${ext}`),
      );
      if (found === undefined) skipped.push({ file, why: `a program without a run spec (${file}${RUN_SPEC_EXTENSION}), so no evaluator to test it with` });
      else {
        const atBase = await firstText(
          root,
          base,
          RUN_SPEC_EXTENSIONS.map((ext) => `${file}${ext}`),
        );
        const policy = governingPolicy(
          policyOf([readSpecText(found.path, found.text).spec], file, fallback),
          basePolicy(() => [atBase === undefined ? undefined : readSpecText(atBase.path, atBase.text).spec], file, fallback),
        );
        targets.push({ file, kind: 'program', policy, specText: found.text, path, baseText, headText });
      }
      continue;
    }
    if (role !== 'prompt') continue;
    const sidecarFile = relative(root, sidecarPathFor(path)).split(sep).join('/');
    const sidecar = await textAt(root, head, sidecarFile);
    const front = readSpecText(file, headText).spec;
    if (front === undefined && sidecar === undefined) {
      skipped.push({ file, why: 'no run spec (front matter or sidecar), so nothing to test it on' });
      continue;
    }
    const sidecarAtBase = await textAt(root, base, sidecarFile);
    const policy = governingPolicy(
      policyOf([front, sidecar === undefined ? undefined : readSpecText(sidecarFile, sidecar).spec], file, fallback),
      basePolicy(() => [readSpecText(file, baseText).spec, sidecarAtBase === undefined ? undefined : readSpecText(sidecarFile, sidecarAtBase).spec], file, fallback),
    );
    targets.push({ file, kind: 'prompt', policy, path, baseText, headText });
  }
  return { targets, skipped };
}

async function firstText(root: string, commit: string, paths: readonly string[]): Promise<{ path: string; text: string } | undefined> {
  for (const p of paths) {
    const text = await textAt(root, commit, p);
    if (text !== undefined) return { path: p, text };
  }
  return undefined;
}

/** The policy a file's run spec at head sets (its locations repository-relative), else the default. */
function policyOf(texts: readonly (SpecText | undefined)[], file: string, fallback: CheckPolicy): AppliedPolicy {
  const present = texts.filter((t): t is SpecText => t !== undefined);
  if (present.length === 0) return { policy: fallback, from: FLAG_SOURCE };
  return appliedPolicy(mergeSpecTexts(present, file).merged, fallback);
}

/**
 * The policy the file's run spec set at base. A spec that does not read at base (broken there)
 * sets none: only head's counts, and head's own errors are reported as such.
 */
function basePolicy(texts: () => readonly (SpecText | undefined)[], file: string, fallback: CheckPolicy): AppliedPolicy | undefined {
  try {
    return policyOf(texts(), file, fallback);
  } catch (e) {
    if (e instanceof RatchetError) return undefined;
    throw e;
  }
}
