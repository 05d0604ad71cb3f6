// Entry point of out/cli.js (bin/ratchet.js). Everything testable lives in program.ts.
import { main } from './program';

void main(process.argv).then((code) => {
  process.exitCode = code;
});
