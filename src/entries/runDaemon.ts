// out/runDaemon.js: the run daemon (src/daemon/main.ts), started from the shared Node bundle (nodeProcesses.ts).
import { start } from './start';

start('runDaemon');
