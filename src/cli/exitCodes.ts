/** The CLI's exit codes, the same for every subcommand. */
export const EXIT_OK = 0;
/** The command ran but nothing was accepted (no commit, no matching run, …). */
export const EXIT_NOTHING_ACCEPTED = 1;
/** Bad input, a failed run, or an internal error; stderr says which in one sentence. */
export const EXIT_ERROR = 2;
