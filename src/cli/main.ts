// Entry point of out/cli.js (bin/ratchet.js). Everything testable lives in program.ts.
import { hideFromEnviron, secretVariableNames } from '../node/environSecrets';
import { main } from './program';

// An evaluated program that can see this process must not read the user's keys in /proc/<pid>/environ (the run hides its roles' apiKeyEnv too).
hideFromEnviron(secretVariableNames());

void main(process.argv).then((code) => {
  process.exitCode = code;
});
