/**
 * String scorers: exact, contains, regex. An `expected` list means "any of these is right"
 * (e.g. `["billing", "payments"]`).
 */
import { expectedText, hasExpected } from '../item';
import type { DataItem } from '../item';
import { excerpt, itemScoreError, scorerConfigError } from './types';
import type { Scorer, ScorerDeps, ScorerSpecOf, ScoreResult } from './types';

function alternatives(item: DataItem, scorer: 'exact' | 'contains' | 'regex'): string[] {
  if (!hasExpected(item)) throw itemScoreError(scorer, item, 'the item has no expected value');
  const list = Array.isArray(item.expected) ? item.expected : [item.expected];
  return list.map(expectedText);
}

export function exactScorer(spec: ScorerSpecOf<'exact'>): Scorer {
  const norm = (s: string): string => {
    const t = spec.trim ? s.trim() : s;
    return spec.ignoreCase ? t.toLowerCase() : t;
  };
  return {
    type: 'exact',
    needsExpected: true,
    requiresTrust: false,
    score: (output, item) => {
      const wanted = alternatives(item, 'exact');
      const got = norm(output);
      return Promise.resolve(wanted.some((w) => norm(w) === got) ? { score: 1 } : { score: 0, reason: `expected ${wanted.map((w) => excerpt(w)).join(' or ')}, got ${excerpt(output)}` });
    },
  };
}

export function containsScorer(spec: ScorerSpecOf<'contains'>): Scorer {
  const norm = (s: string): string => (spec.ignoreCase ? s.toLowerCase() : s);
  return {
    type: 'contains',
    needsExpected: spec.value === undefined,
    requiresTrust: false,
    score: (output, item) => {
      const wanted = spec.value === undefined ? alternatives(item, 'contains') : [spec.value];
      const got = norm(output);
      const hit = wanted.some((w) => got.includes(norm(w)));
      return Promise.resolve(hit ? { score: 1 } : { score: 0, reason: `output does not contain ${wanted.map((w) => excerpt(w)).join(' or ')}` });
    },
  };
}

/** Compiles a user regex, reporting the spec field on failure. */
export function compileRegex(pattern: string, flags: string, deps: Pick<ScorerDeps, 'locate'>, field = 'pattern'): RegExp {
  try {
    return new RegExp(pattern, flags);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    // V8 reports bad flags and bad patterns with the same error type; name the right field.
    const badFlags = /flags/i.test(why) && !/pattern/i.test(why);
    throw scorerConfigError(deps, badFlags ? 'flags' : field, `invalid regular expression ${why.replace(/^Invalid regular expression: /, '')}`, err);
  }
}

export function regexScorer(spec: ScorerSpecOf<'regex'>, deps: Pick<ScorerDeps, 'locate'>): Scorer {
  // `g`/`y` make RegExp.test stateful across calls, which would make scores depend on item order.
  const flags = spec.flags.replace(/[gy]/g, '');
  const fixed = spec.pattern === undefined ? undefined : compileRegex(spec.pattern, flags, deps);
  return {
    type: 'regex',
    needsExpected: fixed === undefined,
    requiresTrust: false,
    score: (output, item): Promise<ScoreResult> => {
      let patterns: RegExp[];
      if (fixed) patterns = [fixed];
      else {
        patterns = alternatives(item, 'regex').map((p) => {
          try {
            return new RegExp(p, flags);
          } catch (err) {
            throw itemScoreError('regex', item, `expected value ${excerpt(p)} is not a valid regular expression`, err);
          }
        });
      }
      const hit = patterns.some((re) => re.test(output));
      return Promise.resolve(hit ? { score: 1 } : { score: 0, reason: `output does not match ${patterns.map((p) => String(p)).join(' or ')}` });
    },
  };
}
