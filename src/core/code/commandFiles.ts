/**
 * The words of an evaluator command that may name files: the evaluator's own script and data.
 * A word beside the program (`node evaluate.mjs {program}`) is copied into the sandbox, which runs
 * in a fresh folder where a relative name would not be found; every named file also joins the
 * evaluation cache's key, so editing the evaluator never replays results it would no longer give.
 */

/** Candidate file words: no placeholder, option, parent reference or quoting; the program itself left out. */
export function commandFileWords(command: string, programName: string): string[] {
  const words = command
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''))
    .filter((w) => w !== '' && !w.includes('{') && !w.startsWith('-') && !w.includes('..') && w !== programName);
  return [...new Set(words)];
}

/** A word the sandbox can copy beside the command: a plain file name (no folder), resolved next to the program. */
export function isBesideName(word: string): boolean {
  return !word.includes('/') && !word.includes('\\');
}
