// out/cli.js: the `ratchet` CLI (src/cli/main.ts; bin/ratchet.js), started from the shared Node bundle (nodeProcesses.ts).
import { start } from './start';

start('cli');
